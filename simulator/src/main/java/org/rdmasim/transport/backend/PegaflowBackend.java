package org.rdmasim.transport.backend;

import java.util.List;
import java.util.Locale;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.Hosts;
import org.rdmasim.hardware.TopologyNode;
import org.rdmasim.transport.LanePolicy;
import org.rdmasim.transport.LaneSplit;
import org.rdmasim.transport.QpRetry;
import org.rdmasim.transport.TransferSpec;
import org.rdmasim.transport.WriteOrdering;
import org.rdmasim.transport.citation.CitedNote;
import org.rdmasim.transport.pegaflow.PegaflowLanes;
import org.rdmasim.transport.ucx.StackProfile;
import org.rdmasim.transport.ucx.UcxLaneSelection;

/**
 * pegaflow's own RDMA engine (novitalabs/pegaflow {@code pegaflow-transfer}, RC verbs through the
 * {@code sideway} crate; no NIXL, no UCX): descriptors go out on the HCAs of their pages' NUMA node
 * ({@link PegaflowLanes}).
 *
 * @param visibleDevices the HCAs it opens ({@code --nic} / {@code --exclude-nic}); empty means every one
 * @param qpsPerPeer     RC QPs per HCA pair ({@code --qps-per-peer}, PR #291; 1 before it)
 */
public record PegaflowBackend(List<String> visibleDevices, int qpsPerPeer) implements TransferBackend {
    /** {@code --qps-per-peer}'s default since novitalabs/pegaflow PR #291. */
    public static final int DEFAULT_QPS_PER_PEER = 2;

    public PegaflowBackend {
        visibleDevices = List.copyOf(visibleDevices);
        if (qpsPerPeer < 1) {
            throw new IllegalArgumentException("at least one QP per HCA pair, got " + qpsPerPeer);
        }
    }

    @Override
    public String name() {
        return "pegaflow";
    }

    /**
     * {@code register_memory} registers a buffer on every opened HCA's protection domain, one MR each
     * (novitalabs/pegaflow e6c55f1 {@code pegaflow-transfer/src/rc_backend/mod.rs} L136-150).
     */
    @Override
    public RegistrationSites registration(StackProfile stack, Host host, TopologyNode device, boolean gpudirect) {
        return new RegistrationSites.OnDevices(lanes().openedOn(host).stream().map(TopologyNode::name).toList(), 1);
    }

    @Override
    public LanePolicy lanes(StackProfile stack, UcxLaneSelection.Registrations held) {
        return lanes();
    }

    @Override
    public List<String> checkLanes(StackProfile stack, Hosts cluster, List<TransferSpec> transfers) {
        for (TransferSpec t : transfers) {
            try {
                lanes().lanes(cluster, t);
            } catch (IllegalArgumentException e) {
                throw new BackendRefusal("transfer " + t.id() + ": " + e.getMessage());
            }
        }
        return List.of();
    }

    @Override
    public void checkGivenLane(StackProfile stack, Hosts cluster, String sourceHost, String sinkHost,
            LaneSplit.Candidate lane) {
    }

    /** Refused: rdmasim models UCX's RC retry and endpoint failure, not pegaflow's error handling. */
    @Override
    public QpRetry faultReaction(StackProfile stack, Host host, TopologyNode device) {
        throw new BackendRefusal("faults are modelled for UCX's RC transport; pegaflow's RC engine handles a failed "
                + "QP its own way, which rdmasim does not model");
    }

    @Override
    public LaneExplanation explain(StackProfile stack, Hosts cluster, TransferSpec spec,
            UcxLaneSelection.Registrations held, WriteOrdering ordering) {
        List<LaneSplit.Candidate> picked = lanes().lanes(cluster, spec);
        return LaneExplanation.ofNotes(List.of(CitedNote.uncited(String.format(Locale.ROOT, "pegaflow: descriptors "
                + "of %s go round-robin over the HCAs of its NUMA node, %d QP(s) per HCA pair: %d lane(s)",
                spec.initiator(), qpsPerPeer, picked.size()))), picked);
    }

    @Override
    public PathExplanation explainGivenLanes(StackProfile stack, Hosts cluster, TransferSpec spec,
            List<LaneSplit.Candidate> lanes, WriteOrdering ordering) {
        return PathExplanation.NONE;
    }

    private PegaflowLanes lanes() {
        return new PegaflowLanes(visibleDevices, qpsPerPeer);
    }
}
