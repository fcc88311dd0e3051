package org.rdmasim.transport;

import java.util.List;
import org.rdmasim.hardware.Cluster;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.TopologyNode;

/**
 * One lane between the NIC nearest the source buffer and the NIC nearest the sink buffer: what a
 * single-rail stack pinned to the topologically closest NIC does (ModelExpress'
 * {@code MX_RDMA_NIC_PIN=auto}, seed 003).
 */
public record NearestNicLanes() implements LanePolicy {
    @Override
    public List<LaneSplit.Candidate> choose(Cluster cluster, TransferSpec spec) {
        return List.of(new LaneSplit.Candidate(nearest(cluster, spec.source()), nearest(cluster, spec.sink()), 1.0));
    }

    static String nearest(Cluster cluster, Endpoint e) {
        Host h = cluster.host(e.host());
        TopologyNode d = h.find(e.device()).orElseThrow();
        if (d.kind() == TopologyNode.Kind.SOCKET) {
            for (TopologyNode n : h.nics()) {
                if (n.socket() == d.socket()) {
                    return n.name();
                }
            }
            return h.nics().get(0).name();
        }
        return h.nearestNic(d).name();
    }
}
