package org.rdmasim.transport.config;

import org.rdmasim.transport.citation.Citation;

/**
 * A place in openucx/ucx where UCX makes a decision rdmasim models, cited at the release a scenario names.
 * The code moves between releases (the ratio filter of {@code ucp_proto_multi_init} is at
 * {@code proto_multi.c} L310 in v1.20.0, L308 in v1.21.0, L392 in v1.22.0), so each site's lines per release
 * are in {@code ucx-sites.tsv}, which {@code tools/code-sites/generate.py} finds in a clone of UCX by the text
 * of the code, not by line number. A release where that text is not found is cited at the nearest release
 * where it is, and the citation says so.
 */
public enum UcxSite {
    /** The greedy loop that picks the lane with the most avail_bw at each step. */
    LANE_PICKED("lane-picked"),
    /** The same loop's bound, {@code ucs_min(max_lanes, num_lanes)}: lanes past the rail limit are never picked. */
    LANE_RAIL_LIMIT("lane-rail-limit"),
    /** {@code if ((lane_perf->bandwidth * max_bw_ratio) < max_bandwidth)}: a lane too slow beside the best. */
    LANE_RATIO_DROP("lane-ratio-drop"),
    /** A lane whose remote memory domain is not in the rkey's md_map is skipped. */
    LANE_NOT_IN_RKEY("lane-not-in-rkey"),
    /** Bandwidth lanes wired when the endpoint is made: pairs by score, each device until its paths are used. */
    WIREUP_BW_LANES_PAIRWISE("wireup-bw-lanes-pairwise"),
    /** Wired bandwidth lanes slower than the fastest over {@code UCX_MULTI_LANE_MAX_RATIO} are not added. */
    WIREUP_FAST_LANES("wireup-fast-lanes"),
    /** The bandwidth that filter compares: the lesser of the local interface's and the remote entry's. */
    WIREUP_LANE_BW("wireup-lane-bw"),
    /** {@code UCX_MULTI_LANE_MAX_RATIO} defaults to 4. */
    CONF_MULTI_LANE_MAX_RATIO("conf-multi-lane-max-ratio"),
    /** The inner loop over remote address entries: a pair replaces the best only when its score is higher. */
    WIREUP_BEST_PAIR("wireup-best-pair"),
    /** Two scores compare equal within the tolerance, then the interface priorities decide. */
    WIREUP_SCORE_CMP("wireup-score-cmp"),
    /** The tolerance, {@code (s1 + s2) x 1e-6}. */
    WIREUP_SCORE_EPSILON("wireup-score-epsilon"),
    /** The bandwidth lane score: the time to move 256 KiB plus latency, overhead and registration. */
    WIREUP_RMA_BW_SCORE("wireup-rma-bw-score"),
    /** The lesser of the two sides' bandwidths, each scaled by the share of its next path. */
    WIREUP_AVAIL_BW("wireup-avail-bw"),
    /** A path's share of its device: {@code 1 - path index / paths} when {@code UCX_MULTI_PATH_RATIO=auto}. */
    WIREUP_PATH_BW_RATIO("wireup-path-bw-ratio"),
    /** The pair's latency: the mean of the local and remote interface-plus-distance latencies. */
    WIREUP_LATENCY("wireup-latency"),
    /** An interface's bandwidth capped by its distance, as scored and as packed in the worker address. */
    WIREUP_BW_DISTANCE("wireup-bw-distance"),
    /** The distance an interface is scored with: to the first resource of {@code UCX_SELECT_DISTANCE_MD}. */
    WORKER_IFACE_DISTANCE("worker-iface-distance"),
    /** {@code UCX_SELECT_DISTANCE_MD} defaults to {@code cuda_cpy}, the process's CUDA device. */
    CONF_SELECT_DISTANCE_MD("conf-select-distance-md"),
    /** {@code UCX_ADDRESS_VERSION} defaults to v1. */
    CONF_ADDRESS_VERSION("conf-address-version"),
    /** A version-1 address carries an interface's bandwidth with its distance as a float. */
    ADDRESS_V1_BW("address-v1-bw"),
    /** The processes-per-node hint every shared bandwidth is divided by: 1 unless the application gives one. */
    CONTEXT_NUM_PPN("context-num-ppn"),
    /** An IB interface's latency by port speed: 600 ns from EDR up. */
    IB_IFACE_LATENCY("ib-iface-latency"),
    /** The default MR registered with the relaxed-ordering flag when it is on, then a strict-order companion. */
    MR_RELAXED_ORDER("mr-relaxed-order"),
    /** A user memh missing a lane's memory domain is registered there when the lane first uses it. */
    MEMH_REGISTER_AT_USE("memh-register-at-use"),
    /** The distance between two devices from their common sysfs parent (PHB, NODE, SYS). */
    TOPO_DISTANCE("topo-distance"),
    /** How many paths an IB interface opens ({@code UCX_IB_NUM_PATHS=auto}). */
    IB_NUM_PATHS("ib-num-paths"),
    /** The bandwidth estimate of one path of an IB interface. */
    IB_PATH_BW("ib-path-bw"),
    /** {@code [Grace Hopper]}'s {@code UCX_DISTANCE_BW} line in the installed {@code ucx.conf}. */
    CONF_GRACE_DISTANCE("conf-grace-distance"),
    /** {@code [AMD]}'s {@code UCX_DISTANCE_BW} line in the installed {@code ucx.conf}. */
    CONF_AMD_DISTANCE("conf-amd-distance");

    private static final SiteTable TABLE = SiteTable.load("openucx/ucx", "/ucx-sites.tsv",
            java.util.Arrays.stream(values()).map(s -> s.id).collect(java.util.stream.Collectors.toSet()));

    private final String id;

    UcxSite(String id) {
        this.id = id;
    }

    /**
     * {@code openucx/ucx vX.Y.Z file:first-last symbol} at {@code ucx}; where the table has no row for that
     * release, the newest release before it that has one (or else the oldest after it), with a note after the
     * symbol naming the release asked for.
     */
    public Citation cite(StackVersion ucx) {
        return TABLE.cite(id, ucx);
    }
}
