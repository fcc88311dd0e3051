package org.rdmasim.transport.ucx;

import org.rdmasim.transport.citation.Citation;
import org.rdmasim.transport.config.StackVersion;
import org.rdmasim.transport.config.UcxSite;

/**
 * What UCX's multi-lane selection made of one (device, path) lane, with the code that makes that verdict
 * at the release a scenario names ({@link UcxSite}; {@link UcxLaneSelection} says what differs in older
 * releases).
 */
public enum LaneVerdict {
    /** {@code ucp_proto_multi_select_bw_lanes}: greedy, the lane with the most avail_bw each step. */
    PICKED("picked", UcxSite.LANE_PICKED),
    /** {@code ucp_proto_multi_init}: {@code if ((lane_perf->bandwidth * max_bw_ratio) < max_bandwidth)} drops it. */
    DROPPED_BY_RATIO("dropped: bandwidth x UCX_MULTI_LANE_MAX_RATIO below the best lane",
            UcxSite.LANE_RATIO_DROP),
    /**
     * {@code ucp_wireup_add_fast_lanes_pairwise}: at wireup, {@code if (lane_bw < (max_bw * max_ratio))} leaves the
     * lane out of the endpoint ({@link WireupFastLanes}).
     */
    DROPPED_AT_WIREUP("not wired: bandwidth x UCX_MULTI_LANE_MAX_RATIO below the best wired lane (wireup's fast-lane "
            + "filter)", UcxSite.WIREUP_FAST_LANES),
    /** The greedy loop stops at {@code ucs_min(max_lanes, num_lanes)}. */
    OVER_RAIL_LIMIT("over the rail limit", UcxSite.LANE_RAIL_LIMIT),
    /** {@code ucp_proto_common_find_lanes}: a lane whose remote memory domain is not in the rkey's md_map is skipped. */
    NOT_REGISTERED("skipped: the remote buffer is not registered on the HCA this lane reaches (not in its rkey)",
            UcxSite.LANE_NOT_IN_RKEY),
    /** {@code ucp_wireup_add_bw_lanes_pairwise}: every remote device's paths already carry a lane. */
    NOT_WIRED("not wired: every remote HCA's paths already carry lanes",
            UcxSite.WIREUP_BW_LANES_PAIRWISE);

    private final String words;
    private final UcxSite site;

    LaneVerdict(String words, UcxSite site) {
        this.words = words;
        this.site = site;
    }

    public String words() {
        return words;
    }

    /** Where UCX {@code ucx} makes this verdict: repository, tag, file:line and function. */
    public String source(StackVersion ucx) {
        return citation(ucx).text();
    }

    /** {@link #source} as fields. */
    public Citation citation(StackVersion ucx) {
        return site.cite(ucx);
    }
}
