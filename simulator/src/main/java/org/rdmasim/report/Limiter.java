package org.rdmasim.report;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.rdmasim.hardware.CalibrationProfile;

/**
 * What limited a transfer, in the words a performance engineer uses, made from the limiter the
 * model recorded (a resource name from hardware.Cluster or a lane cap from transport.TransferEngine).
 * The one place a limiter becomes text for people.
 */
public final class Limiter {
    private static final Pattern CALIBRATED = Pattern.compile(".*(?:calibrated to|assumed in) ([a-z0-9-]+)$");
    private static final Pattern NIC_WIRE = Pattern.compile("(.+):(\\S+) (tx|rx)(?:, SRD efficiency assumed in ([a-z0-9-]+))?");
    private static final Pattern LINK = Pattern.compile("(.+):(\\S+) (PCIe|C2C) (up|down)");
    private static final Pattern MEMORY = Pattern.compile("(.+):(CPU\\d+) memory");
    private static final Pattern SOCKETS = Pattern.compile("(.+):(CPU\\d+)->(CPU\\d+)");
    private static final Pattern NIC_READ = Pattern.compile("(.+):(\\S+) READ, calibrated to ([a-z0-9-]+)");
    private static final Pattern QP_READ = Pattern.compile("(.+):(\\S+) READ rate of one QP, (?:calibrated to|assumed in) ([a-z0-9-]+)");
    private static final Pattern OUTSTANDING = Pattern.compile("(.+):(\\S+) outstanding READs per QP");
    private static final Pattern LEAF = Pattern.compile("(\\S+) (uplink|downlink)");

    private Limiter() {
    }

    /** The limiter in plain words. */
    public static String words(String limiter) {
        if (limiter == null || limiter.isEmpty() || limiter.equals("none")) {
            return "nothing (no bytes)";
        }
        Matcher m;
        if ((m = NIC_READ.matcher(limiter)).matches()) {
            return "NIC " + m.group(2) + "'s delivered RDMA READ rate on " + m.group(1) + ", " + kind(m.group(3), "nicReadRate") + " ("
                    + value(m.group(3), "nicReadRate") + ", profile " + m.group(3) + ")";
        }
        if ((m = QP_READ.matcher(limiter)).matches()) {
            return "one QP's RDMA READ rate on " + m.group(1) + ":" + m.group(2) + ", " + kind(m.group(3), "qpReadRate") + " ("
                    + value(m.group(3), "qpReadRate") + ", profile " + m.group(3) + ")";
        }
        if ((m = OUTSTANDING.matcher(limiter)).matches()) {
            return "RDMA READs in flight per QP (max_qp_rd_atom) on " + m.group(1) + ":" + m.group(2);
        }
        if ((m = NIC_WIRE.matcher(limiter)).matches()) {
            return "NIC " + m.group(2) + "'s " + (m.group(3).equals("tx") ? "transmit" : "receive")
                    + " line rate on " + m.group(1) + (m.group(4) == null ? ""
                            : " (its SRD framing efficiency ASSUMED: " + value(m.group(4), "efaWireEfficiency") + ", profile "
                                    + m.group(4) + ")");
        }
        if ((m = LINK.matcher(limiter)).matches()) {
            return m.group(2) + "'s " + (m.group(3).equals("C2C") ? "NVLink-C2C" : "PCIe") + " link on " + m.group(1)
                    + (m.group(4).equals("up") ? " (towards the CPU)" : " (from the CPU)");
        }
        if ((m = MEMORY.matcher(limiter)).matches()) {
            return "host memory bandwidth of " + m.group(2) + " on " + m.group(1);
        }
        if ((m = SOCKETS.matcher(limiter)).matches()) {
            return "the socket link " + m.group(2) + " to " + m.group(3) + " on " + m.group(1);
        }
        if ((m = LEAF.matcher(limiter)).matches()) {
            return "the fabric: leaf " + m.group(1) + "'s " + m.group(2);
        }
        if (limiter.startsWith("descriptor posting rate")) {
            return "the CPU's descriptor posting rate " + limiter.substring("descriptor posting rate".length()).trim()
                    + " (its per-descriptor cost is ASSUMED unless the scenario's protocol sets it)";
        }
        if (limiter.equals("NIC message rate")) {
            return "the NIC's message rate (its per-work-request cost is ASSUMED unless the scenario's protocol sets it)";
        }
        if (limiter.startsWith("IOMMU")) {
            return "IOMMU translation (not in passthrough; the scenario's ASSUMED penalty)";
        }
        return limiter;
    }

    /** The calibration profile a limiter is a calibrated number of, if any. */
    static Optional<String> profile(String limiter) {
        Matcher m = limiter == null ? null : CALIBRATED.matcher(limiter);
        return m != null && m.matches() ? Optional.of(m.group(1)) : Optional.empty();
    }

    /** CALIBRATED or ASSUMED: how the profile's parameter was obtained. */
    private static String kind(String profile, String key) {
        try {
            return CalibrationProfile.named(profile).parameter(key)
                    .map(p -> p.kind().name()).orElse("CALIBRATED");
        } catch (IllegalArgumentException e) {
            return "CALIBRATED";
        }
    }

    private static String value(String profile, String key) {
        try {
            return CalibrationProfile.named(profile).parameter(key)
                    .map(p -> org.rdmasim.hardware.Units.number(p.value()) + " " + p.unit()).orElse(key);
        } catch (IllegalArgumentException e) {
            return key;
        }
    }
}
