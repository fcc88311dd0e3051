package org.rdmasim.transport;

/**
 * Fixed costs of moving data, one place for all of them. Defaults and sources:
 *
 * @param nicLatencySeconds     per-NIC processing (doorbell, WQE fetch, DMA start) one way; ASSUMPTION
 *                              0.5 us. With the PCIe and switch hops a GPUDirect one-way latency comes
 *                              to ~1.35 us, below the GPUDirect guide's loose "~2-5 us" [gdr-kb-guide]
 *                              (validation row GDR-GUIDE-DIRECT, a known failure: the guide states no
 *                              measured setup).
 * @param pcieHopSeconds        one PCIe switch traversal, 110 ns (Broadcom PEX88000/PEX89000 class,
 *                              ~105-115 ns port to port [pex89000-brief])
 * @param perDescriptorSeconds  the initiating software's cost to post one descriptor and reap its
 *                              completion: it caps one lane at message / cost. ASSUMPTION 1 us, the
 *                              order of UCX's software overhead per ucp_get_nbx / ucp_put_nbx through
 *                              NIXL. A verbs benchmark posting from a tight loop (perftest's
 *                              run_iter_bw, linux-rdma/perftest v4.5-0.20 src/perftest_resources.c:3768)
 *                              costs far less; scenarios that pose perftest set it (50 ns, assumed).
 * @param perFragmentSeconds    NIC cost per work request of one QP beyond the wire time; ASSUMPTION 50 ns
 *                              (20 M work requests per second per QP)
 * @param sendQueueDepth        WRITE work requests one QP keeps in flight: a WRITE stream moves at most
 *                              depth x message per round trip (the ACK frees a slot). DERIVED: perftest's
 *                              default TX depth for bandwidth tests, DEF_TX_BW = 128
 *                              (linux-rdma/perftest v4.5-0.20 src/perftest_parameters.h:111, applied at
 *                              src/perftest_parameters.c:699; the loop that honours it
 *                              src/perftest_resources.c:3768); UCX's rc transports default to a 256-deep
 *                              send queue ([ucx-src] v1.20.0 src/uct/ib/base/ib_iface.c:102, TX_QUEUE_LEN),
 *                              so 128 is the tighter of the two; at UCX's chunk sizes (8 KiB and up) neither
 *                              binds below the wire
 * @param nicMessageRate        RDMA messages per second one NIC can process over all its QPs; the lanes
 *                              of one transfer on one NIC share it. DERIVED: 330 M/s, the low end of
 *                              the "330-370 million messages per second" in NVIDIA's ConnectX-7 NDR
 *                              datasheet [connectx7-datasheet]. It binds only below ~150 B on a 400G port.
 * @param maxOutstandingReads   RDMA READs in flight per QP (max_qp_rd_atom = 16 on ConnectX;
 *                              NVIDIA ConnectX [connectx-briefs]; what perftest reports as "Outstand
 *                              reads: 16", openucx/ucx #8852 [ucx-8851]). UCX's own QPs use the same
 *                              figure: UCX_RC_MAX_RD_ATOMIC defaults to "auto", the device's
 *                              max_qp_rd_atom (openucx/ucx v1.20.0 src/uct/ib/rc/base/rc_iface.c L35-38
 *                              and L551-552, rc_mlx5_iface.c L931-932; "auto" since v1.14.0 at least),
 *                              so one value serves perftest and UCX lanes alike
 * @param stagingCopySeconds    extra one-way latency of a host-staged side (cudaMemcpyAsync launch
 *                              and synchronisation of the bounce buffer); ASSUMPTION 8 us, chosen so that
 *                              a staged path lands inside the guide's stated 10-20 us [gdr-kb-guide]. The
 *                              guide's range is a vendor's claim with no measured setup, not a measurement,
 *                              so nothing is calibrated to it: validation row GDR-GUIDE-STAGED is an
 *                              expectation, and its note gives the latency without the copy.
 */
public record ProtocolParameters(double nicLatencySeconds, double pcieHopSeconds, double perDescriptorSeconds,
        double perFragmentSeconds, int maxOutstandingReads, double stagingCopySeconds, int sendQueueDepth,
        double nicMessageRate) {
    // The defaults, each sourced in the record's comment above; scenario.Parameters prints and reads them.
    public static final double DEFAULT_NIC_LATENCY_SECONDS = 0.5e-6;
    public static final double DEFAULT_PCIE_HOP_SECONDS = 110e-9;
    public static final double DEFAULT_PER_DESCRIPTOR_SECONDS = 1e-6;
    public static final double DEFAULT_PER_FRAGMENT_SECONDS = 50e-9;
    public static final int DEFAULT_MAX_OUTSTANDING_READS = 16;
    public static final double DEFAULT_STAGING_COPY_SECONDS = 8e-6;
    /** perftest's DEF_TX_BW (linux-rdma/perftest v4.5-0.20 src/perftest_parameters.h:111). */
    public static final int DEFAULT_SEND_QUEUE_DEPTH = 128;
    /** Low end of NVIDIA's ConnectX-7 datasheet "330-370 million messages per second". */
    public static final double DEFAULT_NIC_MESSAGE_RATE = 330e6;

    public static ProtocolParameters defaults() {
        return new ProtocolParameters(DEFAULT_NIC_LATENCY_SECONDS, DEFAULT_PCIE_HOP_SECONDS,
                DEFAULT_PER_DESCRIPTOR_SECONDS, DEFAULT_PER_FRAGMENT_SECONDS, DEFAULT_MAX_OUTSTANDING_READS,
                DEFAULT_STAGING_COPY_SECONDS);
    }

    /** The costs with the default send-queue depth and NIC message rate. */
    public ProtocolParameters(double nicLatencySeconds, double pcieHopSeconds, double perDescriptorSeconds,
            double perFragmentSeconds, int maxOutstandingReads, double stagingCopySeconds) {
        this(nicLatencySeconds, pcieHopSeconds, perDescriptorSeconds, perFragmentSeconds, maxOutstandingReads,
                stagingCopySeconds, DEFAULT_SEND_QUEUE_DEPTH, DEFAULT_NIC_MESSAGE_RATE);
    }

    public ProtocolParameters {
        if (nicLatencySeconds < 0 || pcieHopSeconds < 0 || perDescriptorSeconds < 0 || perFragmentSeconds < 0
                || stagingCopySeconds < 0) {
            throw new IllegalArgumentException("protocol costs must be >= 0");
        }
        if (maxOutstandingReads < 1) {
            throw new IllegalArgumentException("maxOutstandingReads must be >= 1");
        }
        if (sendQueueDepth < 1) {
            throw new IllegalArgumentException("sendQueueDepth must be >= 1");
        }
        if (!(nicMessageRate > 0) || Double.isInfinite(nicMessageRate)) {
            throw new IllegalArgumentException("nicMessageRate must be > 0 and finite");
        }
    }
}
