package org.rdmasim.hardware;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A preset's numbers that live in a calibration profile come from the host's profile (the one it names
 * with {@code profile:}, else the one it matches), not from a profile the preset names by itself; a
 * profile without the number leaves the preset's own.
 */
class ProfileBindingTest {
    private static CalibrationProfile profile(String key, double value, String unit) {
        return new CalibrationProfile("test", "a profile with one parameter", List.of(new CalibrationProfile.Parameter(
                key, value, unit, CalibrationProfile.Kind.ASSUMED, "test", "test")));
    }

    @Test
    void aGraceTraysInterGraceLinkIsItsProfilesGraceToGrace() {
        for (String preset : List.of("gb200-tray", "dgx-gb200-tray", "gb300-tray")) {
            HostSpec tray = Presets.get(preset);
            assertEquals(50e9, tray.interSocket(profile("graceToGrace", 50, "GB/s")), preset);
            // a profile without it (generic, connectx7) leaves the tray's own 100 GB/s
            assertEquals(100e9, tray.interSocket(CalibrationProfile.named("generic")), preset);
            assertEquals(100e9, tray.interSocket(CalibrationProfile.named("connectx7")), preset);
            // another profile's interSocket is not the Grace-Grace link
            assertEquals(100e9, tray.interSocket(profile("interSocket", 50, "GB/s")), preset);
        }
    }

    @Test
    void anAwsInstancesInterSocketLinkIsItsProfilesInterSocket() {
        HostSpec p5 = Presets.get("p5.48xlarge");
        assertEquals(32e9, p5.interSocket(profile("interSocket", 256, "Gbps")));
        assertEquals(64e9, p5.interSocket(CalibrationProfile.named("generic")));
    }

    @Test
    void aHostWhoseInterSocketLinkIsItsOwnIgnoresProfiles() {
        // DGX H100's UPI figure is a datasheet number, not a profile's
        HostSpec dgx = Presets.get("dgx-h100");
        assertEquals(dgx.interSocket(), dgx.interSocket(profile("interSocket", 1, "GB/s")));
    }

    @Test
    void anEfaDevicesFramingEfficiencyIsItsHostsProfiles() {
        HostSpec.NicSpec efa = Presets.get("p5.48xlarge").nicSpecs().get(0);
        double line = Units.gbpsToBytesPerSecond(efa.lineRateGbps());
        assertEquals(line * 0.9, efa.payloadBytesPerSecond(profile("efaWireEfficiency", 0.9, "of line rate")));
        assertEquals(java.util.Optional.of("test"),
                LinkLayer.EFA.efficiencyAssumedIn(profile("efaWireEfficiency", 0.9, "of line rate")));
        // a profile without it (a p5 named 'generic') keeps aws-efa's, and says that is where it comes from
        CalibrationProfile generic = CalibrationProfile.named("generic");
        double awsEfa = CalibrationProfile.named("aws-efa").require(ProfileKey.EFA_WIRE_EFFICIENCY).value();
        assertEquals(line * awsEfa, efa.payloadBytesPerSecond(generic));
        assertEquals(java.util.Optional.of("aws-efa"), LinkLayer.EFA.efficiencyAssumedIn(generic));
        // the derived link layers ignore profiles
        assertEquals(LinkLayer.ROCE.wireEfficiency(),
                LinkLayer.ROCE.wireEfficiency(profile("efaWireEfficiency", 0.9, "of line rate")));
        assertEquals(java.util.Optional.empty(), LinkLayer.ROCE.efficiencyAssumedIn(generic));
    }

    @Test
    void theClusterBuildsAHostsWireAndGraceLinkFromTheHostsProfile() {
        // a p5 named 'generic': its NIC wire is aws-efa's figure (generic has none) and says so
        Host p5 = new Host("p5", Presets.get("p5.48xlarge").withProfile("generic"));
        Host tray = new Host("t", Presets.get("gb200-tray").withProfile("gb300-ib"));
        Cluster c = new Cluster(List.of(p5, tray), FabricSpec.nonBlocking(),
                new org.rdmasim.fluid.FluidNetwork(new org.rdmasim.engine.SimulationClock()));
        TopologyNode efa = p5.nics().get(0);
        assertEquals(efa.nic().payloadBytesPerSecond(CalibrationProfile.named("aws-efa")), c.nicTx(efa).capacity());
        // GPU0 to the other Grace's memory crosses the Grace-Grace link: gb300-ib's graceToGrace, the host's profile
        double graceToGrace = CalibrationProfile.named("gb300-ib").require(ProfileKey.GRACE_TO_GRACE).bytesPerSecond();
        assertTrue(c.toSocket(tray, tray.gpu("GPU0"), 1).stream()
                .anyMatch(r -> r.capacity() == graceToGrace && r.toString().contains("CPU")), c.toSocket(tray,
                        tray.gpu("GPU0"), 1).toString());
    }
}
