package org.rdmasim.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.rdmasim.hardware.Bottleneck;
import org.rdmasim.memory.RegistrationTotals;
import org.rdmasim.transport.DataPath;
import org.rdmasim.transport.Endpoint;
import org.rdmasim.transport.LaneResult;
import org.rdmasim.transport.Operation;
import org.rdmasim.transport.TransferResult;
import org.rdmasim.transport.TransferSpec;
import org.rdmasim.workload.RunResult;
import org.rdmasim.workload.VariantOutcome;

/**
 * Where registration is modelled the answer ranks variants by time to first use (the registration wall, the
 * slowest process's, then the pull), says so, and names the variant the pull alone would have ranked first; where
 * it is not, it ranks by the pull as before. Hand-made outcomes, times worked out here.
 */
class FirstUseAnswerTest {
    private static final Bottleneck RX = new Bottleneck.NicWire("dst", "mlx5_0", Bottleneck.Side.RX, null);

    /** One receiver pulling 1e9 bytes from 0 to {@code pull} seconds, after a registration of {@code wall} s a GPU. */
    private static VariantOutcome variant(String name, double pull, double wall, int gpus) {
        TransferSpec spec = new TransferSpec(name, new Endpoint("src", "GPU0"), new Endpoint("dst", "GPU0"),
                1_000_000_000L, Operation.READ, 1, DataPath.GPUDIRECT, DataPath.GPUDIRECT, false, 0);
        TransferResult t = new TransferResult(spec, 0, pull,
                List.of(new LaneResult("mlx5_0", "mlx5_0", 1_000_000_000L, 0, pull, RX)), RX);
        RunResult r = new RunResult(List.of(t), List.of(), List.of(), List.of(), 10, 1);
        return new VariantOutcome(name, "", VariantOutcome.Status.OK, "", r, 1.0, null,
                new RegistrationTotals(gpus, 0, 0, 0, gpus * wall, wall));
    }

    private static List<String> said(List<VariantOutcome> outcomes) {
        return Verdict.answer(outcomes, null, AnswerContext.NONE).statements().stream()
                .map(s -> s.lead() + s.text()).toList();
    }

    @Test
    void thePullRanksAndRegistrationNamesTheFirstToUseItsData() {
        // pinned: 0.1 s registration (one NIC), 0.4 s pull -> 0.5 s; striped: 0.4 s registration, 0.2 s pull -> 0.6 s
        List<String> said = said(List.of(variant("pinned", 0.4, 0.1, 8), variant("striped", 0.2, 0.4, 8)));
        assertEquals(Verdict.FIRST_USE_RULE, said.get(0));
        assertTrue(said.get(1).startsWith("Fastest: striped, slowest pull 0.2 s"), said.get(1));
        assertTrue(said.get(1).endsWith("; 0.6 s to first use (registration wall 0.4 s, then the pull)."), said.get(1));
        assertTrue(said.get(2).startsWith("Slowest: pinned, slowest pull 0.4 s"), said.get(2));
        assertEquals("The fastest is 2 times faster (slowest pull 0.2 s vs 0.4 s).", said.get(3));
        assertEquals("Counting registration, the first to use its data would be pinned: 0.5 s to first use against "
                + "0.6 s for striped, its shorter registration wall (0.1 s against 0.4 s) outweighing its slower pull.",
                said.get(4));
        assertEquals(5, said.size(), said.toString());
    }

    @Test
    void aTieToFirstUseNamesEveryVariantAndNoOneVariantsWalls() {
        // pinned 0.1 + 0.4 and half 0.2 + 0.3 both reach first use at 0.5 s; striped pulls fastest but at 0.6 s
        List<String> said = said(List.of(variant("pinned", 0.4, 0.1, 8), variant("half", 0.3, 0.2, 8),
                variant("striped", 0.2, 0.4, 8)));
        String counting = said.stream().filter(x -> x.startsWith("Counting registration")).findFirst().orElseThrow();
        assertTrue(counting.startsWith("Counting registration, the first to use its data would be pinned (tied with "
                + "half): 0.5 s to first use against 0.6 s for striped, their shorter registration walls"), counting);
    }

    @Test
    void theWallNotTheSumOverGpusIsWhatIsAdded() {
        // 8 GPUs registering 0.1 s each side by side: 0.1 s is added to the pull, not 0.8 s
        Verdict.Line l = Verdict.lines(List.of(variant("eight", 0.4, 0.1, 8))).get(0);
        assertEquals(0.1, l.registrationSeconds(), 0.0);
        assertEquals(0.5, l.firstUseSeconds(), 1e-12);
        assertEquals(0.4, l.seconds(), 1e-12);
    }

    @Test
    void theSameRegistrationEverywhereKeepsThePullsOrderAndNamesNoOther() {
        List<String> said = said(List.of(variant("a", 0.4, 0.3, 2), variant("b", 0.2, 0.3, 2)));
        assertEquals(Verdict.FIRST_USE_RULE, said.get(0));
        assertTrue(said.get(1).startsWith("Fastest: b, slowest pull 0.2 s") && said.get(1).contains("0.5 s to first use"),
                said.get(1));
        assertTrue(said.stream().noneMatch(s -> s.startsWith("Counting registration")), said.toString());
    }

    @Test
    void theRuleIsTheMemoryPackagesAndAVariantThatRegistersNothingSaysSoRatherThanAZeroWall() {
        // a staged copy registers nothing with the NIC; the direct one does: the rule is said, from its one home
        List<String> said = said(List.of(variant("direct", 0.2, 0.1, 8), variant("staged", 0.4, 0, 0)));
        assertTrue(Verdict.FIRST_USE_RULE.contains(RegistrationTotals.RULE), Verdict.FIRST_USE_RULE);
        assertEquals(Verdict.FIRST_USE_RULE, said.get(0));
        String staged = said.stream().filter(x -> x.startsWith("Slowest: staged")).findFirst().orElseThrow();
        assertTrue(staged.endsWith("; 0.4 s to first use (nothing registered with the NIC before the pull: the pull "
                + "alone)."), staged);
        assertTrue(said.stream().noneMatch(x -> x.contains("registration wall 0 s")), said.toString());
    }

    @Test
    void withoutRegistrationTheRankingIsByPullAsBefore() {
        List<String> said = said(List.of(variant("pinned", 0.4, 0, 1), variant("striped", 0.2, 0, 1)));
        assertFalse(said.contains(Verdict.FIRST_USE_RULE));
        assertTrue(said.get(0).startsWith("Fastest: striped, slowest pull 0.2 s"), said.get(0));
        assertEquals("The fastest is 2 times faster (slowest pull 0.2 s vs 0.4 s).", said.get(2));
    }
}
