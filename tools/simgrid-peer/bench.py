#!/usr/bin/python3
"""Synthetic fan-out problems for flowpeer.py, and its wall time on them.

Problem: S sources, each with 4 NIC tx links; R receivers, each with 4 NIC rx links.
Receiver r pulls BYTES from source r % S, striped over 4 lanes (lane j: source tx j ->
receiver rx j, BYTES/4 each). Receivers arrive as a Poisson process. Flows = 4 * R.

    /usr/bin/python3 tools/simgrid-peer/bench.py 1000 4000 16000      # time flowpeer
    /usr/bin/python3 tools/simgrid-peer/bench.py --emit p.json 4000   # write the problem only
"""

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
LANES = 4


def fanout(n_flows, sources=None, seed=1, nic_bw=25e9, nbytes=16_000_000_000, mean_gap=None):
    receivers = max(1, n_flows // LANES)
    sources = sources or max(4, receivers // 16)
    rng = random.Random(seed)
    links = [{"id": "s%d:nic%d tx" % (s, j), "bandwidth": nic_bw} for s in range(sources) for j in range(LANES)]
    links += [{"id": "r%d:nic%d rx" % (r, j), "bandwidth": nic_bw} for r in range(receivers) for j in range(LANES)]
    # Default gap: one pull's solo time (BYTES over 4 NICs) divided by the sources, so the
    # sources stay busy and several pulls overlap on each.
    gap = mean_gap if mean_gap is not None else nbytes / (LANES * nic_bw) / sources
    flows, t = [], 0.0
    lane_bytes = nbytes // LANES
    for r in range(receivers):
        s = r % sources
        for j in range(LANES):
            flows.append({"id": "r%d.lane%d" % (r, j), "start": t, "bytes": lane_bytes,
                          "route": ["s%d:nic%d tx" % (s, j), "r%d:nic%d rx" % (r, j)], "cap": None})
        t += rng.expovariate(1.0 / gap)
    return {"links": links, "flows": flows,
            "meta": {"generator": "bench.py fanout", "sources": sources, "receivers": receivers,
                     "seed": seed, "mean_gap_s": gap}}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("sizes", nargs="+", type=int, help="numbers of flows")
    ap.add_argument("--sources", type=int, default=None, help="default: max(4, receivers/16)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--gap", type=float, default=None,
                    help="mean seconds between receiver arrivals (default: solo pull time / sources)")
    ap.add_argument("--emit", help="write the problem JSON here instead of timing (one size only)")
    ap.add_argument("--precision", default="1e-9")
    args = ap.parse_args()

    if args.emit:
        with open(args.emit, "w", encoding="utf-8") as fh:
            json.dump(fanout(args.sizes[0], args.sources, args.seed, mean_gap=args.gap), fh)
        return 0

    print("%8s %8s %8s %10s %10s %10s %12s %8s" % ("flows", "sources", "recv", "build_s", "run_s",
                                                   "peer_s", "process_s", "makespan"))
    for n in args.sizes:
        prob = fanout(n, args.sources, args.seed, mean_gap=args.gap)
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as fh:
            json.dump(prob, fh)
            path = fh.name
        try:
            t0 = time.perf_counter()
            proc = subprocess.run([sys.executable, os.path.join(HERE, "flowpeer.py"), path,
                                   "--precision", args.precision],
                                  capture_output=True, text=True, check=True)
            elapsed = time.perf_counter() - t0
        finally:
            os.unlink(path)
        res = json.loads(proc.stdout)
        makespan = max(f["finish"] for f in res["flows"])
        meta = prob["meta"]
        print("%8d %8d %8d %10.2f %10.2f %10.2f %12.2f %8.2f" % (
            len(prob["flows"]), meta["sources"], meta["receivers"], res["build_seconds"],
            res["run_seconds"], res["wall_seconds"], elapsed, makespan), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
