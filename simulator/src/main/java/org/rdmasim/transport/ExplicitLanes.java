package org.rdmasim.transport;

import java.util.List;
import org.rdmasim.hardware.Hosts;

/** Lanes named by the user: NIC pairs with weights, the same for every transfer, bypassing UCX's choice. */
public record ExplicitLanes(List<LaneSplit.Candidate> lanes) implements LanePolicy {
    /**
     * UCX's RMA rule with the default UCX_MIN_RMA_CHUNK_SIZE, 8 KiB (openucx/ucx v1.20.0
     * src/ucp/core/ucp_context.c L242 [ucx-src]; lowered from 16k by PR #10728 [ucx-pr-10728]), the
     * weights standing for lane bandwidths.
     */
    public static final LaneSplit.MinChunk DEFAULT_MIN_CHUNK = LaneSplit.MinChunk.rma(8 * 1024);

    public ExplicitLanes {
        lanes = List.copyOf(lanes);
        if (lanes.isEmpty()) {
            throw new IllegalArgumentException("explicit lanes: at least one lane is needed");
        }
    }

    @Override
    public Plan plan(Hosts hosts, TransferSpec spec) {
        return new Plan(lanes, DEFAULT_MIN_CHUNK);
    }
}
