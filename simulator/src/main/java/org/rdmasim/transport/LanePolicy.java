package org.rdmasim.transport;

import java.util.List;
import org.rdmasim.hardware.Cluster;

/** Chooses the lanes of a transfer and how heavily each is weighted. */
public interface LanePolicy {
    /**
     * Weighted lanes and the smallest share worth a lane of its own.
     *
     * @param minChunk bytes below which a lane is not given a share (UCX_MIN_RMA_CHUNK_SIZE, 8 KiB by default)
     */
    record Plan(List<LaneSplit.Candidate> lanes, long minChunk) {
        public Plan {
            lanes = List.copyOf(lanes);
        }
    }

    Plan plan(Cluster cluster, TransferSpec spec);
}
