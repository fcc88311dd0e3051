package org.rdmasim.transport;

import java.util.List;
import org.rdmasim.hardware.Cluster;

/** Lanes named by the user: NIC pairs with weights, the same for every transfer, bypassing UCX's choice. */
public record ExplicitLanes(List<LaneSplit.Candidate> lanes) implements LanePolicy {
    /** UCX_MIN_RMA_CHUNK_SIZE default, 8 KiB (src/ucp/core/ucp_context.c; FACTS.md section 2). */
    public static final long DEFAULT_MIN_CHUNK = 8 * 1024;

    public ExplicitLanes {
        lanes = List.copyOf(lanes);
        if (lanes.isEmpty()) {
            throw new IllegalArgumentException("explicit lanes: at least one lane is needed");
        }
    }

    @Override
    public Plan plan(Cluster cluster, TransferSpec spec) {
        return new Plan(lanes, DEFAULT_MIN_CHUNK);
    }
}
