package org.rdmasim.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
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
import org.rdmasim.workload.ConfigAudit;
import org.rdmasim.workload.RunResult;
import org.rdmasim.workload.VariantOutcome;
import org.rdmasim.workload.WhatIf;

/**
 * A what-if variant (hosts on a profile other than their own) is never the headline, the slowest or the first to
 * use its data while a deployable variant exists: the deployable variants are ranked, and the what-if is stated
 * apart with its figures, labelled, saying where it would have come. Hand-made outcomes, times worked out here.
 */
class WhatIfAnswerTest {
    private static final Bottleneck RX = new Bottleneck.NicWire("dst", "mlx5_0", Bottleneck.Side.RX, null);
    private static final WhatIf UNCALIBRATED = new WhatIf(List.of(new WhatIf.Moved(List.of("src", "dst"), "generic",
            "gb200-roce")));

    /** One receiver pulling 1e9 bytes in {@code pull} seconds after a registration wall of {@code wall} seconds. */
    static VariantOutcome variant(String name, double pull, double wall, WhatIf whatIf) {
        TransferSpec spec = new TransferSpec(name, new Endpoint("src", "GPU0"), new Endpoint("dst", "GPU0"),
                1_000_000_000L, Operation.READ, 1, DataPath.GPUDIRECT, DataPath.GPUDIRECT, false, 0);
        TransferResult t = new TransferResult(spec, 0, pull,
                List.of(new LaneResult("mlx5_0", "mlx5_0", 1_000_000_000L, 0, pull, RX)), RX);
        RunResult r = new RunResult(List.of(t), List.of(), List.of(), List.of(), 10, 1);
        return new VariantOutcome(name, "", VariantOutcome.Status.OK, "", r, 1.0, null,
                new RegistrationTotals(1, 0, 0, 0, wall, wall)).withAudit(ConfigAudit.NONE.withWhatIf(whatIf));
    }

    private static List<String> said(List<VariantOutcome> outcomes) {
        return Verdict.answer(outcomes, null, AnswerContext.NONE).statements().stream()
                .map(s -> s.lead() + s.text()).toList();
    }

    @Test
    void aWhatIfFirstBothWaysIsNeverTheHeadlineAndIsStatedApartWithItsFigure() {
        // the what-if pulls in 0.1 s after 0.1 s of registration (0.2 s): first by the pull and to first use;
        // deployable: striped 0.2 s + 0.4 s = 0.6 s, pinned 0.4 s + 0.1 s = 0.5 s
        List<String> said = said(List.of(variant("uncalibrated", 0.1, 0.1, UNCALIBRATED),
                variant("pinned", 0.4, 0.1, null), variant("striped", 0.2, 0.4, null)));
        assertTrue(said.get(1).startsWith("Fastest: striped, slowest pull 0.2 s"), said.get(1));
        assertTrue(said.get(2).startsWith("Slowest: pinned, slowest pull 0.4 s"), said.get(2));
        assertEquals("The fastest is 2 times faster (slowest pull 0.2 s vs 0.4 s).", said.get(3));
        // the first to use its data, counting registration, is chosen among the deployable variants
        assertEquals("Counting registration, the first to use its data would be pinned: 0.5 s to first use against "
                + "0.6 s for striped, its shorter registration wall (0.1 s against 0.4 s) outweighing its slower pull.",
                said.get(4));
        String apart = said.get(5);
        assertTrue(apart.startsWith("What-if, not ranked: uncalibrated, slowest pull 0.1 s"), apart);
        assertTrue(apart.contains("0.2 s to first use (registration wall 0.1 s, then the pull). Its "
                + UNCALIBRATED.why() + "."), apart);
        assertTrue(apart.contains("By its slowest pull it would be the fastest: 0.1 s against 0.2 s for striped."), apart);
        assertTrue(apart.endsWith("Counting registration it would be the first to use its data: 0.2 s against 0.5 s "
                + "for pinned, the first of the deployable variants."), apart);
        assertEquals(6, said.size(), said.toString());
    }

    @Test
    void aWhatIfBehindTheDeployableVariantsClaimsNothing() {
        List<String> said = said(List.of(variant("uncalibrated", 0.5, 0.3, UNCALIBRATED),
                variant("pinned", 0.4, 0.1, null), variant("striped", 0.2, 0.2, null)));
        String apart = said.stream().filter(s -> s.startsWith("What-if")).findFirst().orElseThrow();
        assertFalse(apart.contains("it would be"), apart);
        assertTrue(said.stream().noneMatch(s -> s.startsWith("Counting registration")), said.toString());
    }

    @Test
    void oneDeployableVariantIsTheHeadlineAloneAndNotAllVariants() {
        List<String> said = said(List.of(variant("uncalibrated", 0.1, 0.1, UNCALIBRATED),
                variant("pinned", 0.4, 0.1, null)));
        assertTrue(said.get(1).startsWith("The one deployable variant: pinned"), said.get(1));
        assertTrue(said.get(2).startsWith("What-if, not ranked: uncalibrated"), said.get(2));
    }

    @Test
    void whenEveryVariantIsAWhatIfTheyAreRankedAmongThemselvesAndSaidToBe() {
        List<String> said = said(List.of(variant("a", 0.4, 0.1, UNCALIBRATED), variant("b", 0.2, 0.1, UNCALIBRATED)));
        assertEquals("Every variant here is a what-if, ranked among what-ifs: " + UNCALIBRATED.why() + ".", said.get(1));
        assertTrue(said.get(2).startsWith("Fastest: b"), said.get(2));
        assertTrue(said.stream().noneMatch(s -> s.startsWith("What-if, not ranked")), said.toString());
    }

    @Test
    void thePlatformsCountSaysHowManyOfItsVariantsAreWhatIfs() {
        AnswerContext two = new AnswerContext(null, Map.of("uncalibrated", "GB200", "pinned", "GB200", "dgx", "DGX"));
        List<String> said = Verdict.answer(List.of(variant("uncalibrated", 0.1, 0.1, UNCALIBRATED),
                variant("pinned", 0.4, 0.1, null), variant("dgx", 0.3, 0.1, null)), null, two).statements().stream()
                .map(s -> s.lead() + s.text()).toList();
        assertTrue(said.contains("On GB200 (2 variants, 1 of them a what-if):"), said.toString());
        assertTrue(said.contains("On DGX (1 variant):"), said.toString());
    }

    @Test
    void summaryJsonCarriesTheWhatIfOfThatVariantOnly() {
        var json = SummaryJson.build("s", "", List.of(variant("uncalibrated", 0.1, 0.1, UNCALIBRATED),
                variant("pinned", 0.4, 0.1, null)), new Provenance("0", "ab", 1));
        JsonNode w = json.get("variants").get(0).get("whatIf");
        assertEquals(UNCALIBRATED.why(), w.get("why").asText());
        assertEquals("generic", w.get("onOtherProfile").get(0).get("profile").asText());
        assertEquals("gb200-roce", w.get("onOtherProfile").get(0).get("ownProfile").asText());
        assertEquals(2, w.get("onOtherProfile").get(0).get("hosts").size());
        assertFalse(json.get("variants").get(1).has("whatIf"));
    }
}
