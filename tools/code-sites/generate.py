#!/usr/bin/env python3
"""Finds, at every release tag of UCX or NIXL, the lines rdmasim cites for a decision that project's code
makes, and writes them to simulator/src/main/resources/{ucx,nixl}-sites.tsv (or, with --check, fails when
the committed table differs).

Each site is found by the text of its code, not by a line number, so a release that moved the code is
cited where the code is at that release, and a release without that code has no row (rdmasim then cites
the nearest release that has it and says so). Needs a clone of openucx/ucx or ai-dynamo/nixl with its tags:
    tools/code-sites/generate.py --project ucx --repo /path/to/ucx [--check]
    tools/code-sites/generate.py --project nixl --repo /path/to/nixl [--check]
"""
import argparse
import re
import subprocess
import sys
from pathlib import Path

# id, file, symbol, start text, end text (searched from the start line on; '' = the start line only; '=}' = the
# first line that is exactly '}', a function's end), lines after the end text's line to take in as well.
# A start text in /slashes/ is a regular expression. A site may be listed more than once with other text or
# another file: the first form found at a release is taken (the sysfs distance was ucs_topo_get_distance_sysfs
# before UCX v1.20.0; NIXL's UCX backend moved from src/utils/ucx to src/plugins/ucx in 0.10.0).
UCX_SITES = [
    ("lane-picked", "src/ucp/proto/proto_multi.c", "ucp_proto_multi_select_bw_lanes",
     "i < ucs_min(max_lanes, num_lanes); ++i)", "ucp_proto_select_add_lane(selection, params, lanes[lane_index]);", 0),
    ("lane-rail-limit", "src/ucp/proto/proto_multi.c", "ucp_proto_multi_select_bw_lanes",
     "i < ucs_min(max_lanes, num_lanes); ++i)", "", 0),
    ("lane-ratio-drop", "src/ucp/proto/proto_multi.c", "ucp_proto_multi_init",
     "if ((lane_perf->bandwidth * max_bw_ratio) < max_bandwidth)", "", 0),
    ("lane-not-in-rkey", "src/ucp/proto/proto_common.c", "ucp_proto_common_find_lanes",
     "if (((md_attr->flags & UCT_MD_FLAG_NEED_RKEY) ||", "continue;", 0),
    ("wireup-bw-lanes-pairwise", "src/ucp/wireup/select.c", "ucp_wireup_add_bw_lanes_pairwise",
     "static int ucp_wireup_add_bw_lanes_pairwise(", "=}", 0),
    # before v1.19.0 the same loop is ucp_wireup_add_bw_lanes itself
    ("wireup-bw-lanes-pairwise", "src/ucp/wireup/select.c", "ucp_wireup_add_bw_lanes",
     "/^ucp_wireup_add_bw_lanes\\(const ucp_wireup_select_params_t/", "=}", 0),
    # the fast-lane filter run on the wired bandwidth lanes before they are added to the endpoint
    ("wireup-fast-lanes", "src/ucp/wireup/select.c", "ucp_wireup_add_fast_lanes_pairwise",
     "static int ucp_wireup_add_fast_lanes_pairwise(", "=}", 0),
    # before v1.19.0 the same filter is ucp_wireup_add_fast_lanes
    ("wireup-fast-lanes", "src/ucp/wireup/select.c", "ucp_wireup_add_fast_lanes",
     "/^ucp_wireup_add_fast_lanes\\(ucp_worker_h worker,/", "=}", 0),
    # the bandwidth that filter compares: the lesser of the local interface's and the remote address entry's
    ("wireup-lane-bw", "src/ucp/wireup/select.c", "ucp_wireup_get_lane_bw",
     "static double ucp_wireup_get_lane_bw(ucp_worker_h worker,", "=}", 0),
    ("conf-multi-lane-max-ratio", "src/ucp/core/ucp_context.c", "ucp_context_config_table",
     '{"MULTI_LANE_MAX_RATIO", "4",', "", 0),
    # how ucp_wireup_add_bw_lanes_pairwise scores each (local interface, remote address entry) pair
    ("wireup-best-pair", "src/ucp/wireup/select.c", "ucp_wireup_select_transport",
     "UCS_STATIC_BITMAP_FOR_EACH_BIT(addr_index, &rsc_addr_index_map) {", "if (!found || (", 0),
    ("wireup-score-cmp", "src/ucp/core/ucp_context.h", "ucp_score_prio_cmp",
     "int ucp_score_prio_cmp(double score1, int prio1, double score2, int prio2)", "=}", 0),
    ("wireup-score-epsilon", "src/ucp/core/ucp_context.h", "ucp_calc_epsilon",
     "double ucp_calc_epsilon(double val1, double val2)", "=}", 0),
    ("wireup-score-epsilon", "src/ucs/sys/math.h", "ucs_fp_compare_thresh",
     "ucs_fp_compare_thresh(double val1, double val2)", "=}", 0),
    ("wireup-rma-bw-score", "src/ucp/wireup/select.c", "ucp_wireup_rma_bw_score_func",
     "ucp_wireup_rma_bw_score_func(const ucp_worker_iface_t *wiface,", "=}", 0),
    ("wireup-avail-bw", "src/ucp/wireup/select.c", "ucp_wireup_iface_avail_bandwidth",
     "ucp_wireup_iface_avail_bandwidth(const ucp_worker_iface_t *wiface,", "=}", 0),
    ("wireup-path-bw-ratio", "src/ucp/wireup/select.c", "ucp_tl_iface_bandwidth_ratio",
     "static double ucp_tl_iface_bandwidth_ratio(ucp_context_h context,", "=}", 0),
    ("wireup-latency", "src/ucp/wireup/select.c", "ucp_wireup_tl_iface_latency",
     "ucp_wireup_tl_iface_latency(const ucp_worker_iface_t *wiface,", "=}", 0),
    ("wireup-bw-distance", "src/ucp/wireup/wireup.c", "ucp_wireup_iface_bw_distance",
     "double ucp_wireup_iface_bw_distance(const ucp_worker_iface_t *wiface)", "=}", 0),
    ("worker-iface-distance", "src/ucp/core/ucp_worker.c", "ucp_worker_iface_set_sys_device_distance",
     "static void ucp_worker_iface_set_sys_device_distance(", "=}", 0),
    ("conf-select-distance-md", "src/ucp/core/ucp_context.c", "ucp_context_config_table",
     '{"SELECT_DISTANCE_MD", "cuda_cpy",', "", 0),
    ("address-v1-bw", "src/ucp/wireup/address.c", "ucp_address_pack_iface_attr_v1",
     "packed->bandwidth = ucp_wireup_iface_bw_distance(wiface);", "", 0),
    ("conf-address-version", "src/ucp/core/ucp_context.c", "ucp_context_config_table",
     '{"ADDRESS_VERSION", "v1",', "", 0),
    ("context-num-ppn", "src/ucp/core/ucp_context.c", "ucp_apply_params",
     "context->config.est_num_ppn = UCP_PARAM_FIELD_VALUE(params,", "ESTIMATED_NUM_PPN, 1);", 0),
    ("ib-iface-latency", "src/uct/ib/base/ib_iface.c", "uct_ib_iface_query",
     "case UCT_IB_SPEED_EDR:", "iface_attr->latency.m  = 0;", 0),
    ("mr-relaxed-order", "src/uct/ib/base/ib_md.c", "uct_ib_verbs_mem_reg",
     "access_flags = uct_ib_memh_access_flags(&memh->super, md->relaxed_order,",
     "&memh->mrs[UCT_IB_MR_STRICT_ORDER].ib);", 5),
    ("mr-relaxed-order", "src/uct/ib/base/ib_md.c", "uct_ib_verbs_mem_reg",
     "access_flags = uct_ib_memh_access_flags(&memh->super, relaxed_order,",
     "&memh->mrs[UCT_IB_MR_STRICT_ORDER].ib);", 5),
    ("memh-register-at-use", "src/ucp/dt/datatype_iter.inl", "ucp_datatype_iter_mem_reg_single",
     "if (ucs_likely(ucs_test_all_flags(memh->md_map, md_map)) ||", "status = ucp_memh_register(context, memh", 0),
    ("topo-distance", "src/ucs/sys/topo/base/topo.c", "ucs_topo_update_distance_sysfs",
     "static void ucs_topo_update_distance_sysfs(", "=}", 0),
    ("topo-distance", "src/ucs/sys/topo/base/topo.c", "ucs_topo_get_distance_sysfs",
     "ucs_topo_get_distance_sysfs(ucs_sys_device_t device1,", "=}", 0),
    ("ib-num-paths", "src/uct/ib/base/ib_iface.c", "uct_ib_iface_set_num_paths",
     "static void uct_ib_iface_set_num_paths(", "", 0),
    ("ib-path-bw", "src/uct/ib/base/ib_iface.c", "uct_ib_iface_estimate_path_bw",
     "uct_ib_iface_estimate_path_bw(uct_ib_iface_t *iface,", "", 0),
    ("conf-grace-distance", "config/ucx.conf", "",
     "UCX_DISTANCE_BW=auto,sys:16500MBs", "", 0),
    ("conf-amd-distance", "config/ucx.conf", "",
     "UCX_DISTANCE_BW=auto,sys:5100MBs", "", 0),
]

# NIXL's UCX backend: the config.modify calls of nixlUcxContext::nixlUcxContext, and config::modify itself.
NIXL_CONTEXT = "nixlUcxContext::nixlUcxContext"
NIXL_SITES = []
for _site, _call in [("nixl-rndv-thresh", r'"RNDV_THRESH", "inf"'),
                     ("nixl-rma-rails-4", r'"MAX_RMA_RAILS", "4"'),
                     ("nixl-rma-rails-2", r'"MAX_RMA_RAILS", "2"'),
                     ("nixl-relaxed-ordering", r'"IB_PCI_RELAXED_ORDERING", "try"'),
]:
    for _dir in ("src/plugins/ucx", "src/utils/ucx"):
        NIXL_SITES.append((_site, _dir + "/ucx_utils.cpp", NIXL_CONTEXT, "/config\\.modify ?\\(" + _call + "\\)/", "", 0))
# the call with the UCX version test it sits under: if (ucpVersion_ >= UCP_VERSION(1, 21)) { ... }
NIXL_SITES.append(("nixl-max-hca-per-gpu", "src/plugins/ucx/ucx_utils.cpp", NIXL_CONTEXT,
                   "/if \\(ucpVersion_ >= UCP_VERSION\\(1, 21\\)\\) \\{/", 'config.modify("MAX_HCA_PER_GPU", "auto")', 0))
for _dir in ("src/plugins/ucx", "src/utils/ucx"):
    NIXL_SITES.append(("nixl-net-devices", _dir + "/ucx_utils.cpp", NIXL_CONTEXT,
                       '/config\\.modifyAlways ?\\("NET_DEVICES"/', "", 0))
    NIXL_SITES.append(("nixl-modify-env-first", _dir + "/config.cpp", "config::modify",
                       "/^config::modify ?\\(std::string_view key/", "=}", 0))

# the wheel build's auditwheel step, which copies the UCX libraries into NIXL's wheel (and no ucx.conf)
NIXL_SITES.append(("nixl-wheel-bundles-ucx", "contrib/build-wheel.sh", "", "/auditwheel repair/", "", 0))

RESOURCES = Path(__file__).resolve().parents[2] / "simulator/src/main/resources"
PROJECTS = {
    # sites, table, oldest release read (NIXL's tags carry a 'v' from 1.0.0, UCX's always)
    "ucx": (UCX_SITES, RESOURCES / "ucx-sites.tsv", (1, 12, 0)),
    "nixl": (NIXL_SITES, RESOURCES / "nixl-sites.tsv", (0, 4, 0)),
}


def tags(repo, oldest):
    """Release tags (X.Y.Z or vX.Y.Z, no release candidates) from {oldest} on, oldest first, with their names."""
    out = subprocess.run(["git", "-C", repo, "tag"], capture_output=True, text=True, check=True).stdout.split()
    releases = []
    for t in out:
        if "-" in t:
            continue
        parts = (t[1:] if t.startswith("v") else t).split(".")
        if len(parts) == 3 and all(p.isdigit() for p in parts):
            releases.append((tuple(int(p) for p in parts), t))
    return sorted(r for r in releases if r[0] >= oldest)


def show(repo, tag, path):
    r = subprocess.run(["git", "-C", repo, "show", f"{tag}:{path}"], capture_output=True, text=True)
    return r.stdout.splitlines() if r.returncode == 0 else None


def matches(start, line):
    if len(start) > 1 and start.startswith("/") and start.endswith("/"):
        return re.search(start[1:-1], line) is not None
    return start in line


def find(lines, start, end, extra):
    for i, line in enumerate(lines):
        if matches(start, line):
            if not end:
                return i + 1, i + 1
            for j in range(i, len(lines)):
                if (lines[j] == end[1:]) if end.startswith("=") else (end in lines[j]):
                    return i + 1, j + 1 + extra
            return None
    return None


def table(project, repo):
    sites, _, oldest = PROJECTS[project]
    rows = ["# site\trelease\ttag\tfile\tfirst line\tlast line\tsymbol  (made by tools/code-sites/generate.py "
            "--project " + project + "; do not edit)"]
    done = set()
    releases = tags(repo, oldest)
    for site, path, symbol, start, end, extra in sites:
        for r, tag in releases:
            if (site, tag) in done:
                continue
            lines = show(repo, tag, path)
            if lines is None:
                continue
            span = find(lines, start, end, extra)
            if span:
                done.add((site, tag))
                rows.append("\t".join([site, "%d.%d.%d" % r, tag, path, str(span[0]), str(span[1]), symbol]))
    return "\n".join(rows) + "\n"


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--project", choices=sorted(PROJECTS), default="ucx", help="whose sites (default: ucx)")
    p.add_argument("--repo", required=True, help="a clone of openucx/ucx or ai-dynamo/nixl with its release tags")
    p.add_argument("--check", action="store_true", help="fail when the committed table differs")
    a = p.parse_args()
    text = table(a.project, a.repo)
    path = PROJECTS[a.project][1]
    if a.check:
        if path.read_text() != text:
            sys.exit(f"{path} differs from what {a.repo} gives; run without --check to rewrite it")
        print(f"{path}: matches {a.repo}")
        return
    path.write_text(text)
    print(f"wrote {path} ({text.count(chr(10)) - 1} rows)")


if __name__ == "__main__":
    main()
