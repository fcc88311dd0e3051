package org.rdmasim.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
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
 * The answer gives the headline's figure under the other UCX install exactly when the scenario did not state its
 * install (a rerun exists only then) and that figure moves the headline's slowest pull by more than
 * {@link Verdict#NO_CHANGE} of it; not for another variant's rerun, not for a rerun that leaves it as it is.
 */
class OtherInstallHeadlineTest {
    private static final Bottleneck WIRE = new Bottleneck.NicWire("src", "mlx5_0", Bottleneck.Side.TX, null);

    private static VariantOutcome variant(String name, double pull) {
        TransferSpec spec = new TransferSpec(name, new Endpoint("src", "GPU0"), new Endpoint("dst", "GPU0"),
                1_000_000_000L, Operation.READ, 1, DataPath.GPUDIRECT, DataPath.GPUDIRECT, false, 0);
        TransferResult t = new TransferResult(spec, 0, pull,
                List.of(new LaneResult("mlx5_0", "mlx5_0", 1_000_000_000L, 0, pull, WIRE)), WIRE);
        return new VariantOutcome(name, "", VariantOutcome.Status.OK, "",
                new RunResult(List.of(t), List.of(), List.of(), List.of(), 10, 1), 1.0, null, RegistrationTotals.ZERO);
    }

    private static OtherInstallAnswer underPrefix(String variant, double pull) {
        return new OtherInstallAnswer(variant, "nixl-wheel", "prefix (ucx.conf read)", variant(variant, pull));
    }

    private static final List<VariantOutcome> TWO = List.of(variant("tree", 1.327), variant("direct", 4.0));

    private static List<String> installSentences(List<OtherInstallAnswer> others) {
        return Verdict.answer(TWO, null, new AnswerContext(null, Map.of(), List.of(), others)).statements().stream()
                .map(s -> s.lead() + s.text()).filter(s -> s.contains("under ucxInstall")).toList();
    }

    @Test
    void aFigureUnderTheOtherInstallThatMovesTheHeadlineIsSaidUnderIt() {
        List<String> said = installSentences(List.of(underPrefix("tree", 0.6652)));
        assertEquals(1, said.size(), said.toString());
        assertEquals("tree's 1.327 s assumes UCX install nixl-wheel (not stated by the scenario); under ucxInstall: "
                + "prefix (ucx.conf read) it takes 0.6652 s, 50% shorter: set transport.ucxInstall to the "
                + "deployment's.", said.get(0));
    }

    @Test
    void itComesRightUnderTheHeadline() {
        List<String> all = Verdict.answer(TWO, null, new AnswerContext(null, Map.of(), List.of(),
                List.of(underPrefix("tree", 0.6652)))).statements().stream().map(s -> s.lead() + s.text()).toList();
        int at = all.indexOf(all.stream().filter(s -> s.contains("under ucxInstall")).findFirst().orElseThrow());
        assertTrue(all.get(at - 1).contains("tree"), all.toString());
    }

    @Test
    void aFigureWithinTheNoChangeBandIsNotSaid() {
        assertEquals(List.of(), installSentences(List.of(underPrefix("tree", 1.327 * (1 + Verdict.NO_CHANGE / 2)))));
    }

    @Test
    void anotherVariantsFigureIsNotSaid() {
        assertEquals(List.of(), installSentences(List.of(underPrefix("direct", 1.0))));
    }

    @Test
    void withoutAReruntheAnswerSaysNothingOfTheInstall() {
        // a stated install: the run reruns nothing under the other (OtherInstall.of is empty)
        assertEquals(List.of(), installSentences(List.of()));
    }
}
