package org.rdmasim.scenario;

import java.util.List;
import org.rdmasim.transport.LaneSplit;
import org.rdmasim.transport.Operation;

/**
 * The transport part of a variant.
 *
 * @param lanes        explicit NIC pairs with weights; empty means "let the stack choose"
 * @param gpudirect    whether GPU buffers may be reached by GPUDirect RDMA (else host staging)
 * @param acs          PCIe ACS enabled on the switches (peer traffic redirected to the root complex)
 * @param iommuPenalty fraction of throughput lost when the IOMMU is not in passthrough (0 = iommu=pt)
 */
public record TransportSettings(Operation operation, List<LaneSplit.Candidate> lanes, int descriptors,
        boolean gpudirect, boolean acs, double iommuPenalty) {
    public TransportSettings {
        lanes = List.copyOf(lanes);
    }
}
