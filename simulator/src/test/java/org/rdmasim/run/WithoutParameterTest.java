package org.rdmasim.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.rdmasim.hardware.CalibrationProfile;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.HostSpec;
import org.rdmasim.hardware.ProfileKey;
import org.rdmasim.report.ReceiverSummary;
import org.rdmasim.scenario.Scenario;
import org.rdmasim.scenario.ScenarioLoader;
import org.rdmasim.scenario.VariantSpec;
import org.rdmasim.workload.VariantOutcome;

/**
 * A variant rerun without one calibrated parameter: the GB200 pull over one pinned RoCE NIC, which the
 * gb200-roce profile holds at its calibrated 308 Gbps READ rate, reaches the NIC's RoCE wire rate once the rate
 * is taken away, and nothing else about the run changes.
 */
class WithoutParameterTest {
    private static final Path REPO = Path.of(System.getProperty("rdmasim.repo", ".."));

    private static VariantSpec variant(String file, String name) {
        Scenario s = ScenarioLoader.load(REPO.resolve(file));
        return s.variants().stream().filter(v -> v.name().equals(name)).findFirst().orElseThrow();
    }

    private static ReceiverSummary.Receiver receiver(VariantOutcome o) {
        assertEquals(VariantOutcome.Status.OK, o.status(), o.error());
        return ReceiverSummary.of(o.result()).receivers().stream().filter(r -> r.id().equals("receiver:GPU0"))
                .findFirst().orElseThrow();
    }

    @Test
    void aGb200OneNicPullWithoutTheNicReadRateRunsAtTheRoceWireRate() {
        VariantSpec pinned = variant("scenarios/seed003-nic-pin-vs-stripe.yaml", "gb200-mx-pin-auto");
        long bytes = pinned.transfers().get(0).bytes();
        CalibrationProfile gb200 = CalibrationProfile.named("gb200-roce");
        double readRate = gb200.require(ProfileKey.NIC_READ_RATE).bytesPerSecond();
        HostSpec.NicSpec nic = pinned.hosts().get("receiver").nicSpecs().get(0);
        double wire = nic.payloadBytesPerSecond(gb200);
        assertTrue(wire > readRate, "RoCE wire " + wire + " B/s above the calibrated READ rate " + readRate);

        ReceiverSummary.Receiver with = receiver(VariantRunner.run(pinned, 1));
        // the answer as shipped rests on the calibrated rate: 308 Gbps
        assertEquals(308, with.gbps(), 0.01);
        WithoutParameter w = WithoutParameter.of(pinned, "gb200-roce", ProfileKey.NIC_READ_RATE.key()).orElseThrow();
        ReceiverSummary.Receiver without = receiver(w.run(1));
        assertTrue(without.pullSeconds() < with.pullSeconds(), without.pullSeconds() + " s not below " + with.pullSeconds());
        assertTrue(without.bottleneck().id().contains("tx"), without.bottleneck().id());
        // Both runs pay the same start costs (rendezvous, registration lookups); only the bulk's rate differs. The
        // start cost is what the calibrated run takes beyond its bytes at 308 Gbps; without the rate the bytes
        // move at the wire rate after RoCE framing.
        double start = with.pullSeconds() - bytes / readRate;
        assertTrue(start >= 0 && start < 1e-3, "start cost " + start + " s");
        double analytic = start + bytes / wire;
        assertEquals(analytic, without.pullSeconds(), analytic * 1e-9);
    }

    @Test
    void twoReadersOfOneSourceNicShareItsWireOrItsCalibratedRateByWhereTheRateSits(@org.junit.jupiter.api.io.TempDir
            Path dir) throws java.io.IOException {
        // two receivers each pull 4 GB over their own pinned mlx5_0 from the source's one pinned mlx5_0
        Path f = dir.resolve("two-readers.yaml");
        java.nio.file.Files.writeString(f, """
                name: two-readers
                hosts:
                  source: {preset: gb200-tray}
                  r1: {preset: gb200-tray}
                  r2: {preset: gb200-tray}
                transport:
                  operation: read
                  env: |
                    export MX_RDMA_NIC_PIN=auto
                workload:
                  transfers:
                    - {from: "source:GPU0", to: "r1:GPU0", size: 4 GB}
                    - {from: "source:GPU0", to: "r2:GPU0", size: 4 GB}
                """);
        VariantSpec v = ScenarioLoader.load(f).variants().get(0);
        CalibrationProfile gb200 = CalibrationProfile.named("gb200-roce");
        double rate = gb200.require(ProfileKey.NIC_READ_RATE).bytesPerSecond();
        double wire = v.hosts().get("source").nicSpecs().get(0).payloadBytesPerSecond(gb200);
        assertTrue(2 * rate > wire && rate < wire, "two readers' calibrated rates exceed one wire");
        // shipped (the rate on the reading NIC): each reader is held to its own 308 Gbps but together they fill the
        // source NIC's wire, so each gets half of it
        VariantOutcome atReader = VariantRunner.run(v, 1);
        assertEquals(VariantOutcome.Status.OK, atReader.status(), atReader.error());
        for (ReceiverSummary.Receiver r : ReceiverSummary.of(atReader.result()).receivers()) {
            assertEquals(wire / 2, 4e9 / r.pullSeconds(), wire / 2 * 2e-3, r.id());
        }
        // the other placement: the source NIC answers both at 308 Gbps in all, half each
        WithoutParameter other = WithoutParameter.of(v, "gb200-roce", ProfileKey.NIC_READ_AT_RESPONDER.key()).orElseThrow();
        VariantOutcome atResponder = other.run(1);
        assertEquals(VariantOutcome.Status.OK, atResponder.status(), atResponder.error());
        for (ReceiverSummary.Receiver r : ReceiverSummary.of(atResponder.result()).receivers()) {
            assertEquals(rate / 2, 4e9 / r.pullSeconds(), rate / 2 * 2e-3, r.id());
            assertTrue(r.bottleneck().id().startsWith("source:mlx5_0 READ"), r.bottleneck().id());
        }
    }

    @Test
    void onlyHostsOfTheNamedProfileAreReboundAndAGroupKeepsSharingOneSpec() {
        VariantSpec pinned = variant("scenarios/seed003-nic-pin-vs-stripe.yaml", "gb200-mx-pin-auto");
        VariantSpec rerun = WithoutParameter.of(pinned, "gb200-roce", "nicReadRate").orElseThrow().variant();
        for (String host : pinned.hosts().keySet()) {
            CalibrationProfile bound = CalibrationProfile.forHost(rerun.hosts().get(host));
            assertEquals("gb200-roce", bound.name());
            assertTrue(bound.nicReadRate().isEmpty(), host);
            assertTrue(bound.qpReadRate().isPresent(), "the other parameters stay: " + host);
            // the variant as written is untouched
            assertTrue(CalibrationProfile.forHost(pinned.hosts().get(host)).nicReadRate().isPresent(), host);
        }
        // a profile no host is bound to, or a parameter with no 'without', gives no rerun
        assertTrue(WithoutParameter.of(pinned, "connectx7", "qpReadRate").isEmpty());
        assertTrue(WithoutParameter.of(pinned, "gb200-roce", "graceToGrace").isEmpty());

        VariantSpec fanout = variant("scenarios/fanout-256-pin-vs-stripe-vs-tree.yaml", "mx-pin-auto");
        VariantSpec reFanout = WithoutParameter.of(fanout, CalibrationProfile.forHost(fanout.hosts().values().iterator()
                .next()).name(), "qpReadRate").orElseThrow().variant();
        Set<HostSpec> before = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
        Set<HostSpec> after = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
        Map<HostSpec, HostSpec> mapped = new IdentityHashMap<>();
        for (String host : fanout.hosts().keySet()) {
            before.add(fanout.hosts().get(host));
            after.add(reFanout.hosts().get(host));
            HostSpec prior = mapped.putIfAbsent(fanout.hosts().get(host), reFanout.hosts().get(host));
            if (prior != null) {
                assertSame(prior, reFanout.hosts().get(host), host);
            }
        }
        assertEquals(before.size(), after.size(), "one rebound spec per spec: a counted group keeps one shape");
        assertTrue(fanout.hosts().size() > before.size(), "the fan-out has counted groups");
    }

    @Test
    void aGb300TrayWithoutGpuBehindNicSwitchIsLaidOutAsOnGb200() {
        VariantSpec rails = variant("scenarios/gb300-rails.yaml", "rails-1");
        HostSpec shipped = rails.hosts().get("receiver");
        VariantSpec rerun = WithoutParameter.of(rails, "gb300-ib", "gpuBehindNicSwitch").orElseThrow().variant();
        HostSpec relaid = rerun.hosts().get("receiver");
        assertNotSame(shipped, relaid);
        assertEquals(0, CalibrationProfile.forHost(relaid).require(ProfileKey.GPU_BEHIND_NIC_SWITCH).value());
        Host before = new Host("receiver", shipped);
        Host after = new Host("receiver", relaid);
        assertEquals("PIX", before.relation(before.gpu("GPU0"), before.nic("mlx5_0")).name());
        // GPU0 hangs off the first Grace (NVLink-C2C) with mlx5_0-1; mlx5_2-3 are on the other Grace
        assertEquals("NODE", after.relation(after.gpu("GPU0"), after.nic("mlx5_0")).name());
        assertEquals("NODE", after.relation(after.gpu("GPU0"), after.nic("mlx5_1")).name());
        assertEquals("SYS", after.relation(after.gpu("GPU0"), after.nic("mlx5_2")).name());
        assertEquals("SYS", after.relation(after.gpu("GPU0"), after.nic("mlx5_3")).name());
        // each NIC is held to Grace's Gen5 x16: the one-NIC pull is slower than behind the NIC's Gen6 switch
        ReceiverSummary.Receiver with = receiver(VariantRunner.run(rails, 1));
        ReceiverSummary.Receiver without = receiver(VariantRunner.run(rerun, 1));
        assertTrue(without.pullSeconds() > with.pullSeconds(), without.pullSeconds() + " vs " + with.pullSeconds());
        assertTrue(without.bottleneck().id().contains("PCIe"), without.bottleneck().id());
    }
}
