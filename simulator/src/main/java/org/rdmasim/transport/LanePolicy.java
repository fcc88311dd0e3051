package org.rdmasim.transport;

import java.util.List;
import org.rdmasim.hardware.Hosts;

/** Chooses the lanes of a transfer and how heavily each is weighted. */
public interface LanePolicy {
    /**
     * Weighted lanes, in lane order, and UCX's rule for how small a piece a lane may be given.
     *
     * @param minChunk the per-lane minimum chunk rule of the protocol and UCX release that carries the transfer
     */
    record Plan(List<LaneSplit.Candidate> lanes, LaneSplit.MinChunk minChunk) {
        public Plan {
            lanes = List.copyOf(lanes);
        }
    }

    Plan plan(Hosts hosts, TransferSpec spec);

    /**
     * Whether the plan depends on the transfer's size as well as on the hosts' shapes, the devices, the
     * operation and the descriptor count (NIXL's libfabric backend stripes only large descriptors).
     */
    default boolean dependsOnSize() {
        return false;
    }
}
