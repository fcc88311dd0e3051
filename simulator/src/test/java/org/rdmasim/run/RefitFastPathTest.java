package org.rdmasim.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rdmasim.engine.RunWatch;
import org.rdmasim.scenario.Scenario;
import org.rdmasim.scenario.ScenarioLoader;
import org.rdmasim.scenario.VariantSpec;
import org.rdmasim.transport.TransferResult;
import org.rdmasim.workload.VariantOutcome;

/**
 * A refit runs on the run layer's fluid network, as a fan-out does: flow groups on the default path, flow by
 * flow on the reference path, each event verified under {@code run --check}. The three give the same finish
 * times; the groups solve fewer flows (the reason a refit takes them: a mesh of writes into an engine's NICs
 * re-solved every flow at every completion).
 */
class RefitFastPathTest {
    private static VariantSpec variant(String file, String name) throws Exception {
        Path repo = Path.of(System.getProperty("rdmasim.repo", ".."));
        Scenario sc = ScenarioLoader.load(repo.resolve("scenarios").resolve(file));
        return sc.variants().stream().filter(v -> v.name().equals(name)).findFirst().orElseThrow();
    }

    private record Solved(VariantOutcome outcome, long flowsSolved) {
    }

    private static Solved run(VariantSpec v) {
        RunWatch watch = new RunWatch();
        VariantOutcome o = RefitVariant.run(v, VariantRunner.hostsOf(v), false, 1, watch);
        return new Solved(o, watch.counts().get("flows solved"));
    }

    @Test
    void aRefitIsGroupedOnTheDefaultPathAndAgreesWithTheReferenceAndTheCheckedRun() throws Exception {
        VariantSpec v = variant("refit-moe-methods.yaml", "write-schedule");
        Solved fast = run(v);
        Solved reference = RunChecks.withoutFastPaths(() -> run(v));
        Solved checked = RunChecks.with(true, () -> run(v));
        assertTrue(fast.flowsSolved() < reference.flowsSolved(),
                "grouped " + fast.flowsSolved() + " flows solved, flow by flow " + reference.flowsSolved());
        List<TransferResult> a = fast.outcome().result().transfers();
        List<TransferResult> b = reference.outcome().result().transfers();
        List<TransferResult> c = checked.outcome().result().transfers();
        assertEquals(b.size(), a.size());
        assertEquals(a.size(), c.size());
        java.util.Map<String, Double> want = new java.util.HashMap<>();
        b.forEach(t -> want.put(t.spec().id(), t.finishSeconds()));
        for (List<TransferResult> got : List.of(a, c)) {
            for (TransferResult t : got) {
                double w = want.get(t.spec().id());
                assertEquals(w, t.finishSeconds(), 1e-9 * Math.max(1, w), t.spec().id());
            }
        }
    }
}
