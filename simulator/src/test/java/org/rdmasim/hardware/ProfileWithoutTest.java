package org.rdmasim.hardware;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What "without it" means for each profile parameter ({@code KEY.without} in the profile file), the profile copy
 * that lacks it, and a host bound to that copy: the one channel through which a rerun changes a calibrated or
 * assumed figure.
 */
class ProfileWithoutTest {
    @Test
    void aTakenOutParameterIsAbsentFromTheCopyAndAReplacedOneCarriesItsOtherValue() {
        CalibrationProfile gb200 = CalibrationProfile.named("gb200-roce");
        CalibrationProfile noRead = gb200.without("nicReadRate").orElseThrow();
        assertEquals("gb200-roce", noRead.name());
        assertTrue(noRead.nicReadRate().isEmpty());
        assertEquals(gb200.parameters().size() - 1, noRead.parameters().size());
        // inherited from connectx7 with its 'without'
        assertTrue(gb200.without("qpReadRate").orElseThrow().qpReadRate().isEmpty());
        assertTrue(gb200.without("qpReadRate").orElseThrow().nicReadRate().isPresent());

        CalibrationProfile gb300 = CalibrationProfile.named("gb300-ib");
        CalibrationProfile pcie = gb300.without("gpuBehindNicSwitch").orElseThrow();
        assertEquals(0, pcie.require(ProfileKey.GPU_BEHIND_NIC_SWITCH).value());
        assertEquals(1, gb300.require(ProfileKey.GPU_BEHIND_NIC_SWITCH).value(), "the named profile is untouched");

        // no 'without': nothing stands in for an assumed link or framing figure
        assertTrue(gb300.without("graceToGrace").isEmpty());
        assertTrue(CalibrationProfile.named("aws-efa").without("efaWireEfficiency").isEmpty());
        assertNull(CalibrationProfile.named("aws-efa").require(ProfileKey.EFA_WIRE_EFFICIENCY).without());
        assertTrue(gb300.without("noSuchKey").isEmpty());
    }

    @Test
    void everyShippedWithoutSaysWhatItMeansAndPutsAValueItsKeyAccepts() {
        int withouts = 0;
        for (String name : CalibrationProfile.NAMES) {
            for (CalibrationProfile.Parameter p : CalibrationProfile.named(name).parameters()) {
                if (p.without() == null) {
                    continue;
                }
                withouts++;
                assertFalse(p.kind() == CalibrationProfile.Kind.DERIVED, name + "." + p.key()
                        + ": a derived figure is no assumption to take away");
                assertFalse(p.without().means().isBlank(), name + "." + p.key());
                if (!p.without().takenOut()) {
                    ProfileKey.of(p.key()).orElseThrow().check(new CalibrationProfile.Parameter(p.key(),
                            p.without().value(), p.unit(), p.kind(), "", ""));
                    assertFalse(p.without().value() == p.value(), name + "." + p.key() + ": 'without' is its own value");
                }
            }
        }
        // qpReadRate (connectx7 and the two that extend it), nicReadRate and its placement nicReadAtResponder,
        // strictOrderGpuWriteRate, gpuBehindNicSwitch
        assertEquals(7, withouts);
        assertThrows(IllegalArgumentException.class, () -> new CalibrationProfile.Without(true, Double.NaN, " "));
        assertThrows(IllegalArgumentException.class, () -> new CalibrationProfile.Without(false, Double.NaN, "x"));
    }

    @Test
    void aHostBoundToACopyReadsItAndAGb300TrayIsLaidOutAsItsFlagSays() {
        CalibrationProfile pcie = CalibrationProfile.named("gb300-ib").without("gpuBehindNicSwitch").orElseThrow();
        // an adjusted tray (NIC line rate) keeps its adjustment in the other layout
        HostSpec tray = Presets.get("gb300-tray").withDevices(d -> d instanceof HostSpec.NicSpec n
                ? new HostSpec.NicSpec(n.name(), n.model(), n.linkLayer(), n.link(), n.port(), 400, n.relaxedOrdering())
                : d);
        HostSpec bound = tray.withCalibration(pcie);
        assertSame(pcie, CalibrationProfile.forHost(bound));
        assertTrue(bound.nicSpecs().stream().allMatch(n -> n.lineRateGbps() == 400));
        Host h = new Host("t", bound);
        assertEquals(PathType.NODE, h.relation(h.gpu("GPU1"), h.nic("mlx5_0")));
        assertEquals(PathType.SYS, h.relation(h.gpu("GPU1"), h.nic("mlx5_3")));
        assertEquals(LinkSpec.pcie(PcieGen.GEN5, 16), h.nic("mlx5_0").uplink());
        // bound back to the shipped profile, the tray is behind its NICs' switches again
        Host back = new Host("t", bound.withCalibration(CalibrationProfile.named("gb300-ib")));
        assertEquals(PathType.PIX, back.relation(back.gpu("GPU1"), back.nic("mlx5_1")));
        // a host whose layout follows no flag keeps its tree: only the profile it reads changes
        HostSpec gb200 = Presets.get("gb200-tray");
        CalibrationProfile noRead = CalibrationProfile.named("gb200-roce").without("nicReadRate").orElseThrow();
        assertEquals(gb200.sockets(), gb200.withCalibration(noRead).sockets());
        Host a = new Host("a", gb200);
        Host b = new Host("b", gb200.withCalibration(noRead));
        Cluster c = new Cluster(List.of(a, b), FabricSpec.nonBlocking(),
                new org.rdmasim.fluid.FluidNetwork(new org.rdmasim.engine.SimulationClock()));
        assertTrue(c.nicReadCalibrated(a.nic("mlx5_0")) != null, "host a keeps its calibrated READ resource");
        assertNull(c.nicReadCalibrated(b.nic("mlx5_0")), "host b, bound to the copy, has none");
    }
}
