package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.Presets;
import org.rdmasim.hardware.Units;
import org.rdmasim.run.VariantRunner;
import org.rdmasim.scenario.Scenario;
import org.rdmasim.scenario.ScenarioLoader;
import org.rdmasim.scenario.VariantSpec;
import org.rdmasim.transport.TransferResult;
import org.rdmasim.workload.VariantOutcome;

/**
 * The catalog's relaxed-ordering scenario against hand computations: Crusoe's workaround [crusoe-kb-nixl]
 * ({@code UCX_IB_PCI_RELAXED_ORDERING=auto}) halves the MRs of NIXL's 'try' on a DGX B200, and on UCX
 * 1.20 leaves GPU memory written in strict order: 16 GB through the profile's 128 Gbps route takes 1 s.
 * UCX 1.21 and 1.22 list Emerald Rapids for GPU memory, so 'auto' keeps relaxed ordering and both MRs.
 */
class RelaxedOrderingScenarioTest {
    @Test
    void theWorkaroundHalvesRegistrationsAndTriplesThePullOnlyBeforeUcx121() throws IOException {
        Scenario s = ScenarioLoader.parse(Files.readString(CliTestSupport.repo().resolve(
                "scenarios/relaxed-ordering-b200.yaml")), "relaxed-ordering-b200.yaml");
        Map<String, VariantOutcome> by = new HashMap<>();
        for (VariantSpec v : s.variants()) {
            by.put(v.name(), VariantRunner.run(v, s.seed()));
        }
        double strictRoute = Units.gbpsToBytesPerSecond(128);
        Host b200 = new Host("x", Presets.get("dgx-b200"));
        double wire = b200.nic("mlx5_4").nic().payloadBytesPerSecond(b200.profile());
        double bytes = 16e9;
        for (TransferResult t : by.get("workaround-auto").result().transfers()) {
            // both paths of the pinned NIC share its one strict-order route
            assertEquals(bytes / strictRoute, t.finishSeconds() - t.startSeconds(), 1e-4, t.spec().id());
            assertTrue(t.bottleneck().id().endsWith("strict-order writes into GPU memory, calibrated to emr-connectx (openucx/ucx PR #10955)"));
        }
        for (String relaxed : new String[] {"nixl-try", "workaround-auto-ucx-1.21", "workaround-auto-ucx-1.22"}) {
            for (TransferResult t : by.get(relaxed).result().transfers()) {
                assertEquals(bytes / wire, t.finishSeconds() - t.startSeconds(), 1e-4, relaxed + " " + t.spec().id());
            }
        }
        long tryMrs = by.get("nixl-try").registration().mrCount();
        assertEquals(tryMrs / 2, by.get("workaround-auto").registration().mrCount());
        assertEquals(tryMrs, by.get("workaround-auto-ucx-1.21").registration().mrCount());
        assertEquals(tryMrs, by.get("workaround-auto-ucx-1.22").registration().mrCount());
    }

    @Test
    void explainSaysWhichWritesAreStrictAndWhatThatCostsHere() {
        String file = CliTestSupport.repo().resolve("scenarios/relaxed-ordering-b200.yaml").toString();
        var strict = CliTestSupport.run("explain", file, "--variant", "workaround-auto", "--transfers", "1");
        assertEquals(0, strict.code(), strict.err());
        assertTrue(strict.out().contains("writes by receiver:mlx5_4 into receiver:GPU0: strict PCIe order"), strict.out());
        assertTrue(strict.out().contains("strictOrderGpuWriteRate = 128 Gbps, calibrated"), strict.out());
        var relaxed = CliTestSupport.run("explain", file, "--variant", "nixl-try", "--transfers", "1");
        assertTrue(relaxed.out().contains("writes by receiver:mlx5_4 into receiver:GPU0: relaxed PCIe order"),
                relaxed.out());
    }
}
