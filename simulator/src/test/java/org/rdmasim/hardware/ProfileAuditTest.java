package org.rdmasim.hardware;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * Every profile parameter says what it is, and none is a library's estimate used as a rate: UCX's
 * per-path READ figures (UCT_IB_NDR_READ_PATH_BANDWIDTH 38e9, UCT_IB_XDR_READ_PATH_BANDWIDTH 35e9,
 * openucx/ucx v1.20.0 src/uct/ib/base/ib_iface.c L36-55) only rank lanes; UCX never throttles to them.
 */
class ProfileAuditTest {
    @Test
    void everyParameterIsDerivedCalibratedOrAssumedWithItsSourceAndNoneRestsOnAUcxEstimate() {
        for (String name : CalibrationProfile.NAMES) {
            for (CalibrationProfile.Parameter p : CalibrationProfile.named(name).parameters()) {
                String where = name + "." + p.key();
                assertFalse(p.source().isBlank(), where + " names no source");
                if (p.kind() != CalibrationProfile.Kind.DERIVED) {
                    assertFalse(p.assumption().isBlank(), where + " does not say what it assumes");
                }
                String src = p.source().toLowerCase(Locale.ROOT);
                assertFalse(src.contains("ib_iface.c") || src.contains("read_path_bandwidth") || src.contains("35e9")
                        || src.contains("38e9"), where + " takes a value from UCX's lane-ranking estimates");
            }
        }
    }

    @Test
    void everyShippedParameterIsAKeyTheModelReadsOrARefitCostAndItsUnitParses() {
        int rates = 0;
        for (String name : CalibrationProfile.NAMES) {
            for (CalibrationProfile.Parameter p : CalibrationProfile.named(name).parameters()) {
                String where = name + "." + p.key();
                if (p.key().startsWith("refit.")) {
                    continue; // the refit stage's costs, read by RefitCalibration under its own keys
                }
                ProfileKey key = ProfileKey.of(p.key()).orElseThrow(() -> new AssertionError(where
                        + " is read by no code (no ProfileKey spells it)"));
                key.check(p);
                if (key.quantity() == ProfileKey.Quantity.RATE) {
                    rates++;
                    // the unit table gives what the hand conversions gave, bit for bit (dividing by 8 is exact)
                    double byHand = p.unit().equals("Gbps") ? Units.gbpsToBytesPerSecond(p.value())
                            : p.value() * 1e9;
                    assertEquals(Double.doubleToRawLongBits(byHand), Double.doubleToRawLongBits(p.bytesPerSecond()), where);
                }
            }
        }
        assertTrue(rates >= 5, rates + " rates");
    }

    @Test
    void aParameterWhoseUnitDoesNotExpressItsQuantityIsRefused() {
        var gbps = new CalibrationProfile.Parameter("nicReadRate", 308, "Gbps", CalibrationProfile.Kind.CALIBRATED, "s", "a");
        assertEquals(38.5e9, gbps.bytesPerSecond());
        var bits = new CalibrationProfile.Parameter("nicReadRate", 308, "Gbit", CalibrationProfile.Kind.CALIBRATED, "s", "a");
        IllegalStateException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
                () -> ProfileKey.NIC_READ_RATE.check(bits));
        assertTrue(e.getMessage().contains("nicReadRate") && e.getMessage().contains("Gbit"), e.getMessage());
        var share = new CalibrationProfile.Parameter("efaWireEfficiency", 97.8, "of line rate",
                CalibrationProfile.Kind.ASSUMED, "s", "a");
        org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
                () -> ProfileKey.EFA_WIRE_EFFICIENCY.check(share), "a percentage is not a share");
        var flag = new CalibrationProfile.Parameter("gpuBehindNicSwitch", 2, "(0: no switch; 1: behind it)",
                CalibrationProfile.Kind.ASSUMED, "s", "a");
        org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
                () -> ProfileKey.GPU_BEHIND_NIC_SWITCH.check(flag));
        // a flag's unit says what both values mean: "= 0 (1 = yes)" left a reader to work out what 0 is
        var yes = new CalibrationProfile.Parameter("gpuBehindNicSwitch", 1, "(1 = yes)", CalibrationProfile.Kind.ASSUMED,
                "s", "a");
        IllegalStateException bare = org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
                () -> ProfileKey.GPU_BEHIND_NIC_SWITCH.check(yes));
        assertTrue(bare.getMessage().contains("(0: WORDS; 1: WORDS)"), bare.getMessage());
    }

    /** Each flag a profile ships reads as words in the lines reports print: what its value means, and the other. */
    @Test
    void aFlagReadsAsWhatEachValueMeans() {
        var responder = CalibrationProfile.named("gb200-roce").parameter(ProfileKey.NIC_READ_AT_RESPONDER).orElseThrow();
        assertTrue(responder.describe().startsWith("nicReadAtResponder = 0 (0: the NIC that issues the READ holds the "
                + "rate; 1: the NIC that answers it), assumed"), responder.describe());
        var behind = CalibrationProfile.named("gb300-ib").parameter(ProfileKey.GPU_BEHIND_NIC_SWITCH).orElseThrow();
        assertTrue(behind.describe().startsWith("gpuBehindNicSwitch = 1 (0: the NICs hang off the Grace root complexes; "
                + "1: each GPU sits behind its NIC's PCIe switch), assumed"), behind.describe());
    }

    @Test
    void theConnectX7PerQpReadRateAppliesWhereverAConnectX7ReadsWhateverTheLinkLayer() {
        // measured on 400G RoCE (pegaflow #291), so a RoCE DGX H100 gets it as an InfiniBand one does
        for (LinkLayer layer : List.of(LinkLayer.INFINIBAND, LinkLayer.ROCE)) {
            Host h = new Host("h", relinked(Presets.get("dgx-h100"), layer));
            assertEquals(320.0, h.profile().qpReadRate().orElseThrow().value(), layer.toString());
            assertEquals(CalibrationProfile.Kind.CALIBRATED, h.profile().qpReadRate().orElseThrow().kind());
        }
        // GB200 extends it and keeps one home for the value
        assertEquals(CalibrationProfile.named("connectx7").qpReadRate(),
                CalibrationProfile.named("gb200-roce").qpReadRate());
        // a ConnectX-6 is not the measured hardware: no per-QP READ rate
        assertTrue(CalibrationProfile.named("generic").qpReadRate().isEmpty());
    }

    /** The same host with every NIC on {@code layer}. */
    private static HostSpec relinked(HostSpec spec, LinkLayer layer) {
        List<HostSpec.SocketSpec> sockets = new java.util.ArrayList<>();
        for (HostSpec.SocketSpec s : spec.sockets()) {
            sockets.add(new HostSpec.SocketSpec(s.numaNode(), s.memoryBandwidth(), s.memoryBytes(), s.cpuAffinity(),
                    relinked(s.devices(), layer)));
        }
        return new HostSpec(spec.model(), spec.cpuFamily(), spec.interSocket(), sockets, spec.source());
    }

    private static List<HostSpec.DeviceSpec> relinked(List<HostSpec.DeviceSpec> devices, LinkLayer layer) {
        List<HostSpec.DeviceSpec> out = new java.util.ArrayList<>();
        for (HostSpec.DeviceSpec d : devices) {
            if (d instanceof HostSpec.NicSpec n) {
                out.add(new HostSpec.NicSpec(n.name(), n.model(), layer, n.link(), n.port(), n.lineRateGbps(),
                        n.relaxedOrdering()));
            } else if (d instanceof HostSpec.SwitchSpec s) {
                out.add(new HostSpec.SwitchSpec(s.name(), s.uplink(), relinked(s.devices(), layer)));
            } else {
                out.add(d);
            }
        }
        return out;
    }
}
