package org.rdmasim.hardware;

/**
 * The wire a NIC speaks. Wire efficiency is payload over bytes on the wire at MTU 4096, what the solver's line
 * rates carry. How UCX rates the same wire to rank lanes is its own count, kept apart in
 * org.rdmasim.transport.ucx.UcxWireEstimate.
 *
 * <p>RoCE is the frame on the wire ({@link RocePathMtu#payloadEfficiency}: 82 B a packet with an IPv4 GID,
 * 4096 / 4178 = 0.9804; other path MTUs follow the netdev MTU). InfiniBand is 44 B a packet, the count UCX also
 * ranks with (openucx/ucx v1.20.0 src/uct/ib/base/ib_iface.c:1987-1995: LRH, BTH, RETH, ICRC, VCRC and a
 * delimiter, 4096 / 4140 = 0.9894). The link layer's own framing (start and end delimiters, idles, flow-control
 * packets) is in the IBTA specification, not read here, so this is not a count of the wire: the headers a middle
 * packet must carry (LRH 8, BTH 12, ICRC 4, VCRC 2: 26 B, no RETH after a WRITE's first packet) would give 0.9937,
 * 0.4% more on every InfiniBand wire, and the link layer's framing takes some of that back.
 */
public enum LinkLayer {
    INFINIBAND(4096.0 / (4096.0 + 44.0)),
    ROCE(RocePathMtu.payloadEfficiency(4096)),
    /**
     * AWS EFA's Scalable Reliable Datagram over the AWS network. No public source gives SRD's framing;
     * the efficiency is the aws-efa profile's named assumption ({@code efaWireEfficiency}).
     */
    EFA(CalibrationProfile.named("aws-efa").require(ProfileKey.EFA_WIRE_EFFICIENCY).value());

    private final double wireEfficiency;

    LinkLayer(double wireEfficiency) {
        this.wireEfficiency = wireEfficiency;
    }

    /** The efficiency of this link layer (for EFA, the aws-efa profile's figure). */
    public double wireEfficiency() {
        return wireEfficiency;
    }

    /**
     * The efficiency on a host whose profile is {@code calibration}: for EFA, that profile's
     * {@code efaWireEfficiency} when it has one (the host's profile decides, as for every assumed figure),
     * else aws-efa's; the derived InfiniBand and RoCE figures are every host's.
     */
    public double wireEfficiency(CalibrationProfile calibration) {
        return this == EFA ? calibration.parameter(ProfileKey.EFA_WIRE_EFFICIENCY)
                .map(CalibrationProfile.Parameter::value).orElse(wireEfficiency) : wireEfficiency;
    }

    /**
     * The profile whose assumption the efficiency is on a host whose profile is {@code calibration}, when it
     * is one (EFA: that profile if it has the figure, else aws-efa); empty when derived.
     */
    public java.util.Optional<String> efficiencyAssumedIn(CalibrationProfile calibration) {
        if (this != EFA) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(calibration.parameter(ProfileKey.EFA_WIRE_EFFICIENCY).isPresent()
                ? calibration.name() : "aws-efa");
    }
}
