package org.rdmasim.transport.ucx;

/** What UCX's multi-lane selection made of one (device, path) lane. */
public enum LaneVerdict {
    PICKED("picked"),
    DROPPED_BY_RATIO("dropped: bandwidth x UCX_MULTI_LANE_MAX_RATIO below the best lane"),
    OVER_RAIL_LIMIT("over the rail limit"),
    NOT_REGISTERED("skipped: the buffer is not registered on this HCA (not in the rkey)");

    private final String words;

    LaneVerdict(String words) {
        this.words = words;
    }

    public String words() {
        return words;
    }
}
