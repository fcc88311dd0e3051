package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A refit's page says under "What the answer rests on" what set each refit's time, from its own run: the steady
 * cycle's bound (summary.json's boundWords), whether that is a mechanism or a calibrated number, and lists a
 * profile's numbers only when the bound stands on them. Found by the RL refit QA pass: the section took its
 * numbers from the lanes of single transfers (one tensor's) and, where none was calibrated, said that no
 * calibrated parameter holds any transfer back, which says nothing of what the refit's time rests on.
 */
class RefitRestsOnPageTest {
    @TempDir
    Path dir;

    /** RefitBoundTest's: a pull bound by the trainer NICs' line rate, a broadcast by its bucket calls. */
    private static final String DGX = RefitBoundTest.PULL_AND_BROADCAST;

    /** One GB200 GPU to one: the receiver NIC's READ rate, fitted to ModelExpress #449, holds the pull. */
    private static final String GB200 = """
            name: refit-one-to-one
            seed: 1
            hosts:
              trainers: {preset: gb200-tray, count: 1, prefix: train}
              inference: {preset: gb200-tray, count: 1, prefix: infer}
            transport:
              operation: read
              nixl: "1.1.0"
              ucx: "1.20.0"
              env: |
                export MX_RDMA_NIC_PIN=auto
            workload:
              refit:
                model: model.json
                trainer: {hosts: trainers, dp: 1}
                inference: {hosts: inference, tp: 1, dp: 1}
                method: rdma-pull
                cycles: 2
            variants:
              - name: pinned
            """;

    private record Page(String restsOn, JsonNode summary, String stdout, Path out) {
        String boundWords(String variant) {
            for (JsonNode v : summary.get("variants")) {
                if (v.get("name").asText().equals(variant)) {
                    JsonNode cycles = v.get("refit").get("cycles");
                    return cycles.get(cycles.size() - 1).get("boundWords").asText();
                }
            }
            throw new AssertionError("no variant " + variant);
        }
    }

    private Page run(String yaml) throws IOException {
        Files.writeString(dir.resolve("model.json"), RefitBoundTest.MODEL);
        Path f = dir.resolve("s" + Integer.toHexString(yaml.hashCode()) + ".yaml");
        Files.writeString(f, yaml);
        Path out = dir.resolve("out" + Integer.toHexString(yaml.hashCode()));
        var r = CliTestSupport.run("run", f.toString(), "-o", out.toString(), "-q", "--skip-without");
        assertEquals(0, r.code(), r.err());
        String html = Files.readString(out.resolve("index.html"));
        int from = html.indexOf("<h2>What the answer rests on</h2>");
        int to = html.indexOf("<h2", from + 10);
        String section = html.substring(from, to < 0 ? html.length() : to).replaceAll("<[^>]+>", "")
                .replace("&#39;", "'").replace("&amp;", "&");
        return new Page(section, new ObjectMapper().readTree(out.resolve("summary.json").toFile()), r.out(), out);
    }

    @Test
    void aRefitBoundByTheWireSaysSoAndNotThatNoTransferIsHeldBack() throws IOException {
        Page p = run(DGX);
        String pullBound = p.boundWords("pull");
        assertTrue(pullBound.contains("line rate"), pullBound);
        assertTrue(p.restsOn().contains("pull: its refit time, ") && p.restsOn().contains(" s a steady cycle, is set by "
                + pullBound), p.restsOn());
        // a tie of NICs is named as the limits busy longest
        assertTrue(p.restsOn().contains(pullBound + (pullBound.startsWith("a tie") ? ", the limits" : ", the limit")
                + " busy longest in that cycle: a mechanism with a derived capacity, not a calibrated or assumed number"),
                p.restsOn());
        // the first cycle registers: said with the kind of its terms
        assertTrue(p.restsOn().contains(") also registers (its register stage "), p.restsOn());
        assertFalse(p.restsOn().contains("no calibrated parameter holds any transfer back"), p.restsOn());
        // the broadcast's bucket calls, a calibrated cost, bound it: its line and the list say so
        String bcBound = p.boundWords("broadcast");
        assertTrue(p.restsOn().contains("broadcast: its refit time, ") && p.restsOn().contains("is set by " + bcBound),
                p.restsOn());
        assertTrue(p.restsOn().contains("not a mechanism but a number fitted to a measurement or assumed, "
                + "refit.bucketSeconds (calibrated)"), p.restsOn());
        assertTrue(p.restsOn().matches("(?s).*refit\\.bucketSeconds = 5\\.65 ms, calibrated \\(whitecircle/halo PR #11.*"
                + "; it bounds broadcast.*"), p.restsOn());
        // the pull rests on no bucket call: its line does not name one as what bounds it
        assertFalse(p.restsOn().matches("(?s).*pull: [^\\n]*number fitted.*"), p.restsOn());
    }

    @Test
    void aRefitBoundByACalibratedReadRateNamesItAndItsProfile() throws IOException {
        Page p = run(GB200);
        String bound = p.boundWords("pinned");
        assertTrue(bound.contains("delivered RDMA READ rate") && bound.contains("CALIBRATED"), bound);
        assertTrue(p.restsOn().contains("is set by " + bound + ", the limit busy longest in that cycle: not a mechanism "
                + "but a number fitted to a measurement or assumed, nicReadRate (calibrated, profile gb200-roce)"),
                p.restsOn());
        assertTrue(p.restsOn().matches("(?s).*profile gb200-roce: nicReadRate = 308 Gbps, calibrated \\(ai-dynamo/"
                + "modelexpress #449.*; it bounds pinned.*"), p.restsOn());
        // the run table and the NIC chart say it as the page does, and a refit's chart speaks of its cycle, not pulls
        assertTrue(p.stdout().contains("CALIBRATED, not a mechanism: nicReadRate = 308 Gbps (profile gb200-roce), fitted "
                + "to ai-dynamo/modelexpress #449; it limits pinned."), p.stdout());
        String chart = Files.readString(p.out().resolve("nic-throughput-pinned.svg"));
        assertTrue(chart.contains("nicReadRate = 308 Gbps (profile gb200-roce), fitted to ai-dynamo/modelexpress #449; "
                + "it bounds this refit&apos;s steady cycle."), "the NIC chart's note");
        assertFalse(chart.contains("slowest pull"), "the NIC chart's note");
    }
}
