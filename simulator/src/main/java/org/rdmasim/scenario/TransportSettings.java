package org.rdmasim.scenario;

import java.util.List;
import org.rdmasim.transport.config.EnvEntry;
import org.rdmasim.transport.LaneSplit;
import org.rdmasim.transport.Operation;
import org.rdmasim.transport.backend.TransferBackend;
import org.rdmasim.transport.ucx.StackProfile;

/**
 * The transport part of a variant.
 *
 * @param lanes        explicit NIC pairs with weights; empty means the backend chooses
 * @param stack        environment, NIXL, UCX (and NCCL) releases every process resolves its configuration from
 * @param gpudirect    whether GPU buffers may be reached by GPUDirect RDMA (nvidia-peermem or dma-buf
 *                     present); NCCL's own GDR rule (NCCL_NET_GDR_LEVEL, NCCL_NET_GDR_C2C, by NCCL release)
 *                     does not apply to NIXL/UCX transfers: explain shows it beside them
 * @param acs          PCIe ACS enabled on the switches (peer traffic redirected to the root complex)
 * @param iommuPenalty fraction of throughput lost when the IOMMU is not in passthrough (0 = iommu=pt)
 * @param backend      the NIXL backend plugin that carries the transfers ({@code transport.backend}, read by
 *                     BackendReader, the one place that names a backend), with its own settings (UCX's
 *                     {@code transport.api}, libfabric's {@code transport.visibleDevices})
 */
public record TransportSettings(Operation operation, List<LaneSplit.Candidate> lanes, StackProfile stack,
        int descriptors, boolean gpudirect, boolean acs, double iommuPenalty, TransferBackend backend) {
    public TransportSettings {
        lanes = List.copyOf(lanes);
        if (backend == null) {
            throw new IllegalArgumentException("a transfer backend is required");
        }
    }

    /** The same settings with another process environment; the backend stays. */
    public TransportSettings withStack(StackProfile s) {
        return new TransportSettings(operation, lanes, s, descriptors, gpudirect, acs, iommuPenalty, backend);
    }

    /**
     * Whether the UCX install decides anything for a transfer between {@code hosts}: the backend is UCX and
     * this UCX release's ucx.conf has a section for one of the hosts' CPUs ({@link StackProfile#installMatters}).
     * The one test of whether an answer rests on the install: the audit's "rests on" and explain's install
     * lines both ask it.
     */
    public boolean ucxInstallMatters(org.rdmasim.hardware.Host... hosts) {
        return backend.carriedByUcx() && java.util.Arrays.stream(hosts).anyMatch(stack::installMatters);
    }

    public List<EnvEntry> env() {
        return stack.env();
    }

    /**
     * A refused configuration value placed where the user wrote it, as the loader places any bad field: the
     * line of the variable's entry in the env block (a variant's own when the variant sets it) or the envFile,
     * and the field that holds it ({@code FILE:LINE: variants[1].transport.env: UCX_MAX_RMA_RAILS='0' ...}).
     * Empty when no line of a scenario field set it (a value NIXL or ModelExpress set, or one a command set).
     */
    public java.util.Optional<ScenarioException> atUserLine(org.rdmasim.transport.config.ConfigValueException e) {
        if (e.layer() != org.rdmasim.transport.config.ConfigLayer.USER) {
            return java.util.Optional.empty();
        }
        EnvEntry set = null;
        for (EnvEntry entry : env()) {
            if (entry.name().equals(e.variable())) {
                set = entry; // the last one is in effect: a variant's entry follows the base's
            }
        }
        if (set == null || set.line() <= 0 || set.field().isEmpty()) {
            return java.util.Optional.empty();
        }
        // the field the user wrote it in, a variant's own named as such (variants[2].transport.env)
        return java.util.Optional.of(new ScenarioException(
                new org.rdmasim.importers.InputLocation(set.source(), set.line(), 0), set.field() + ": " + e.getMessage()));
    }
}
