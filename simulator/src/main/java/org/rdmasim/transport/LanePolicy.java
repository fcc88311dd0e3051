package org.rdmasim.transport;

import java.util.List;
import org.rdmasim.hardware.Cluster;

/** Chooses the lanes of a transfer and how heavily each is weighted. */
public interface LanePolicy {
    /** The lanes for {@code spec}, with weights; bytes are split by {@link LaneSplit}. */
    List<LaneSplit.Candidate> choose(Cluster cluster, TransferSpec spec);

    /** Smallest share worth giving a lane (UCX_MIN_RMA_CHUNK_SIZE, 8 KiB by default). */
    default long minChunk() {
        return 8 * 1024;
    }
}
