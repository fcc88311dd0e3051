package org.rdmasim.transport.backend;

import java.util.List;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.Hosts;
import org.rdmasim.hardware.TopologyNode;
import org.rdmasim.transport.Endpoint;
import org.rdmasim.transport.LanePolicy;
import org.rdmasim.transport.LaneSplit;
import org.rdmasim.transport.Operation;
import org.rdmasim.transport.QpRetry;
import org.rdmasim.transport.TransferSpec;
import org.rdmasim.transport.WriteOrdering;
import org.rdmasim.transport.libfabric.EfaGroups;
import org.rdmasim.transport.libfabric.LibfabricDecision;
import org.rdmasim.transport.libfabric.LibfabricRails;
import org.rdmasim.transport.ucx.StackProfile;
import org.rdmasim.transport.ucx.UcxLaneSelection;

/**
 * NIXL's libfabric backend (SRD over AWS EFA), rails by {@link LibfabricRails}. It reads no UCX
 * variable: its devices are the EFA devices the process can see and NIXL's grouping of them by GPU
 * ({@link EfaGroups}), at the NIXL release the stack names.
 *
 * @param visibleDevices the network devices the process can see (a container is given some EFA devices
 *                       by the EFA Kubernetes device plugin, {@code vpc.amazonaws.com/efa}; the backend has
 *                       no device list of its own in NIXL v1.4.0); empty means every device
 */
public record LibfabricBackend(List<String> visibleDevices) implements TransferBackend {
    public LibfabricBackend {
        visibleDevices = List.copyOf(visibleDevices);
    }

    @Override
    public String name() {
        return "libfabric";
    }

    /**
     * GPU memory is registered once on each rail of the GPU's EFA group and nowhere else
     * ({@code registerMemory}, ai-dynamo/nixl v1.4.0 {@code src/utils/libfabric/libfabric_rail_manager.cpp}
     * L745-833: one {@code fi_mr_regattr} per selected rail, {@code src/utils/libfabric/libfabric_rail.cpp} L1392).
     * What one EFA MR costs in translation and firmware memory
     * is the registration model's mlx5 figure: no EFA figure is public. Without GPUDirect the model keeps
     * these registrations and a pipelined bounce through host memory: what libfabric's EFA provider does
     * with GPU memory it cannot register is not modelled.
     */
    @Override
    public RegistrationSites registration(StackProfile stack, Host host, TopologyNode device, boolean gpudirect) {
        EfaGroups.Group g = EfaGroups.of(host, visibleDevices, EfaGroups.ScarceDevices.of(stack.nixl())).of(device.name());
        return new RegistrationSites.OnDevices(g.rails(), 1);
    }

    @Override
    public LanePolicy lanes(StackProfile stack, UcxLaneSelection.Registrations held) {
        // the rails follow from the same grouping the registration used; no rkey filter is needed
        return rails(stack);
    }

    @Override
    public List<String> checkLanes(StackProfile stack, Hosts cluster, List<TransferSpec> transfers) {
        LibfabricRails rails = rails(stack);
        for (TransferSpec t : transfers) {
            try {
                rails.decide(cluster, t);
            } catch (IllegalArgumentException e) {
                throw new BackendRefusal("transfer " + t.id() + ": " + e.getMessage());
            }
        }
        return List.of();
    }

    /**
     * Refused: the reaction rdmasim models (ACK timer, retries, endpoint failure) is UCX's RC transport's.
     * SRD over EFA retransmits on its own terms and the libfabric EFA provider reports errors its own way;
     * neither is modelled, so a fault here would be answered with a mechanism the stack lacks.
     */
    @Override
    public QpRetry faultReaction(StackProfile stack, Host host, TopologyNode device) {
        throw new BackendRefusal("faults are modelled for UCX's RC transport (rc_mlx5: its ACK timer, retries and "
                + "endpoint failure); NIXL's libfabric backend runs SRD over EFA, whose retransmission and error "
                + "reporting rdmasim does not model");
    }

    @Override
    public LaneExplanation explain(StackProfile stack, Hosts cluster, TransferSpec spec,
            UcxLaneSelection.Registrations held, WriteOrdering ordering) {
        LibfabricDecision d = rails(stack).decide(cluster, spec);
        Endpoint peer = spec.operation() == Operation.READ ? spec.source() : spec.sink();
        return LaneExplanation.ofNotes(d.describe(spec.initiator().toString(), peer.toString()), d.lanes());
    }

    /** Any device libfabric can open: the EFA provider or another. */
    @Override
    public void checkGivenLane(StackProfile stack, Hosts cluster, String sourceHost, String sinkHost, LaneSplit.Candidate lane) {
    }

    /** Nothing of the backend's own: lanes given by the scenario bypass its rail choice. */
    @Override
    public PathExplanation explainGivenLanes(StackProfile stack, Hosts cluster, TransferSpec spec,
            List<LaneSplit.Candidate> lanes, WriteOrdering ordering) {
        return PathExplanation.NONE;
    }

    private LibfabricRails rails(StackProfile stack) {
        return new LibfabricRails(visibleDevices, stack.nixl());
    }
}
