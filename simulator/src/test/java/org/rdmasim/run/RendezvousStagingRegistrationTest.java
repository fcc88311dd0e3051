package org.rdmasim.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.rdmasim.hardware.Host;
import org.rdmasim.memory.RegistrationPlan;
import org.rdmasim.memory.RegistrationTotals;
import org.rdmasim.memory.VariantRegistration;
import org.rdmasim.scenario.ScenarioLoader;
import org.rdmasim.scenario.VariantSpec;
import org.rdmasim.transport.config.MemoryType;
import org.rdmasim.workload.FanoutResult;
import org.rdmasim.workload.VariantOutcome;

/**
 * A rendezvous pull into GPU memory without GPUDirect stages through UCX's per-worker pool of host
 * fragments on both sides: the receiver takes one for rtr/mtype or get/mtype, the sender for put/mtype
 * ({@code ucp_proto_rndv_mtype_request_init}, openucx/ucx v1.20.0 src/ucp/rndv/rndv_rtr.c L355,
 * rndv_get.c L295, rndv_put.c L528), and the pool's first chunk is allocated and registered on the
 * process's first use ({@code ucp_rndv_mpool_get}, src/ucp/rndv/rndv.c L1136-1185;
 * {@code ucp_rndv_frag_malloc_mpools}, src/ucp/core/ucp_mm.c L1431-1461). What a process registers
 * therefore does not depend on whether its pulls are written as a fan-out or as a list of transfers.
 */
class RendezvousStagingRegistrationTest {
    private static final String HOSTS = """
            name: t
            seed: 1
            hosts:
              receivers: {preset: dgx-h100, count: 3, prefix: r}
              sources: {preset: dgx-h100, count: 1, prefix: s}
            transport: {api: rendezvous, gpudirect: %s}
            """;

    private static VariantSpec fanout(boolean gpudirect) {
        return fanout(gpudirect, "");
    }

    private static VariantSpec fanout(boolean gpudirect, String more) {
        return only(HOSTS.formatted(gpudirect) + """
                workload:
                  fanout:
                    receivers: {hosts: receivers, gpus: [GPU0, GPU1]}
                    sources: {hosts: sources, gpus: [GPU0, GPU1]}
                    model: 2 GB
                """ + more);
    }

    /** The same pulls, each receiver GPU reading the whole model from the source GPU a fan-out gives it. */
    private static VariantSpec transfers(boolean gpudirect) {
        StringBuilder list = new StringBuilder("workload:\n  transfers:\n");
        for (int r = 0; r < 3; r++) {
            for (int g = 0; g < 2; g++) {
                list.append("    - {from: \"s0:GPU").append(g).append("\", to: \"r").append(r).append(":GPU").append(g)
                        .append("\", size: 2 GB, operation: read}\n");
            }
        }
        return only(HOSTS.formatted(gpudirect) + list);
    }

    private static VariantSpec only(String yaml) {
        return ScenarioLoader.parse(yaml, "t.yaml").variants().get(0);
    }

    private static VariantRegistration.Outcome registered(VariantSpec v) {
        return VariantRunner.registrationOutcome(v, Host.all(v.hosts()));
    }

    @Test
    void aFanoutRegistersTheHostFragmentsTheSameTransfersListedWould() {
        VariantRegistration.Outcome fanout = registered(fanout(false));
        VariantRegistration.Outcome listed = registered(transfers(false));
        RegistrationTotals f = fanout.totals();
        RegistrationTotals t = listed.totals();
        // 4 hosts x 2 GPU processes, one chunk of 128 x 512 KiB fragments each (host memory, on every HCA
        // its process registers host memory on), and nothing of the GPU buffers
        int hcas = listed.hosts().get(0).plans().get(0).hcaNames().size();
        assertTrue(hcas > 0);
        assertEquals(8L * hcas, t.mrCount());
        assertTrue(t.pinnedHostBytes() >= 8 * (64L << 20), t.toString());
        assertEquals(t.mrCount(), f.mrCount());
        assertEquals(t.translationBytes(), f.translationBytes());
        assertEquals(t.firmwareBytes(), f.firmwareBytes());
        assertEquals(t.pinnedHostBytes(), f.pinnedHostBytes());
        assertEquals(t.summedSeconds(), f.summedSeconds(), 1e-12 * t.summedSeconds());
        assertEquals(t.wallSeconds(), f.wallSeconds(), 1e-12 * t.wallSeconds());
        for (VariantRegistration.HostOutcome h : fanout.hosts()) {
            List<RegistrationPlan> plans = h.plans();
            assertEquals(2, plans.size(), h.host());
            assertTrue(plans.stream().allMatch(p -> p.region().type() == MemoryType.HOST
                    && p.region().sizeBytes() == 64L << 20), h.host());
        }
    }

    @Test
    void withGpuDirectBothRegisterTheGpuBuffersAndNoFragments() {
        RegistrationTotals f = registered(fanout(true)).totals();
        RegistrationTotals t = registered(transfers(true)).totals();
        assertEquals(t.mrCount(), f.mrCount());
        assertEquals(t.pinnedHostBytes(), f.pinnedHostBytes());
        assertEquals(t.firmwareBytes(), f.firmwareBytes());
        assertTrue(registered(fanout(true)).hosts().stream().flatMap(h -> h.plans().stream())
                .allMatch(p -> p.region().type() == MemoryType.CUDA));
    }

    /**
     * Each cycle registers the weights again (registration not cached), but a process's fragment pool
     * stays with its worker: only the first cycle waits for it. Without GPUDirect the GPU buffers register
     * nowhere, so later cycles wait for nothing; with it, every cycle waits for the same GPU registration.
     */
    @Test
    void onlyTheFirstCycleWaitsForTheFragmentPool() {
        String cycles = "    cycles: {count: 2, registrationCached: false}\n";
        List<FanoutResult.Cycle> staged = cycles(fanout(false, cycles));
        assertTrue(staged.get(0).registrationSeconds() > 0, staged.toString());
        assertEquals(0.0, staged.get(1).registrationSeconds(), staged.toString());
        List<FanoutResult.Cycle> direct = cycles(fanout(true, cycles));
        assertTrue(direct.get(0).registrationSeconds() > 0, direct.toString());
        assertEquals(direct.get(0).registrationSeconds(), direct.get(1).registrationSeconds(), direct.toString());
    }

    private static List<FanoutResult.Cycle> cycles(VariantSpec v) {
        VariantOutcome o = VariantRunner.run(v, 1);
        assertEquals(VariantOutcome.Status.OK, o.status(), o.error());
        List<FanoutResult.Cycle> c = o.result().fanout().cycles();
        assertEquals(2, c.size());
        return c;
    }
}
