#!/usr/bin/python3
"""Writes scenarios/scale/refit-256-to-128.yaml: one RL weight refit posed as a `transfers` list.

32 trainer hosts (DGX H100, 256 GPUs) hold the new weights, each GPU one 1/256 slice; 16 inference
hosts (DGX H100, 128 GPUs) each pull every slice: 128 x 256 = 32,768 transfers of 16 GB / 256 = 62.5 MB,
all posted at once, READ through NIXL 1.1.0's UCX 1.20.0 (two rails per transfer where UCX finds two).
The many-to-many shape of a refit (each receiver reads a slice from each sender), sized as in the issue
"Every workload at cluster scale": time it with `./rdmasim bench --scenario <this file>`. Kept out of
scenarios/*.yaml so `demo` does not run it. Deterministic.

    /usr/bin/python3 tools/scale/refit_list.py
"""

import argparse
import os

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "..", "scenarios", "scale", "refit-256-to-128.yaml")
SENDER_HOSTS = 32
RECEIVER_HOSTS = 16
GPUS = 8
MODEL_BYTES = 16e9


def scenario():
    senders = SENDER_HOSTS * GPUS
    slice_mb = MODEL_BYTES / senders / 1e6
    lines = [
        "# Refit-shaped transfer list, written by tools/scale/refit_list.py (do not edit by hand):",
        "# %d trainer GPUs (%d DGX H100) each hold a 1/%d slice of a 16 GB model; %d inference GPUs (%d DGX H100)"
        % (senders, SENDER_HOSTS, senders, RECEIVER_HOSTS * GPUS, RECEIVER_HOSTS),
        "# each pull every slice: %d transfers of %.1f MB, all at once, READ through NIXL 1.1.0 / UCX 1.20.0."
        % (senders * RECEIVER_HOSTS * GPUS, slice_mb),
        "# Question: how fast does the many-to-many path answer at refit size? Time it with",
        "# `./rdmasim bench --scenario <this file>`. Kept out of scenarios/*.yaml so `demo` does not run it.",
        "name: refit-256-to-128",
        "seed: 1",
        "hosts:",
        "  trainers: {preset: dgx-h100, count: %d, prefix: t}" % SENDER_HOSTS,
        "  inference: {preset: dgx-h100, count: %d, prefix: i}" % RECEIVER_HOSTS,
        "transport:",
        "  operation: read",
        '  nixl: "1.1.0"',
        '  ucx: "1.20.0"',
        "workload:",
        "  transfers:",
    ]
    for rh in range(RECEIVER_HOSTS):
        for rg in range(GPUS):
            for sh in range(SENDER_HOSTS):
                for sg in range(GPUS):
                    lines.append('    - {from: "t%d:GPU%d", to: "i%d:GPU%d", size: %.1f MB}' % (sh, sg, rh, rg, slice_mb))
    lines += ["variants:", "  - name: refit"]
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     epilog="Writes the list and prints its path.")
    parser.add_argument("--out", metavar="FILE", default=OUT,
                        help="file to write (default: scenarios/scale/refit-256-to-128.yaml)")
    args = parser.parse_args()
    with open(args.out, "w", encoding="utf-8") as f:
        f.write(scenario())
    print(args.out)


if __name__ == "__main__":
    main()
