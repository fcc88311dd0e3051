package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An engineer's question end to end: on GB200 with NIXL 1.1 and UCX 1.20, what does going from the
 * pinned NIC to four NICs with 4 rails buy, and what does the answer rest on?
 */
class EngineerQuestionTest {
    @TempDir
    Path dir;

    @Test
    void pinnedVsFourNicsNamesTheCalibratedRateAndItsAssumption() throws Exception {
        Path scenario = CliTestSupport.repo().resolve("scenarios/seed003-nic-pin-vs-stripe.yaml");
        assertEquals(0, CliTestSupport.run("run", scenario.toString(), "--out", dir.toString(), "-q").code());
        String csv = Files.readString(dir.resolve("transfers.csv"));
        // 16 GB at the calibrated 308 Gbps per NIC: 0.4156 s pinned; 4 rails over the two same-Grace NICs
        // under the UCX of NIXL's wheel (no ucx.conf), 0.2078 s; 0.1039 s over four NICs when ucx.conf is read
        assertTrue(csv.contains("gb200-mx-pin-auto,transfer,t0,source:GPU0,receiver:GPU0,read,,,16000000000,"), csv);
        String pinned = row(csv, "gb200-mx-pin-auto,transfer,");
        String striped = row(csv, "gb200-stripe-4-rails,transfer,");
        String prefix = row(csv, "gb200-stripe-4-rails-ucx-prefix,transfer,");
        assertEquals(0.4156, Double.parseDouble(pinned.split(",")[11]), 0.0005);
        assertEquals(0.2078, Double.parseDouble(striped.split(",")[11]), 0.0005);
        assertEquals(0.1039, Double.parseDouble(prefix.split(",")[11]), 0.0005);
        assertTrue(pinned.contains("calibrated to gb200-roce"), pinned);
        assertTrue(striped.contains("calibrated to gb200-roce"), striped);
        // four lanes either way: both paths of two NICs, or one path of each of four NICs
        assertEquals(4, csv.lines().filter(l -> l.startsWith("gb200-stripe-4-rails,lane,")).count());
        assertEquals(4, csv.lines().filter(l -> l.startsWith("gb200-stripe-4-rails-ucx-prefix,lane,")).count());

        var explain = CliTestSupport.run("explain", scenario.toString(), "--variant", "gb200-stripe-4-rails-ucx-prefix");
        assertEquals(0, explain.code());
        assertTrue(explain.out().contains("rests on (profile gb200-roce): nicReadRate = 308 Gbps, calibrated "
                + "(ai-dynamo/modelexpress #449 [mx-issue-449]"),
                explain.out());
        assertTrue(explain.out().lines().anyMatch(l -> l.matches("\\s*UCX_DISTANCE_BW\\s+auto,sys:16500MBs\\s+UCX_CONF")),
                explain.out());
        // UCX_PROTO_INFO's lanes column as proto_multi.c v1.20.0 L537-592 writes it for several devices
        assertTrue(explain.out().contains("| 25% on rc_mlx5/mlx5_0:1/path0, 25% on rc_mlx5/mlx5_1:1/path0, "
                + "25% on rc_mlx5/mlx5_2:1/path0 and 25% on rc_mlx5/mlx5_3:1/path0 |"), explain.out());
    }

    private static String row(String csv, String prefix) {
        return csv.lines().filter(l -> l.startsWith(prefix)).findFirst().orElse("");
    }
}
