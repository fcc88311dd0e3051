package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.rdmasim.engine.RunWatch;
import org.rdmasim.run.VariantRunner;
import org.rdmasim.scenario.ScenarioLoader;

/**
 * The progress line says what a run does beyond its own simulation (a refit's "what would halve it" tries, each a
 * refit of its own, during which its own counts stand still), and stops saying it when that is over.
 */
class ProgressLineTest {
    @Test
    void aTryInProgressIsNamedAndForgottenWhenDone() {
        RunWatch watch = new RunWatch();
        watch.expect(8, null, 1);
        assertFalse(Progress.detail(watch, 3, 100, 50).contains("what would halve it"));
        watch.doing("what would halve it: 2 of 7, a bucket of 8GiB (4x)");
        String line = Progress.detail(watch, 3, 100, 50);
        assertTrue(line.endsWith(" | what would halve it: 2 of 7, a bucket of 8GiB (4x)"), line);
        assertTrue(line.contains("0/8 finished"), line);
        watch.doing(null);
        assertFalse(Progress.detail(watch, 3, 100, 50).contains("what would halve it"));
    }

    @Test
    void aRefitCountsItsInferenceRanksDoneAsEachCycleEnds() throws Exception {
        var scenario = ScenarioLoader.load(CliTestSupport.repo().resolve("scenarios/refit-qwen3-4b-gb200.yaml"));
        var v = scenario.variants().get(0);
        RunWatch watch = new RunWatch();
        VariantRunner.run(v, scenario.seed(), 1, 1, watch);
        // 16 inference ranks, 2 cycles: the count ends where the run said it would, not at 0
        assertEquals(32, watch.expectedUnits());
        assertEquals(watch.expectedUnits(), watch.finishedUnits());
    }
}
