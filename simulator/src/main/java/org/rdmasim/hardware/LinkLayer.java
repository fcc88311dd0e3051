package org.rdmasim.hardware;

/**
 * The wire a NIC speaks. Wire efficiency is payload over bytes on the wire at MTU 4096 as UCX
 * estimates it ([ucx-src] src/uct/ib/base/ib_iface.c): InfiniBand RC adds 44 B of headers
 * per packet (4096 / 4140 = 98.9%); RoCE v2 adds Ethernet, IP and UDP framing (~97.8%).
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

    public double wireEfficiency() {
        return wireEfficiency;
    }

    /** The profile whose assumption the efficiency is, when it is one (EFA: aws-efa); empty when derived. */
    public java.util.Optional<String> efficiencyAssumedIn() {
        return this == EFA ? java.util.Optional.of("aws-efa") : java.util.Optional.empty();
    }
}
