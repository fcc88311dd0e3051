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
 * @param perDescriptorSeconds  CPU cost to post one descriptor (ucp_get_nbx / ucp_put_nbx) and reap
 *                              its completion; ASSUMPTION 1 us, order of UCX's software overhead
 * @param perFragmentSeconds    NIC cost per work request beyond the wire time; ASSUMPTION 50 ns
 * @param maxOutstandingReads   RDMA READs in flight per QP (max_qp_rd_atom = 16 on ConnectX;
 *                              NVIDIA ConnectX [connectx-briefs]; what perftest reports as "Outstand
 *                              reads: 16", openucx/ucx #8852 [ucx-8851])
 * @param stagingCopySeconds    extra one-way latency of a host-staged side (cudaMemcpyAsync launch
 *                              and synchronisation of the bounce buffer); 8 us, CALIBRATED: chosen so
 *                              that a staged path lands in the guide's 10-20 us [gdr-kb-guide] (validation
 *                              row GDR-GUIDE-STAGED is therefore a calibration row, not counted).
 */
public record ProtocolParameters(double nicLatencySeconds, double pcieHopSeconds, double perDescriptorSeconds,
        double perFragmentSeconds, int maxOutstandingReads, double stagingCopySeconds) {
    public static ProtocolParameters defaults() {
        return new ProtocolParameters(0.5e-6, 110e-9, 1e-6, 50e-9, 16, 8e-6);
    }

    public ProtocolParameters {
        if (nicLatencySeconds < 0 || pcieHopSeconds < 0 || perDescriptorSeconds < 0 || perFragmentSeconds < 0
                || stagingCopySeconds < 0) {
            throw new IllegalArgumentException("protocol costs must be >= 0");
        }
        if (maxOutstandingReads < 1) {
            throw new IllegalArgumentException("maxOutstandingReads must be >= 1");
        }
    }
}
