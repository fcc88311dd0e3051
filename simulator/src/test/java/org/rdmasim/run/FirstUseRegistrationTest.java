package org.rdmasim.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rdmasim.hardware.Host;
import org.rdmasim.memory.RegistrationPlan;
import org.rdmasim.memory.VariantRegistration;
import org.rdmasim.scenario.ScenarioLoader;
import org.rdmasim.scenario.VariantSpec;
import org.rdmasim.transport.ucx.LaneDecision;

/**
 * Only the far end's rkey removes a lane; a lane on an HCA the initiator's own buffer lacks registers the buffer
 * there when it first uses it (openucx/ucx v1.21.0 src/ucp/dt/datatype_iter.inl L276-282). The source's GPU0 sits
 * beside two HCAs, so {@code UCX_MAX_HCA_PER_GPU=auto} registers it on both; the reader's (DGX H100) beside one.
 * UCX's wireup pairs the reader's mlx5_3 and mlx5_4 (their first paths) with the source's two GPU0 HCAs, both in
 * its rkey, so both lanes are used and the reader's buffer gains an MR on each: the registration the run counts is
 * the one UCX ends with, while the lanes follow the rkeys exchanged before.
 */
class FirstUseRegistrationTest {
    private static final String YAML = """
            name: first-use
            seed: 1
            hosts:
              source: {nvidia-smi: two-pix-per-gpu-topo.txt, nicModel: cx7, lineRate: 400 Gbps, cpu: intel_sapphire_rapids}
              reader: {preset: dgx-h100}
            transport:
              ucx: "1.21.0"
              env: |
                export UCX_MAX_HCA_PER_GPU=%s
                export UCX_MAX_RMA_RAILS=4
            workload:
              transfers:
                - {from: "source:GPU0", to: "reader:GPU0", size: 8 GB, operation: read}
            variants:
              - name: only
            """;

    private static VariantSpec variant(Path dir, String maxHca) throws IOException {
        Files.copy(FirstUseRegistrationTest.class.getResourceAsStream("/importers/two-pix-per-gpu-topo.txt"),
                dir.resolve("two-pix-per-gpu-topo.txt"));
        Path file = dir.resolve("first-use.yaml");
        Files.writeString(file, YAML.formatted(maxHca));
        return ScenarioLoader.load(file, true).variants().get(0);
    }

    private static List<String> readerHcas(VariantSpec v) {
        VariantRegistration.Outcome o = VariantRunner.registrationOutcome(v, Host.all(v.hosts()));
        RegistrationPlan p = o.hosts().stream().filter(h -> h.host().equals("reader")).findFirst().orElseThrow()
                .plans().get(0);
        return p.hcaNames();
    }

    @Test
    void aLaneTheInitiatorIsNotRegisteredForIsUsedAndItsRegistrationCounted(@TempDir Path dir) throws IOException {
        VariantSpec v = variant(dir, "auto");
        LaneDecision d = FirstLaneDecision.of(v, v.transfers().get(0), VariantRunner.registrationsOf(v)).orElseThrow();
        assertEquals(List.of("mlx5_3", "mlx5_4"), d.registeredAtFirstUse());
        // the reader's mlx5_3 and mlx5_4 reach the source's mlx5_0 and mlx5_1, which its rkey holds
        assertTrue(d.picked().stream().anyMatch(c -> c.sinkNic().equals("mlx5_3") && c.sourceNic().equals("mlx5_0")),
                d.picked().toString());
        assertTrue(d.picked().stream().anyMatch(c -> c.sinkNic().equals("mlx5_4") && c.sourceNic().equals("mlx5_1")),
                d.picked().toString());
        // ucp_mem_map put the reader's buffer on its PIX HCA; the lanes added mlx5_3 and mlx5_4
        assertEquals(List.of("mlx5_0", "mlx5_3", "mlx5_4"), readerHcas(v));
    }

    @Test
    void withEveryBufferOnEveryHcaNothingIsRegisteredLate(@TempDir Path dir) throws IOException {
        VariantSpec v = variant(dir, "inf");
        LaneDecision d = FirstLaneDecision.of(v, v.transfers().get(0), VariantRunner.registrationsOf(v)).orElseThrow();
        assertEquals(List.of(), d.registeredAtFirstUse());
        assertEquals(Host.all(v.hosts()).stream().filter(h -> h.name().equals("reader")).findFirst().orElseThrow()
                .computeNics().size(), readerHcas(v).size());
    }

    @Test
    void theRunHandsBackTheRegistrationsItsLanesWereChosenOver(@TempDir Path dir) throws IOException {
        // explain and size read the lanes from the run's own registrations, not from a second registration
        VariantSpec v = variant(dir, "auto");
        VariantRunner.Run run = VariantRunner.runHeld(v, 1);
        LaneDecision fromRun = FirstLaneDecision.of(v, run.outcome(), run.registrations()).orElseThrow().decision();
        LaneDecision again = FirstLaneDecision.of(v, v.transfers().get(0), VariantRunner.registrationsOf(v)).orElseThrow();
        assertEquals(List.of("mlx5_3", "mlx5_4"), fromRun.registeredAtFirstUse());
        assertEquals(again.picked(), fromRun.picked());
        assertEquals(again.nicVerdicts(), fromRun.nicVerdicts());
    }

    @Test
    void summaryJsonSplitsTheRegistrationIntoMemMapAndFirstUseAndThePartsAddUpToTheTotals(@TempDir Path dir)
            throws IOException {
        VariantSpec v = variant(dir, "auto");
        org.rdmasim.workload.VariantOutcome o = VariantRunner.run(v, 1);
        com.fasterxml.jackson.databind.JsonNode reg = org.rdmasim.report.SummaryJson.build("first-use", "", List.of(o),
                new org.rdmasim.report.Provenance("0", "ab", 1)).get("variants").get(0).get("registration");
        // what the lanes added: the reader's buffer on mlx5_3 and mlx5_4, with those HCAs' own MRs and time
        List<org.rdmasim.memory.HcaRegistration> late = VariantRunner.registrationOutcome(v, Host.all(v.hosts())).hosts()
                .stream().filter(h -> h.host().equals("reader")).findFirst().orElseThrow().plans().get(0).perHca()
                .stream().filter(r -> List.of("mlx5_3", "mlx5_4").contains(r.hca().name())).toList();
        assertEquals(2, late.size());
        com.fasterxml.jackson.databind.JsonNode firstUse = reg.get("firstLaneUse");
        assertEquals(late.stream().mapToLong(r -> r.mrCount()).sum(), firstUse.get("mrCount").asLong());
        assertEquals(late.stream().mapToLong(r -> r.translationBytes()).sum(), firstUse.get("translationBytes").asLong());
        assertEquals(late.stream().mapToLong(r -> r.firmwareBytes()).sum(), firstUse.get("firmwareBytes").asLong());
        assertEquals(late.get(0).registrationSeconds() + late.get(1).registrationSeconds(),
                firstUse.get("registrationSeconds").asDouble(), 1e-12 * firstUse.get("registrationSeconds").asDouble());
        assertPartsAddUp(reg);
    }

    @Test
    void withoutFirstUseUcpMemMapsPartIsTheWholeRegistration(@TempDir Path dir) throws IOException {
        VariantSpec v = variant(dir, "inf");
        com.fasterxml.jackson.databind.JsonNode reg = org.rdmasim.report.SummaryJson.build("first-use", "",
                List.of(VariantRunner.run(v, 1)), new org.rdmasim.report.Provenance("0", "ab", 1)).get("variants").get(0)
                .get("registration");
        assertEquals(0, reg.get("firstLaneUse").get("mrCount").asLong());
        assertEquals(0.0, reg.get("firstLaneUse").get("registrationSeconds").asDouble(), 0.0);
        assertTrue(reg.get("mrCount").asLong() > 0, reg.toString());
        for (String f : List.of("mrCount", "translationBytes", "pinnedHostBytes", "firmwareBytes", "registrationSeconds")) {
            assertEquals(reg.get(f), reg.get("ucpMemMap").get(f), f);
        }
    }

    /** summary.json's registration totals are the sums of its two parts (seconds to rounding in the last bits). */
    static void assertPartsAddUp(com.fasterxml.jackson.databind.JsonNode reg) {
        com.fasterxml.jackson.databind.JsonNode a = reg.get("ucpMemMap");
        com.fasterxml.jackson.databind.JsonNode b = reg.get("firstLaneUse");
        for (String f : List.of("mrCount", "translationBytes", "pinnedHostBytes", "firmwareBytes")) {
            assertEquals(reg.get(f).asLong(), a.get(f).asLong() + b.get(f).asLong(), f + " in " + reg);
        }
        double total = reg.get("registrationSeconds").asDouble();
        assertEquals(total, a.get("registrationSeconds").asDouble() + b.get("registrationSeconds").asDouble(),
                1e-12 * Math.max(1.0, total), reg.toString());
    }
}
