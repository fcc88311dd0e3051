package org.rdmasim.hardware;

/**
 * The wire a NIC speaks. Wire efficiency is payload over bytes on the wire at MTU 4096 as UCX
 * estimates it ([ucx-src] src/uct/ib/base/ib_iface.c): InfiniBand RC adds 44 B of headers
 * per packet (4096 / 4140 = 98.9%); RoCE v2 adds Ethernet, IP and UDP framing (~97.8%; other path MTUs,
 * which follow the netdev MTU: {@link RocePathMtu}).
 *
 * <p>KNOWN DEFECT, not yet changed: both figures are UCX's lane-ranking estimate, not the frame on the wire. UCX
 * counts BTH, RETH, ICRC, VCRC, a delimiter and, for RoCE, a 40 B GRH and a 14 B Ethernet header on every packet
 * (openucx/ucx v1.20.0 src/uct/ib/base/ib_iface.c:1987-1998). A RoCE v2 WRITE's middle packet carries the
 * preamble and start delimiter (8 B) and inter-frame gap (12 B) of IEEE 802.3, the Ethernet header (14 B) and FCS
 * (4 B), an IP header and UDP (8 B), BTH (12 B) and ICRC (4 B); RETH is on a message's first packet only. With
 * an IPv4 GID, the one UCX and NCCL pick first (openucx/ucx v1.20.0 src/uct/ib/base/ib_device.c:1077-1082 puts
 * RoCE v2 over AF_INET first; NVIDIA/nccl v2.29.7-1 src/transport/net_ib/connect.cc:92 defaults
 * NCCL_IB_ADDR_FAMILY to AF_INET), that is 82 B a packet, 4096 / 4178 = 0.9804 at MTU 4096 (IPv6: 102 B,
 * 0.9757), against the 0.978 here: every RoCE output would rise about 0.25%. The InfiniBand figure needs the
 * link layer's own framing (delimiters, flow-control packets) from the IBTA specification, not read here.
 */
public enum LinkLayer {
    INFINIBAND(4096.0 / (4096.0 + 44.0)),
    ROCE(0.978),
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
