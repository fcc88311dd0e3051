package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rdmasim.run.VariantRunner;
import org.rdmasim.scenario.Scenario;
import org.rdmasim.scenario.ScenarioLoader;
import org.rdmasim.scenario.VariantSpec;
import org.rdmasim.workload.VariantOutcome;

/**
 * The perftest-shaped table of openucx/ucx #8851's ib_read_bw posing: each column worked out by hand from
 * the protocol costs. Host memory on both ends, one PCIe hop each side (110 ns), two NICs at 0.5 us, no
 * switch: one way 1.22 us, a READ round trip 2.44 us, so 16 READs per round trip would be 6.557 M READs/s;
 * perftest's one doorbell per READ (391 ns, calibrated on the 8 B row) holds it to 2.558 M READs/s.
 */
class PerftestTableTest {
    @Test
    void columnsFollowTheDoorbellPerReadAndPerftestUnits() {
        Path file = Path.of(System.getProperty("rdmasim.repo", "..")).resolve("scenarios/validation/ucx-8851-read-small.yaml");
        Scenario s = ScenarioLoader.load(file);
        List<VariantOutcome> outcomes = new ArrayList<>();
        for (VariantSpec v : s.variants()) {
            outcomes.add(VariantRunner.run(v, s.seed()));
        }
        StringWriter out = new StringWriter();
        PerftestTable.print(new PrintWriter(out, true), s.sweep(), outcomes);
        String row = out.toString().lines().filter(l -> l.startsWith(" 128 ")).findFirst().orElseThrow();
        String[] f = row.trim().split("\\s+");
        double oneWay = 2 * 0.5e-6 + 2 * 110e-9;
        double rtt = 2 * oneWay;
        double doorbell = 391e-9;
        double peakRate = 1 / doorbell;
        // the 16-READ window no longer binds: posting is 2.6x slower than it
        assertTrue(16 / rtt > 2.5 * peakRate);
        assertEquals(1000, Integer.parseInt(f[1]));
        // BW peak: one 128 B READ per doorbell, in MB/sec of 2^20 bytes
        assertEquals(peakRate * 128 / (1 << 20), Double.parseDouble(f[2]), 0.01);
        // average: 1000 READs at the posting rate, plus the first post, the NIC's work request (50 ns),
        // the request's way out and the last response's way back
        double elapsed = 1000 / peakRate + doorbell + 50e-9 + 2 * oneWay;
        assertEquals(1000 / elapsed / 1e6, Double.parseDouble(f[4]), 1e-5);
        assertEquals(1000 * 128 / elapsed / (1 << 20), Double.parseDouble(f[3]), 0.01);
        assertTrue(Double.parseDouble(f[3]) < Double.parseDouble(f[2]), row);
    }
}
