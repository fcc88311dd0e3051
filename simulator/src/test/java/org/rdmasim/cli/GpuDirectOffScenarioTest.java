package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.rdmasim.hardware.Host;
import org.rdmasim.transport.config.MemoryType;
import org.rdmasim.memory.RegistrationPlan;
import org.rdmasim.memory.VariantRegistration;
import org.rdmasim.run.VariantRunner;
import org.rdmasim.scenario.Scenario;
import org.rdmasim.scenario.ScenarioLoader;
import org.rdmasim.scenario.VariantSpec;
import org.rdmasim.transport.Operation;
import org.rdmasim.transport.RmaEmulation;
import org.rdmasim.transport.TransferResult;
import org.rdmasim.workload.RunResult;
import org.rdmasim.workload.VariantOutcome;

/**
 * {@code gpudirect: false} against what UCX v1.20.0 does with CUDA memory no IB md can register:
 * no MR of GPU memory on any NIC (ib_md.c L1324-1346, ucp_context.c L1790-1846); NIXL's RMA calls carried
 * by put/am/bcopy or get/am/bcopy, "software emulation" on one lane, each fragment copied by a synchronous
 * cuda_copy on both sides (rma_sw.c, cuda_copy_iface.c L195-198); a rendezvous send pipelined through host
 * fragments that register host memory instead.
 */
class GpuDirectOffScenarioTest {
    private static Scenario scenario;
    private static final Map<String, VariantOutcome> BY = new HashMap<>();

    @BeforeAll
    static void runCatalogScenario() throws IOException {
        scenario = ScenarioLoader.parse(Files.readString(CliTestSupport.repo().resolve(
                "scenarios/gpudirect-vs-staging.yaml")), "gpudirect-vs-staging.yaml");
        for (VariantSpec v : scenario.variants()) {
            BY.put(v.name(), VariantRunner.run(v, scenario.seed()));
        }
    }

    private static VariantSpec spec(String name) {
        return scenario.variants().stream().filter(v -> v.name().equals(name)).findFirst().orElseThrow();
    }

    private static List<RegistrationPlan> plans(String name) {
        VariantSpec v = spec(name);
        List<Host> hosts = new java.util.ArrayList<>();
        v.hosts().forEach((n, s) -> hosts.add(new Host(n, s)));
        VariantRegistration.Outcome o = VariantRunner.registrationOutcome(v, hosts);
        return o.hosts().stream().flatMap(h -> h.plans().stream()).toList();
    }

    @Test
    void withoutGpuDirectNoNicHoldsGpuMemory() {
        for (String on : List.of("pix-gpudirect", "sys-gpudirect", "8-gpus-push-gpudirect")) {
            assertTrue(plans(on).stream().anyMatch(p -> p.region().type() == MemoryType.CUDA && !p.hcaNames().isEmpty()), on);
            assertTrue(BY.get(on).registration().mrCount() > 0, on);
        }
        for (String off : List.of("pix-staged", "sys-staged", "phb-staged", "8-gpus-push-staged")) {
            assertTrue(plans(off).isEmpty(), off + ": RMA calls need no registration of their own besides the GPU buffers");
            assertEquals(0, BY.get(off).registration().mrCount(), off);
            assertEquals(0.0, BY.get(off).registration().summedSeconds(), off);
        }
        // the rendezvous pipeline registers its host fragment pool (128 x 512 KiB) instead of the GPU buffers
        for (String off : List.of("pix-staged-rendezvous", "8-gpus-push-staged-rendezvous")) {
            List<RegistrationPlan> p = plans(off);
            assertFalse(p.isEmpty(), off);
            assertTrue(p.stream().allMatch(r -> r.region().type() == MemoryType.HOST), off);
            assertTrue(p.stream().allMatch(r -> r.region().sizeBytes() == 64L << 20), off);
        }
    }

    @Test
    void anEmulatedPullMovesOneFragmentPerSynchronousCopy() {
        // get/am/bcopy: 8192-byte segments less rc_mlx5's 1-byte AM header and the 16-byte GET reply header;
        // the initiator's host-to-device copy (4.0 + 1.8 us + bytes at 0.95 x 8300 MiB/s) is the slower side
        double fragment = 8192 - 1 - 16;
        double h2d = 5.8e-6 + fragment / (0.95 * 8300 * 1048576.0);
        double rate = fragment / h2d;
        for (String off : List.of("pix-staged", "sys-staged", "phb-staged")) {
            TransferResult t = BY.get(off).result().transfers().get(0);
            double seconds = t.finishSeconds() - t.startSeconds();
            // the whole 16 MiB at that rate, plus a few microseconds of latency
            assertEquals(16.0 * 1048576 / rate, seconds, 5e-5, off);
            assertTrue(t.bottleneck().id().contains("get/am/bcopy emulation, host-to-device cuda_copy"), off);
        }
        double direct = BY.get("pix-gpudirect").result().transfers().get(0).finishSeconds();
        assertTrue(BY.get("pix-staged").result().transfers().get(0).finishSeconds() > 30 * direct);
    }

    @Test
    void eightEmulatedPushesRunAtTheCopyRateNotTheNicsOrHostMemory() {
        double fragment = 8192 - 1 - 20; // put/am/bcopy: ucp_put_hdr_t is 20 bytes
        double rate = fragment / (5.8e-6 + fragment / (0.95 * 8300 * 1048576.0));
        for (TransferResult t : BY.get("8-gpus-push-staged").result().transfers()) {
            assertEquals(4.0 * (1L << 30) / rate, t.finishSeconds() - t.startSeconds(), 1e-3, t.spec().id());
        }
        // the rendezvous pipeline keeps the host-memory limit of staging: a socket's DDR bandwidth shared by 4 GPUs
        for (TransferResult t : BY.get("8-gpus-push-staged-rendezvous").result().transfers()) {
            assertTrue(t.bottleneck().id().endsWith("memory"), t.bottleneck().id());
        }
    }

    @Test
    void emulationUsesOneLaneWhereGpuDirectStripes() throws IOException {
        String yaml = """
                name: rails-without-gpudirect
                seed: 1
                hosts:
                  source: {preset: dgx-h100}
                  receiver: {preset: dgx-h100}
                transport:
                  nixl: "1.1.0"
                  ucx: "1.20.0"
                  env: "UCX_NET_DEVICES=all\\nUCX_MAX_RMA_RAILS=4\\n"
                workload:
                  transfers:
                    - {from: "source:GPU0", to: "receiver:GPU0", size: 1 GB}
                variants:
                  - name: gpudirect
                  - name: emulated
                    transport: {gpudirect: false}
                """;
        Scenario s = ScenarioLoader.parse(yaml, "rails.yaml");
        Map<String, RunResult> r = new HashMap<>();
        for (VariantSpec v : s.variants()) {
            r.put(v.name(), VariantRunner.run(v, s.seed()).result());
        }
        assertTrue(sendingNics(r.get("gpudirect")) > 1, "GPUDirect stripes over several rails");
        assertEquals(1, sendingNics(r.get("emulated")), "software emulation has max_lanes 1");
    }

    private static long sendingNics(RunResult r) {
        return r.nics().stream().filter(n -> n.txBytes() > 0).count();
    }

    @Test
    void explainNamesTheProtocolChosen() throws IOException {
        String file = CliTestSupport.repo().resolve("scenarios/gpudirect-vs-staging.yaml").toString();
        var off = CliTestSupport.run("explain", file, "--variant", "pix-staged");
        assertEquals(0, off.code(), off.err());
        // columns padded as UCX pads them: the protocol cell, then the one lane
        assertTrue(off.out().lines().anyMatch(l -> l.matches("\\|\\s+0\\.\\.inf \\| software emulation\\s+\\| rc_mlx5/mlx5_0:1(/path0)? +\\|")),
                off.out());
        assertTrue(off.out().contains("protocol get/am/bcopy"), off.out());
        assertFalse(off.out().contains("| zero-copy"), off.out());
        assertTrue(off.out().contains("writes by b:mlx5_0 land in host memory"), off.out());
        assertFalse(off.out().contains("IBV_ACCESS_RELAXED_ORDERING"), off.out());

        var push = CliTestSupport.run("explain", file, "--variant", "8-gpus-push-staged", "--transfers", "1");
        assertTrue(push.out().contains("protocol put/am/bcopy"), push.out());
        // each note under the table ends with the UCX code it follows, and --json gives those as citation objects
        assertTrue(off.out().contains("have no lane; source: " + RmaEmulation.protocolSource(Operation.READ).text()),
                off.out());
        assertTrue(push.out().contains("have no lane; source: " + RmaEmulation.protocolSource(Operation.WRITE).text()),
                push.out());
        var json = CliTestSupport.run("explain", file, "--variant", "pix-staged", "--json");
        assertEquals(0, json.code(), json.err());
        List<String> sources = new java.util.ArrayList<>();
        new com.fasterxml.jackson.databind.ObjectMapper().readTree(json.out()).get("variants").get(0)
                .get("transfers").get(0).get("protocol").get("notes")
                .forEach(n -> n.get("sources").forEach(c -> sources.add(c.get("text").asText())));
        List<String> expected = new java.util.ArrayList<>(List.of(RmaEmulation.protocolSource(Operation.READ).text()));
        RmaEmulation.copyEstimateSources().forEach(c -> expected.add(c.text()));
        assertEquals(expected, sources);

        var rndv = CliTestSupport.run("explain", file, "--variant", "pix-staged-rendezvous");
        assertTrue(rndv.out().contains("| pipeline through host memory"), rndv.out());
        assertTrue(rndv.out().contains("protocol rndv/get/mtype"), rndv.out());

        var on = CliTestSupport.run("explain", file, "--variant", "pix-gpudirect");
        assertTrue(on.out().contains("| zero-copy "), on.out());
        assertFalse(on.out().contains("software emulation"), on.out());
    }
}
