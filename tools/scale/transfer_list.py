#!/usr/bin/python3
"""Writes scenarios/scale/transfers-N.yaml: a staggered fan-out posed as a `transfers` list.

N receivers (generic hosts: one socket, four GPUs, one NIC per GPU) each get one 16 GB transfer
from source r % 4, host memory (CPU0) to host memory, over four explicit lanes (mlx5_0..mlx5_3 on
both sides), starting at Poisson times. Mean gap: one transfer's solo time over four 400 Gbps lanes,
divided by the four sources and by an offered load of 1.2, as `bench --peer` poses fan-outs, so a
backlog builds and thousands of transfers overlap by the end. Hosts use calibration profile
`generic` and the protocol costs are zero: the flow problem is the one tools/simgrid-peer/bench.py
poses with `--sources 4` (4*N flows). Deterministic for a given N and seed.

    /usr/bin/python3 tools/scale/transfer_list.py 1024 4096
    /usr/bin/python3 tools/scale/transfer_list.py 65536 --out /tmp
"""

import argparse
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "..", "scenarios", "scale")
SOURCES = 4
LANES = 4
BYTES = 16e9
LANE_BPS = 400e9 / 8
LOAD = 1.2


def scenario(n, seed=1):
    gap = BYTES / (LANES * LANE_BPS) / (SOURCES * LOAD)
    rng = random.Random(seed)
    lines = [
        "# Cluster-scale transfer list, written by tools/scale/transfer_list.py %d (do not edit by hand):" % n,
        "# %d receivers (generic hosts: one socket, four GPUs, one 400G NIC per GPU) are each sent one 16 GB transfer" % n,
        "# from one of 4 sources (receiver r from source r mod 4) over 4 explicit lanes, starting at Poisson",
        "# times (mean gap %.4f s: one transfer's solo time over 4 lanes, divided by the 4 sources and by an" % gap,
        "# offered load of 1.2, so a backlog builds and thousands of transfers overlap by the end).",
        "# Profile 'generic' and zero protocol costs: the same flow problem as tools/simgrid-peer/bench.py",
        "# --sources 4. Question: does the transfer-list path answer at this size as fast as the fan-out?",
        "# Time it with `./rdmasim bench --scenario <this file>`. Kept out of scenarios/*.yaml so `demo`",
        "# does not run it.",
        "name: transfers-%d" % n,
        "seed: %d" % seed,
        "hosts:",
        "  sources: {preset: generic, profile: generic, count: %d, prefix: s," % SOURCES,
        "            generic: {sockets: 1, gpusPerSocket: 4, nicsPerGpu: 1}, lineRate: 400 Gbps}",
        "  receivers: {preset: generic, profile: generic, count: %d, prefix: r," % n,
        "              generic: {sockets: 1, gpusPerSocket: 4, nicsPerGpu: 1}, lineRate: 400 Gbps}",
        "protocol: {nicLatency: 0 s, pcieHop: 0 s, perDescriptor: 0 s, perFragment: 0 s}",
        "transport:",
        "  operation: write",
        "  lanes:",
    ]
    for j in range(LANES):
        lines.append("    - {source: mlx5_%d, sink: mlx5_%d}" % (j, j))
    lines += ["workload:", "  transfers:"]
    t = 0.0
    for r in range(n):
        lines.append('    - {from: "s%d:CPU0", to: "r%d:CPU0", size: 16 GB, at: %.9f s}' % (r % SOURCES, r, t))
        t += rng.expovariate(1.0 / gap)
    lines += ["variants:", "  - name: list"]
    return "\n".join(lines) + "\n"


def positive_count(text):
    """A receiver count: a whole number from 1 up."""
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n < 1:
        raise argparse.ArgumentTypeError("expected a number of receivers from 1 up, got '%s'" % text)
    return n


def main():
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        epilog="Writes DIR/transfers-N.yaml for each N and prints its path.")
    parser.add_argument("counts", metavar="N", nargs="*", type=positive_count, default=[1024, 4096],
                        help="receivers in a list (default: 1024 4096)")
    parser.add_argument("--out", metavar="DIR", default=OUT,
                        help="folder the lists are written to (default: scenarios/scale)")
    args = parser.parse_args()
    if not os.path.isdir(args.out):
        parser.error("--out %s: no such folder" % args.out)
    for n in args.counts:
        path = os.path.join(args.out, "transfers-%d.yaml" % n)
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(scenario(n))
        print(path)


if __name__ == "__main__":
    main()
