package org.rdmasim.transport.pegaflow;

import java.util.ArrayList;
import java.util.List;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.Hosts;
import org.rdmasim.hardware.TopologyNode;
import org.rdmasim.transport.LanePolicy;
import org.rdmasim.transport.LaneSplit;
import org.rdmasim.transport.TransferSpec;

/**
 * pegaflow's NIC choice for a batch (novitalabs/pegaflow commit e6c55f1,
 * {@code pegaflow-transfer/src/rc_backend/mod.rs}): the engine groups its HCAs by sysfs NUMA node
 * ({@code NumaRoundRobin::from_runtimes}, L46-83); {@code batch_transfer_async} asks {@code move_pages} for
 * the NUMA node of each descriptor's local pages and deals the descriptors round-robin over that node's
 * HCAs, or over every HCA when the node has none or all HCAs share one node (L85-93, L366-398). HCA k posts
 * to the peer's HCA k ({@code remote_qpns[nic_idx]}, L420). Since PR #291 each HCA pair has
 * {@code qps_per_peer} RC QPs, fed WQE by WQE in turn; before it, one.
 *
 * <p>The local buffer is the initiator's (the sink's for a READ). A transfer of many descriptors deals them
 * evenly, so each (HCA, QP) carries an equal share.
 */
public final class PegaflowLanes implements LanePolicy {
    private final List<String> opened;
    private final int qpsPerPeer;

    /**
     * @param opened     the HCAs the engine opens ({@code --nic} / {@code --exclude-nic}); empty means every one
     * @param qpsPerPeer RC QPs per HCA pair
     */
    public PegaflowLanes(List<String> opened, int qpsPerPeer) {
        if (qpsPerPeer < 1) {
            throw new IllegalArgumentException("at least one QP per HCA pair, got " + qpsPerPeer);
        }
        this.opened = List.copyOf(opened);
        this.qpsPerPeer = qpsPerPeer;
    }

    @Override
    public Plan plan(Hosts hosts, TransferSpec spec) {
        return new Plan(lanes(hosts, spec), LaneSplit.MinChunk.PROPORTIONAL_SHARES);
    }

    /** One lane per QP of each HCA the local buffer's NUMA node routes to, to the peer's HCA of the same index. */
    public List<LaneSplit.Candidate> lanes(Hosts hosts, TransferSpec spec) {
        boolean sourceLocal = spec.initiator().equals(spec.source());
        Host local = hosts.host(spec.initiator().host());
        Host peer = hosts.host((sourceLocal ? spec.sink() : spec.source()).host());
        List<TopologyNode> localNics = openedOn(local);
        List<TopologyNode> peerNics = openedOn(peer);
        TopologyNode buffer = local.find(spec.initiator().device()).orElseThrow(() -> new IllegalArgumentException(
                "host " + local.name() + " has no device " + spec.initiator().device()));
        List<Integer> indices = routed(localNics, buffer.socket());
        List<LaneSplit.Candidate> out = new ArrayList<>();
        for (int k : indices) {
            if (k >= peerNics.size()) {
                throw new IllegalArgumentException("host " + peer.name() + " opens " + peerNics.size()
                        + " HCAs; pegaflow pairs HCA " + k + " with the peer's HCA of the same index");
            }
            String l = localNics.get(k).name();
            String p = peerNics.get(k).name();
            for (int q = 0; q < qpsPerPeer; q++) {
                out.add(sourceLocal ? new LaneSplit.Candidate(l, p, 1.0) : new LaneSplit.Candidate(p, l, 1.0));
            }
        }
        return out;
    }

    /** Indices of the HCAs a descriptor whose pages sit on NUMA node {@code node} is dealt to. */
    static List<Integer> routed(List<TopologyNode> nics, int node) {
        List<Integer> same = new ArrayList<>();
        boolean singleNode = true;
        for (int i = 0; i < nics.size(); i++) {
            if (nics.get(i).socket() == node) {
                same.add(i);
            }
            if (nics.get(i).socket() != nics.get(0).socket()) {
                singleNode = false;
            }
        }
        if (singleNode || same.isEmpty()) {
            List<Integer> all = new ArrayList<>();
            for (int i = 0; i < nics.size(); i++) {
                all.add(i);
            }
            return all;
        }
        return same;
    }

    /** The HCAs the engine opens on {@code host}, in PCI order. */
    public List<TopologyNode> openedOn(Host host) {
        List<TopologyNode> nics = opened.isEmpty() ? host.nics()
                : host.nics().stream().filter(n -> opened.contains(n.name())).toList();
        if (nics.isEmpty()) {
            throw new IllegalArgumentException("host " + host.name() + " has no RDMA device for pegaflow to open"
                    + (opened.isEmpty() ? "" : " among " + opened));
        }
        return nics;
    }
}
