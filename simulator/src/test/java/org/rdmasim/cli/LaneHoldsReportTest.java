package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A lane that first shares its GPU's PCIe link with the transfer's other lanes and then runs alone at one QP's
 * READ rate is said to be held by both, each with its share of the lane's time, and the answer names the GPU
 * link, as the pull's bound, and its floor: the link held the lanes longest, and it, not the last lane's READ
 * rate, set most of the pull. Four rails on DGX H100 from GPU0 to GPU0 (UCX weights the PIX NIC's lane 49%, the
 * three NODE NICs' 17% each): all four share the source GPU's PCIe Gen5 x16 until the three small lanes end,
 * then mlx5_0's lane finishes alone at the calibrated 320 Gbps of one QP.
 */
class LaneHoldsReportTest {
    /** Four rails on DGX H100 from GPU0 to GPU0, one variant, "stripe" (HeldLongestBoundTest reads its bound). */
    static final String STRIPE = """
            # four rails from one GPU: what holds the lanes?
            name: dgx-stripe
            seed: 1
            hosts:
              source: {preset: dgx-h100}
              receiver: {preset: dgx-h100}
            transport:
              operation: read
              nixl: "1.1.0"
              ucx: "1.20.0"
            workload:
              transfers:
                - {from: "source:GPU0", to: "receiver:GPU0", size: 16 GB}
            variants:
              - name: stripe
                transport:
                  env: |
                    export UCX_NET_DEVICES=mlx5_0:1,mlx5_3:1,mlx5_4:1,mlx5_5:1
                    export UCX_MAX_RMA_RAILS=4
            """;

    @TempDir
    Path dir;

    @Test
    void aLaneHeldByTwoLimitsSaysEachWithItsShareOfTimeAndTheAnswerNamesTheGpuLinkFloor() throws IOException {
        Path f = dir.resolve("stripe.yaml");
        Files.writeString(f, STRIPE);
        Path out = dir.resolve("out");
        var r = CliTestSupport.run("run", f.toString(), "-o", out.toString());
        assertEquals(0, r.code(), r.err());
        // the lanes' times, from transfers.csv: the PCIe-shared phase ends when the three small lanes do
        double bigStart = 0;
        double bigFinish = 0;
        double smallFinish = 0;
        int small = 0;
        for (String line : Files.readAllLines(out.resolve("transfers.csv"))) {
            String[] c = line.split(",");
            if (c.length > 10 && c[1].equals("lane")) {
                if (c[6].equals("mlx5_0")) {
                    bigStart = Double.parseDouble(c[9]);
                    bigFinish = Double.parseDouble(c[10]);
                } else {
                    smallFinish = Math.max(smallFinish, Double.parseDouble(c[10]));
                    small++;
                }
            }
        }
        assertEquals(3, small);
        double pcieShare = (smallFinish - bigStart) / (bigFinish - bigStart);
        assertTrue(pcieShare > 0.5 && pcieShare < 0.7, "the shared phase is most of the lane's time: " + pcieShare);
        String page = Files.readString(out.resolve("index.html")).replace("&#39;", "'");
        String expected = String.format(Locale.ROOT, "%.0f%%", 100 * pcieShare);
        String rest = String.format(Locale.ROOT, "%.0f%%", 100 * (1 - pcieShare));
        assertTrue(page.contains("mlx5_0&rarr;mlx5_0 path0") || page.contains("mlx5_0→mlx5_0 path0"), page);
        // the lane line: both limits, each with its share of the lane's time, the longer first
        assertTrue(page.contains("held by GPU0's PCIe link on source (towards the CPU) for " + expected
                + " of its time and by one QP's RDMA READ rate on receiver:mlx5_0"), page);
        assertTrue(page.contains("(320 Gbps, profile connectx7) for " + rest), page);
        // a lane one limit held all its life reads as before
        assertTrue(page.contains("held by GPU0's PCIe link on source (towards the CPU)</span>"), page);
        // the answer names the GPU link that held the lanes longest, and its floor: 16 GB over 451.2 Gbps
        // (the link is the pull's bound, the limit that held its last lane longest, so the answer says "limited by" it)
        Matcher m = Pattern.compile("limited by GPU0's PCIe link on source \\(towards the CPU\\) \\(([0-9.]+) Gbps; it held "
                + "all 4 lanes for ([0-9]+)% of the pull: through that link alone 16 GB take at "
                + "least ([0-9.]+) s, the GPU-link floor\\)").matcher(page);
        assertTrue(m.find(), page);
        double linkGbps = Double.parseDouble(m.group(1));
        assertEquals(451.2, linkGbps, 0.05, "PCIe Gen5 x16");
        assertEquals(expected, m.group(2) + "%");
        assertEquals(16e9 * 8 / (linkGbps * 1e9), Double.parseDouble(m.group(3)), 1e-3);
        double pull = bigFinish;
        assertTrue(Double.parseDouble(m.group(3)) < pull, "the floor is below the modelled pull");
        assertTrue(List.of(page.split("GPU-link floor")).size() == 2, "said once, for the one variant");
        // explain's modelled line says the same: a pull bound by the link at 399 Gbps, below the link's 451,
        // reads as the link holding the lanes for part of the pull, with the floor it sets
        var explain = CliTestSupport.run("explain", f.toString());
        assertEquals(0, explain.code(), explain.err());
        assertTrue(explain.out().contains("limited by source:GPU0 PCIe up (451.2 Gbps; it held all 4 lanes for "
                + expected + " of the pull: through that link alone 16 GB take at least " + m.group(3)
                + " s, the GPU-link floor)\n"), explain.out());
    }

    /** A pull a NIC bounds has nothing of a GPU link added to explain's modelled line. */
    @Test
    void explainAddsNoGpuLinkClauseToAPullANicBounds() throws IOException {
        Path f = dir.resolve("pin.yaml");
        Files.writeString(f, STRIPE.replace("export UCX_NET_DEVICES=mlx5_0:1,mlx5_3:1,mlx5_4:1,mlx5_5:1",
                "export UCX_NET_DEVICES=mlx5_0:1"));
        var explain = CliTestSupport.run("explain", f.toString());
        assertEquals(0, explain.code(), explain.err());
        assertTrue(explain.out().contains("\nmodelled:        0.3234 s (395.7 Gbps), limited by source:mlx5_0 tx\n"),
                explain.out());
    }
}
