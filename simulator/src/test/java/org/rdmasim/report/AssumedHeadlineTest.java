package org.rdmasim.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rdmasim.hardware.Bottleneck;
import org.rdmasim.hardware.ProfileKey;
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
 * The answer says, under its headline, when the headline's slowest pull rests on an assumed profile parameter and
 * what it is without it: exactly when the limit that set it is such a parameter, or the rerun without one moves it
 * by more than {@link Verdict#NO_CHANGE} of it. Not for a calibrated parameter, not for another variant's rerun, not
 * for a rerun that leaves it as it is. The rerun's figure is worded as the page's "rests on" words it.
 */
class AssumedHeadlineTest {
    private static final Bottleneck SOURCE_WIRE = new Bottleneck.NicWire("src", "mlx5_0", Bottleneck.Side.TX, null);
    /** gb200-roce's nicReadAtResponder is assumed, its nicReadRate calibrated (profiles/gb200-roce.properties). */
    private static final String ASSUMED = "nicReadAtResponder";
    private static final String CALIBRATED = "nicReadRate";

    private static VariantOutcome variant(String name, double pull, Bottleneck limit) {
        TransferSpec spec = new TransferSpec(name, new Endpoint("src", "GPU0"), new Endpoint("dst", "GPU0"),
                1_000_000_000L, Operation.READ, 1, DataPath.GPUDIRECT, DataPath.GPUDIRECT, false, 0);
        TransferResult t = new TransferResult(spec, 0, pull,
                List.of(new LaneResult("mlx5_0", "mlx5_0", 1_000_000_000L, 0, pull, limit)), limit);
        return new VariantOutcome(name, "", VariantOutcome.Status.OK, "",
                new RunResult(List.of(t), List.of(), List.of(), List.of(), 10, 1), 1.0, null, RegistrationTotals.ZERO);
    }

    private static WithoutAnswer rerun(String variant, String key, double pull) {
        return new WithoutAnswer(variant, "gb200-roce", key, "", variant(variant, pull, SOURCE_WIRE));
    }

    private static List<String> said(List<VariantOutcome> outcomes, List<WithoutAnswer> withouts) {
        return Verdict.answer(outcomes, null, new AnswerContext(null, Map.of(), withouts)).statements().stream()
                .map(s -> s.lead() + s.text()).toList();
    }

    private static List<String> assumedSentences(List<String> said) {
        return said.stream().filter(s -> s.contains("rests on an assumed parameter")).toList();
    }

    /** The slower variant held by gb200-roce's calibrated READ rate: the page lists that profile under "rests on". */
    private static final List<VariantOutcome> TWO = List.of(variant("tree", 1.0, SOURCE_WIRE),
            variant("direct", 4.0, new Bottleneck.NicReadCalibrated("dst", "mlx5_0", "gb200-roce")));

    @Test
    void aRerunThatMovesTheHeadlineSaysSoUnderItWithTheFigureWithoutIt() {
        List<String> said = said(TWO, List.of(rerun("tree", ASSUMED, 1.26), rerun("direct", ASSUMED, 5.0)));
        assertTrue(said.get(0).startsWith("Fastest: tree"), said.get(0));
        assertEquals("tree's 1 s rests on an assumed parameter, one no measurement or mechanism decides: profile "
                + "gb200-roce: nicReadAtResponder = 0 (0: the NIC that issues the READ holds the rate; 1: the NIC that "
                + "answers it), assumed. Rerun without it (the 308 Gbps holds the NIC "
                + "that answers the READ instead), slowest pull: tree 1.2600 s (6 Gbps; 1.0000 s with it), 26% longer.",
                said.get(1));
        assertEquals(1, assumedSentences(said).size(), said.toString());
        // the page's "rests on" words the same rerun the same way
        String restsOn = Verdict.answer(TWO, null, new AnswerContext(null, Map.of(), List.of(rerun("tree", ASSUMED, 1.26),
                rerun("direct", ASSUMED, 5.0)))).restsOn().calibrated().stream()
                .filter(l -> l.contains(ASSUMED)).findFirst().orElseThrow();
        assertTrue(restsOn.contains("Rerun without it (the 308 Gbps holds the NIC that answers the READ instead), "
                + "slowest pull: tree 1.2600 s (6 Gbps; 1.0000 s with it); direct 5.0000 s"), restsOn);
    }

    @Test
    void noSentenceWhenTheRerunLeavesTheHeadlineWithinOnePercent() {
        assertEquals(List.of(), assumedSentences(said(TWO, List.of(rerun("tree", ASSUMED, 1.009)))));
        assertEquals(1, assumedSentences(said(TWO, List.of(rerun("tree", ASSUMED, 1.011)))).size());
    }

    @Test
    void noSentenceForAnotherVariantsRerunOrACalibratedParameter() {
        assertEquals(List.of(), assumedSentences(said(TWO, List.of(rerun("direct", ASSUMED, 8.0)))));
        assertEquals(List.of(), assumedSentences(said(TWO, List.of(rerun("tree", CALIBRATED, 2.0)))));
        assertEquals(List.of(), assumedSentences(said(TWO, List.of())));
    }

    @Test
    void aLimitThatIsAnAssumedParameterSaysSoEvenWithoutARerun() {
        // the Grace-Grace link's rate is assumed and has no stand-in: the answer says there is no rerun
        Bottleneck grace = new Bottleneck.SocketLink("dst", 0, 1, "gb200-roce", ProfileKey.GRACE_TO_GRACE);
        List<String> said = said(List.of(variant("across", 1.0, grace), variant("near", 2.0, SOURCE_WIRE)), List.of());
        assertEquals(List.of("across's 1 s rests on an assumed parameter, one no measurement or mechanism decides: "
                + "profile gb200-roce: graceToGrace = 100 GB/s, assumed. No rerun without it: nothing stands in for its "
                + "absence (no public figure replaces it)."), assumedSentences(said));
        assertTrue(said.get(1).startsWith("across's 1 s rests on"), said.toString());
    }

    @Test
    void aSingleVariantOrATieHasItsHeadlineCheckedToo() {
        List<String> one = said(List.of(variant("only", 1.0, SOURCE_WIRE)), List.of(rerun("only", ASSUMED, 1.5)));
        assertTrue(one.get(0).startsWith("All variants: only"), one.toString());
        assertTrue(one.get(1).startsWith("only's 1 s rests on an assumed parameter"), one.toString());
        assertTrue(one.get(1).endsWith("50% longer."), one.toString());
    }
}
