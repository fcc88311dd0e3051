package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rdmasim.scenario.Scenario;
import org.rdmasim.scenario.ScenarioLoader;
import org.rdmasim.run.VariantRunner;
import org.rdmasim.scenario.VariantSpec;
import org.rdmasim.report.ReceiverSummary;
import org.rdmasim.workload.VariantOutcome;

/** The message-size curve of the shipped sweep scenario rises with size and flattens at the right cap. */
class MessageSizeSweepTest {
    @Test
    void curvesAreMonotoneAndApproachTheirCaps() {
        Path file = Path.of(System.getProperty("rdmasim.repo", "..")).resolve("scenarios/message-size-sweep.yaml");
        Scenario s = ScenarioLoader.load(file);
        for (String series : s.sweep().series()) {
            List<Double> gbps = new ArrayList<>();
            for (long size : s.sweep().messageSizes()) {
                VariantSpec v = s.variants().stream()
                        .filter(x -> x.name().equals(Scenario.Sweep.variantName(series, size))).findFirst().orElseThrow();
                VariantOutcome o = VariantRunner.run(v, s.seed());
                assertEquals(VariantOutcome.Status.OK, o.status(), v.name() + ": " + o.error());
                gbps.add(ReceiverSummary.of(o.result()).aggregateGbps());
            }
            for (int i = 1; i < gbps.size(); i++) {
                assertTrue(gbps.get(i) >= gbps.get(i - 1) * (1 - 1e-9), series + " not monotone at " + i + ": " + gbps);
            }
            double last = gbps.get(gbps.size() - 1);
            // dgx-h100, one QP: WRITE reaches the NDR wire rate after IB framing ([ucx-src] ib_iface.c);
            // READ one QP's calibrated READ rate, 320 Gbps (profile connectx7, pegaflow #291).
            double cap = series.equals("read") ? 320.0 : 400 * 4096.0 / 4140;
            assertEquals(cap, last, cap * 0.005, series + " at 1 GiB");
            assertTrue(gbps.get(0) < cap * 0.01, series + " at the smallest size should be far below its cap: " + gbps.get(0));
            // below 1 KiB, each size is four times the last (factor 4): bandwidth grows with the message, as
            // one message per posting slot (WRITE) or 16 READs per round trip (READ) predicts
            assertEquals(4.0, gbps.get(1) / gbps.get(0), 0.2, series + ": " + gbps);
        }
    }
}
