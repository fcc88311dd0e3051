#!/usr/bin/env python3
"""Finds, at every UCX release tag, the lines rdmasim cites for a UCX decision, and writes them to
simulator/src/main/resources/ucx-sites.tsv (or, with --check, fails when the committed table differs).

Each site is found by the text of its code, not by a line number, so a release that moved the code is
cited where the code is at that release, and a release without that code has no row (rdmasim then cites
the nearest release that has it and says so). Needs a clone of openucx/ucx with its tags:
    tools/ucx-sites/generate.py --repo /path/to/ucx [--check]
"""
import argparse
import subprocess
import sys
from pathlib import Path

# id, file, symbol, start text, end text (searched from the start line on; '' = the start line only; '=}' = the
# first line that is exactly '}', a function's end), lines after the end text's line to take in as well.
# A site may be listed more than once with other text: the first form found at a release is taken (the
# sysfs distance was ucs_topo_get_distance_sysfs before v1.20.0).
SITES = [
    ("lane-picked", "src/ucp/proto/proto_multi.c", "ucp_proto_multi_select_bw_lanes",
     "i < ucs_min(max_lanes, num_lanes); ++i)", "ucp_proto_select_add_lane(selection, params, lanes[lane_index]);", 0),
    ("lane-rail-limit", "src/ucp/proto/proto_multi.c", "ucp_proto_multi_select_bw_lanes",
     "i < ucs_min(max_lanes, num_lanes); ++i)", "", 0),
    ("lane-ratio-drop", "src/ucp/proto/proto_multi.c", "ucp_proto_multi_init",
     "if ((lane_perf->bandwidth * max_bw_ratio) < max_bandwidth)", "", 0),
    ("lane-not-in-rkey", "src/ucp/proto/proto_common.c", "ucp_proto_common_find_lanes",
     "if (((md_attr->flags & UCT_MD_FLAG_NEED_RKEY) ||", "continue;", 0),
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

TABLE = Path(__file__).resolve().parents[2] / "simulator/src/main/resources/ucx-sites.tsv"


def tags(repo):
    out = subprocess.run(["git", "-C", repo, "tag"], capture_output=True, text=True, check=True).stdout.split()
    releases = []
    for t in out:
        if not t.startswith("v") or "-" in t:
            continue
        parts = t[1:].split(".")
        if len(parts) == 3 and all(p.isdigit() for p in parts):
            releases.append(tuple(int(p) for p in parts))
    return sorted(r for r in releases if r >= (1, 12, 0))


def show(repo, tag, path):
    r = subprocess.run(["git", "-C", repo, "show", f"{tag}:{path}"], capture_output=True, text=True)
    return r.stdout.splitlines() if r.returncode == 0 else None


def find(lines, start, end, extra):
    for i, line in enumerate(lines):
        if start in line:
            if not end:
                return i + 1, i + 1
            for j in range(i, len(lines)):
                if (lines[j] == end[1:]) if end.startswith("=") else (end in lines[j]):
                    return i + 1, j + 1 + extra
            return None
    return None


def table(repo):
    rows = ["# site\trelease\tfile\tfirst line\tlast line\tsymbol  (made by tools/ucx-sites/generate.py; do not edit)"]
    done = set()
    for site, path, symbol, start, end, extra in SITES:
        for r in tags(repo):
            tag = "v%d.%d.%d" % r
            if (site, tag) in done:
                continue
            lines = show(repo, tag, path)
            if lines is None:
                continue
            span = find(lines, start, end, extra)
            if span:
                done.add((site, tag))
                rows.append("\t".join([site, tag[1:], path, str(span[0]), str(span[1]), symbol]))
    return "\n".join(rows) + "\n"


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--repo", required=True, help="a clone of openucx/ucx with its release tags")
    p.add_argument("--check", action="store_true", help="fail when the committed table differs")
    a = p.parse_args()
    text = table(a.repo)
    if a.check:
        if TABLE.read_text() != text:
            sys.exit(f"{TABLE} differs from what {a.repo} gives; run without --check to rewrite it")
        print(f"{TABLE}: matches {a.repo}")
        return
    TABLE.write_text(text)
    print(f"wrote {TABLE} ({text.count(chr(10)) - 1} rows)")


if __name__ == "__main__":
    main()
