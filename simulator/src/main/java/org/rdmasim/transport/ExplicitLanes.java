package org.rdmasim.transport;

import java.util.List;
import org.rdmasim.hardware.Cluster;

/** Lanes named by the user: NIC pairs with weights, the same for every transfer. */
public record ExplicitLanes(List<LaneSplit.Candidate> lanes) implements LanePolicy {
    public ExplicitLanes {
        lanes = List.copyOf(lanes);
        if (lanes.isEmpty()) {
            throw new IllegalArgumentException("explicit lanes: at least one lane is needed");
        }
    }

    @Override
    public List<LaneSplit.Candidate> choose(Cluster cluster, TransferSpec spec) {
        return lanes;
    }
}
