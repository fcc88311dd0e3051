package org.rdmasim.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.Presets;
import org.rdmasim.transport.config.ConfigResolver;
import org.rdmasim.transport.config.EffectiveConfig;
import org.rdmasim.transport.config.StackSetup;
import org.rdmasim.transport.config.StackVersion;

/**
 * The registration wall against the sum, by {@link RegistrationTotals}'s rule of who waits for whom. The wall
 * is what a first pull waits for, the sum the work done.
 */
class RegistrationWallTest {
    private static final long TEN_GIB = 10 * ByteUnits.GIB;
    private final RegistrationModel model = new RegistrationModel();

    /** UCX 1.20 under NIXL 1.2 defaults: the same configuration for every process of every host. */
    private static EffectiveConfig config(Host host) {
        StackSetup setup = new StackSetup(List.of(), Optional.of(StackVersion.parse("1.2.0")),
                StackVersion.parse("1.20.0"), List.of(), "GPU0", 0, org.rdmasim.transport.ucx.StackProfile.nicView(host));
        return ConfigResolver.resolve(setup);
    }

    private VariantRegistration.Outcome register(List<Host> hosts, List<VariantRegistration.Buffer> buffers) {
        return VariantRegistration.register(hosts, (h, gpu) -> config(h), buffers, model, RegistrationCaps.none());
    }

    private static List<VariantRegistration.Buffer> gpus(String host, int count, long bytes) {
        List<VariantRegistration.Buffer> out = new ArrayList<>();
        for (int g = 0; g < count; g++) {
            out.add(VariantRegistration.Buffer.gpu(host, "GPU" + g, bytes));
        }
        return out;
    }

    @Test
    void fourGpusOfOneHostRegisteringTheSameBytesWaitForOneGpuAndWorkFourTimesAsLong() {
        Host hgx = new Host("node0", Presets.get("hgx-h200"));
        VariantRegistration.Outcome o = register(List.of(hgx), gpus("node0", 4, TEN_GIB));
        List<RegistrationPlan> plans = o.hosts().get(0).plans();
        assertEquals(4, plans.size());
        double one = plans.get(0).registrationSeconds();
        assertTrue(one > 0);
        // the HGX board is symmetric: each GPU registers 10 GiB on as many HCAs at the same cost
        for (RegistrationPlan p : plans) {
            assertEquals(one, p.registrationSeconds(), 1e-12 * one, p.process());
            assertEquals(p.region().deviceName(), p.process(), "a GPU's own buffer is its own process's");
        }
        assertEquals(one, o.totals().wallSeconds(), 1e-12 * one);
        assertEquals(4 * one, o.totals().summedSeconds(), 1e-12 * one);
    }

    @Test
    void twoHostsWithDifferentLoadsWaitForTheSlowerHost() {
        Host light = new Host("light", Presets.get("hgx-h200"));
        Host heavy = new Host("heavy", Presets.get("hgx-h200"));
        List<VariantRegistration.Buffer> buffers = new ArrayList<>(gpus("light", 2, TEN_GIB));
        buffers.addAll(gpus("heavy", 2, 4 * TEN_GIB));
        VariantRegistration.Outcome o = register(List.of(light, heavy), buffers);
        double lightWall = o.hosts().get(0).totals().wallSeconds();
        double heavyWall = o.hosts().get(1).totals().wallSeconds();
        // registration time grows with the bytes pinned: 40 GiB per GPU takes longer than 10 GiB
        assertTrue(heavyWall > lightWall, heavyWall + " vs " + lightWall);
        assertEquals(heavyWall, o.totals().wallSeconds(), 0.0);
        assertEquals(o.hosts().get(0).totals().summedSeconds() + o.hosts().get(1).totals().summedSeconds(),
                o.totals().summedSeconds(), 1e-12 * o.totals().summedSeconds());
    }

    @Test
    void aProcessRegistersItsOwnBuffersOneAfterAnother() {
        Host hgx = new Host("node0", Presets.get("hgx-h200"));
        // GPU0's process registers two buffers; GPU1's one of the same size
        List<VariantRegistration.Buffer> buffers = List.of(VariantRegistration.Buffer.gpu("node0", "GPU0", TEN_GIB),
                VariantRegistration.Buffer.gpu("node0", "GPU0", TEN_GIB),
                VariantRegistration.Buffer.gpu("node0", "GPU1", TEN_GIB));
        VariantRegistration.Outcome o = register(List.of(hgx), buffers);
        List<RegistrationPlan> plans = o.hosts().get(0).plans();
        double gpu0 = plans.get(0).registrationSeconds() + plans.get(1).registrationSeconds();
        assertEquals(gpu0, o.totals().wallSeconds(), 1e-12 * gpu0);
        assertTrue(o.totals().wallSeconds() > plans.get(2).registrationSeconds());
    }

    @Test
    void aBounceFragmentCountsToTheGpuWhoseProcessRegistersIt() {
        Host hgx = new Host("node0", Presets.get("hgx-h200"));
        String socket = hgx.sockets().get(0).name();
        MemoryRegion fragment = MemoryRegion.host(socket, 64L << 20);
        List<VariantRegistration.Buffer> buffers = List.of(VariantRegistration.Buffer.gpu("node0", "GPU0", TEN_GIB),
                new VariantRegistration.Buffer("node0", fragment, "GPU0"),
                VariantRegistration.Buffer.gpu("node0", "GPU1", TEN_GIB));
        VariantRegistration.Outcome o = register(List.of(hgx), buffers);
        List<RegistrationPlan> plans = o.hosts().get(0).plans();
        assertEquals("GPU0", plans.get(1).process());
        assertTrue(plans.get(1).registrationSeconds() > 0, "the fragment is registered on some HCA");
        double gpu0 = plans.get(0).registrationSeconds() + plans.get(1).registrationSeconds();
        assertEquals(gpu0, o.totals().wallSeconds(), 1e-12 * gpu0);
        // left to its socket's own process, it would have waited beside GPU0's, not after it
        RegistrationTotals apart = RegistrationTotals.of(List.of(plans.get(0), plans.get(1).inProcessOf(socket),
                plans.get(2)));
        assertEquals(plans.get(0).registrationSeconds(), apart.wallSeconds(), 0.0);
        assertEquals(o.totals().summedSeconds(), apart.summedSeconds(), 0.0);
    }

    @Test
    void sideBySideTotalsAreDeterministicAndDoNotDependOnTheOrderOfProcesses() {
        Host hgx = new Host("node0", Presets.get("hgx-h200"));
        List<VariantRegistration.Buffer> buffers = new ArrayList<>(gpus("node0", 8, TEN_GIB));
        buffers.add(VariantRegistration.Buffer.gpu("node0", "GPU3", 2 * TEN_GIB));
        VariantRegistration.Outcome a = register(List.of(hgx), buffers);
        VariantRegistration.Outcome b = register(List.of(hgx), buffers);
        assertEquals(a.totals(), b.totals());
        List<RegistrationPlan> reversed = new ArrayList<>(a.hosts().get(0).plans());
        java.util.Collections.reverse(reversed);
        assertEquals(a.totals().wallSeconds(), RegistrationTotals.of(reversed).wallSeconds(), 0.0);
        // GPU3 registers 30 GiB in all: it is the slowest process
        List<RegistrationPlan> plans = a.hosts().get(0).plans();
        double gpu3 = plans.get(3).registrationSeconds() + plans.get(8).registrationSeconds();
        assertEquals(gpu3, a.totals().wallSeconds(), 1e-12 * gpu3);
    }

    @Test
    void identicalHostsSideBySideMultiplyTheWorkNotTheWait() {
        RegistrationTotals host = new RegistrationTotals(8, 100, 200, 300, 1.5, 0.5);
        RegistrationTotals many = host.times(256);
        assertEquals(256 * 1.5, many.summedSeconds(), 0.0);
        assertEquals(0.5, many.wallSeconds(), 0.0);
        assertEquals(RegistrationTotals.ZERO, host.times(0));
    }
}
