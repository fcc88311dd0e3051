package org.rdmasim.scenario;

import java.util.List;
import org.rdmasim.transport.config.EnvEntry;
import org.rdmasim.transport.LaneSplit;
import org.rdmasim.transport.BackendChoice;
import org.rdmasim.transport.Operation;
import org.rdmasim.transport.ucx.StackProfile;
import org.rdmasim.transport.ucx.UcxLaneSelection;

/**
 * The transport part of a variant.
 *
 * @param lanes        explicit NIC pairs with weights; empty means UCX chooses from the stack's configuration
 * @param stack        environment, NIXL, UCX (and NCCL) releases every process resolves its configuration from
 * @param api          RMA (NIXL's ucp_get_nbx / ucp_put_nbx) or rendezvous (tag send), for the rail limit
 * @param gpudirect    whether GPU buffers may be reached by GPUDirect RDMA (nvidia-peermem or dma-buf
 *                     present); NCCL's own GDR rule (NCCL_NET_GDR_LEVEL, NCCL_NET_GDR_C2C, by NCCL release)
 *                     does not apply to NIXL/UCX transfers: explain shows it beside them
 * @param acs          PCIe ACS enabled on the switches (peer traffic redirected to the root complex)
 * @param iommuPenalty fraction of throughput lost when the IOMMU is not in passthrough (0 = iommu=pt)
 * @param backend      the NIXL backend plugin that carries the transfers ({@code transport.backend}, BackendReader)
 *                     and the devices it may see ({@code transport.visibleDevices})
 */
public record TransportSettings(Operation operation, List<LaneSplit.Candidate> lanes, StackProfile stack,
        UcxLaneSelection.Api api, int descriptors, boolean gpudirect, boolean acs, double iommuPenalty,
        BackendChoice backend) {
    public TransportSettings {
        lanes = List.copyOf(lanes);
    }

    /** Settings carried by NIXL's UCX backend. */
    public TransportSettings(Operation operation, List<LaneSplit.Candidate> lanes, StackProfile stack,
            UcxLaneSelection.Api api, int descriptors, boolean gpudirect, boolean acs, double iommuPenalty) {
        this(operation, lanes, stack, api, descriptors, gpudirect, acs, iommuPenalty, BackendChoice.UCX);
    }

    public TransportSettings withBackend(BackendChoice b) {
        return new TransportSettings(operation, lanes, stack, api, descriptors, gpudirect, acs, iommuPenalty, b);
    }

    public List<EnvEntry> env() {
        return stack.env();
    }
}
