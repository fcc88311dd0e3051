package org.rdmasim.transport.ucx;

import org.rdmasim.transport.citation.Citation;

/**
 * What UCX's multi-lane selection made of one (device, path) lane, with the code that makes that verdict
 * (openucx/ucx v1.20.0; {@link UcxLaneSelection} says what differs in older releases).
 */
public enum LaneVerdict {
    /** {@code ucp_proto_multi_select_bw_lanes}: greedy, the lane with the most avail_bw each step. */
    PICKED("picked", "openucx/ucx v1.20.0 src/ucp/proto/proto_multi.c:126-133 ucp_proto_multi_select_bw_lanes"),
    /** {@code ucp_proto_multi_init}: {@code if ((lane_perf->bandwidth * max_bw_ratio) < max_bandwidth)} drops it. */
    DROPPED_BY_RATIO("dropped: bandwidth x UCX_MULTI_LANE_MAX_RATIO below the best lane",
            "openucx/ucx v1.20.0 src/ucp/proto/proto_multi.c:310 ucp_proto_multi_init"),
    /** The greedy loop stops at {@code ucs_min(max_lanes, num_lanes)}. */
    OVER_RAIL_LIMIT("over the rail limit", "openucx/ucx v1.20.0 src/ucp/proto/proto_multi.c:126 ucp_proto_multi_select_bw_lanes"),
    /** {@code ucp_proto_common_find_lanes}: a lane whose remote memory domain is not in the rkey's md_map is skipped. */
    NOT_REGISTERED("skipped: the buffer is not registered on this HCA (not in the rkey)",
            "openucx/ucx v1.20.0 src/ucp/proto/proto_common.c:658-666 ucp_proto_common_find_lanes");

    private final String words;
    private final Citation source;

    LaneVerdict(String words, String source) {
        this.words = words;
        this.source = Citation.parse(source);
    }

    public String words() {
        return words;
    }

    /** Where UCX makes this verdict: repository, tag, file:line and function. */
    public String source() {
        return source.text();
    }

    /** {@link #source()} as fields. */
    public Citation citation() {
        return source;
    }
}
