#!/usr/bin/python3
"""Java-independent sanity tests for flowpeer.py.

Each case runs flowpeer.py in its own process (SimGrid's Engine is a singleton)
and compares finish times with values worked out by hand, or, for the random
cases, with a small reference max-min fluid simulator written here.

    /usr/bin/python3 tools/simgrid-peer/selftest.py      # exit 0 = all passed
    /usr/bin/python3 tools/simgrid-peer/selftest.py --precision 1e-5   # extra flowpeer args
"""

import json
import os
import random
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
FLOWPEER = os.path.join(HERE, "flowpeer.py")
REL_TOL = 1e-6

failures = []


EXTRA_ARGS = []  # e.g. ["--precision", "1e-5"] to see SimGrid's default epsilon


def run_peer(problem, *extra):
    proc = subprocess.run([sys.executable, FLOWPEER, "-", *EXTRA_ARGS, *extra], input=json.dumps(problem),
                          capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise RuntimeError("flowpeer failed (%d): %s" % (proc.returncode, proc.stderr))
    res = json.loads(proc.stdout)
    return {f["id"]: f["finish"] for f in res["flows"]}


def check(name, got, expected):
    bad = []
    worst = 0.0
    for fid, want in expected.items():
        have = got.get(fid)
        err = float("inf") if have is None else abs(have - want) / max(abs(want), 1e-12)
        worst = max(worst, err)
        if err > REL_TOL:
            bad.append("%s: got %r, expected %r" % (fid, have, want))
    status = "ok  " if not bad else "FAIL"
    print("%s %s (worst relative error %.1e)" % (status, name, worst))
    for line in bad:
        print("       " + line)
    if bad:
        failures.append(name)


def flow(fid, route, nbytes, start=0.0, cap=None):
    return {"id": fid, "start": start, "bytes": nbytes, "route": route, "cap": cap}


# ---------------------------------------------------------------- hand-computed cases

def case_equal_share():
    # n flows of b bytes on one link of capacity C, all at t=0: each gets C/n and all
    # finish together at n*b/C.
    n, b, c = 7, 3_000_000_000, 25e9  # 200 Gb/s NIC, 3 GB each
    prob = {"links": [{"id": "L", "bandwidth": c}],
            "flows": [flow("f%d" % i, ["L"], b) for i in range(n)]}
    check("n equal flows on one link: n*b/C", run_peer(prob), {"f%d" % i: n * b / c for i in range(n)})


def case_two_bottlenecks():
    # A=10, B=30 bytes/s; f1 on A, f2 on A+B, f3 on B; 1000 bytes each.
    # A is the tightest link: f1 = f2 = 10/2 = 5. f3 takes what is left of B: 30-5 = 25.
    # f3 finishes at 1000/25 = 40 s. f1 and f2 have sent 200 each by then and A still
    # limits them to 5 each: 800/5 = 160 s more, so they finish at 200 s.
    prob = {"links": [{"id": "A", "bandwidth": 10}, {"id": "B", "bandwidth": 30}],
            "flows": [flow("f1", ["A"], 1000), flow("f2", ["A", "B"], 1000), flow("f3", ["B"], 1000)]}
    check("two bottlenecks (A=10, B=30)", run_peer(prob), {"f1": 200.0, "f2": 200.0, "f3": 40.0})


def case_staggered():
    # C=100. f1 (1000 B) alone on [0,5): 500 sent. f2 (250 B) arrives at 5: 50 each,
    # f2 done at 5 + 250/50 = 10; f1 sent 250 more, its last 250 at 100 B/s: 12.5.
    prob = {"links": [{"id": "L", "bandwidth": 100}],
            "flows": [flow("f1", ["L"], 1000), flow("f2", ["L"], 250, start=5.0)]}
    check("staggered arrival", run_peer(prob), {"f1": 12.5, "f2": 10.0})


def case_cap():
    # C=100. f1 capped at 20 with 200 B: 10 s. f2 uncapped gets 80 while f1 runs
    # (800 B by t=10), then 100: its last 400 B take 4 s, done at 14.
    prob = {"links": [{"id": "L", "bandwidth": 100}],
            "flows": [flow("f1", ["L"], 200, cap=20), flow("f2", ["L"], 1200)]}
    check("per-flow cap", run_peer(prob), {"f1": 10.0, "f2": 14.0})


def case_striped_nics():
    # One sender with 4 tx lanes of 25e9 B/s, two receivers with 2 rx lanes each of
    # 12.5e9 B/s. Receiver r pulls 8e9 B split in 2 lanes of 4e9; each lane crosses one
    # sender tx and one receiver rx. The rx lanes (12.5e9) are the bottleneck: each lane
    # finishes at 4e9/12.5e9 = 0.32 s.
    links = [{"id": "s:tx%d" % i, "bandwidth": 25e9} for i in range(4)]
    links += [{"id": "r%d:rx%d" % (r, j), "bandwidth": 12.5e9} for r in range(2) for j in range(2)]
    flows = [flow("r%d.%d" % (r, j), ["s:tx%d" % (2 * r + j), "r%d:rx%d" % (r, j)], 4_000_000_000)
             for r in range(2) for j in range(2)]
    check("striped lanes, rx-bound", run_peer({"links": links, "flows": flows}),
          {f["id"]: 0.32 for f in flows})


def case_close_events():
    # Timing resolution. C=25e9. f1 = 2.5e6 B and f2 = 2.6e6 B share the link at
    # 12.5e9 each; f1 ends at 2e-4 s, f2's last 1e5 B go at 25e9: 2e-4 + 4e-6 = 2.04e-4.
    # f3 (1000 B) starts at 1 ms, f4 (1000 B) 1 ns later. f3 sends 25 B alone, then
    # both share: f3 ends after 975/12.5e9 = 78 ns more (1 ms + 79 ns); f4 has 25 B
    # left and ends 1 ns later (1 ms + 80 ns).
    # With SimGrid's default surf/precision (1e-5 s) f2 is finished early at 2e-4 and
    # f4 starts late, at f3's finish: this case fails with --precision 1e-5.
    prob = {"links": [{"id": "L", "bandwidth": 25e9}],
            "flows": [flow("f1", ["L"], 2_500_000), flow("f2", ["L"], 2_600_000),
                      flow("f3", ["L"], 1000, start=0.001), flow("f4", ["L"], 1000, start=0.001000001)]}
    check("events microseconds and nanoseconds apart", run_peer(prob),
          {"f1": 2e-4, "f2": 2.04e-4, "f3": 0.001 + 1e-9 + 975 / 12.5e9, "f4": 0.001 + 2e-9 + 1950 / 25e9})


# ---------------------------------------------------------------- reference simulator

def maxmin_rates(active, routes, caps, bw):
    """Progressive filling: unweighted max-min rates for the active flows."""
    rate = {}
    remaining = dict(bw)
    users = {}
    for f in active:
        for l in routes[f]:
            users.setdefault(l, set()).add(f)
    unfixed = set(active)
    while unfixed:
        best, best_link = None, None
        for l, us in users.items():
            live = us & unfixed
            if live:
                share = remaining[l] / len(live)
                if best is None or share < best:
                    best, best_link = share, l
        cap_f = min((f for f in unfixed if caps[f] is not None), key=lambda f: caps[f], default=None)
        if cap_f is not None and (best is None or caps[cap_f] < best):
            fixed, value = {cap_f}, caps[cap_f]
        else:
            fixed, value = users[best_link] & unfixed, best
        for f in fixed:
            rate[f] = value
            for l in routes[f]:
                remaining[l] -= value
        unfixed -= fixed
    return rate


def reference(problem):
    bw = {l["id"]: float(l["bandwidth"]) for l in problem["links"]}
    flows = problem["flows"]
    routes = {f["id"]: f["route"] for f in flows}
    caps = {f["id"]: f.get("cap") for f in flows}
    left = {f["id"]: float(f["bytes"]) for f in flows}
    pending = sorted(flows, key=lambda f: f["start"])
    active, finish, now = set(), {}, 0.0
    while pending or active:
        while pending and pending[0]["start"] <= now:
            active.add(pending.pop(0)["id"])
        rates = maxmin_rates(active, routes, caps, bw)
        t_next = pending[0]["start"] if pending else float("inf")
        dt_done = min((left[f] / rates[f] for f in active), default=float("inf"))
        dt = min(t_next - now, dt_done)
        for f in list(active):
            left[f] -= rates[f] * dt
            if left[f] <= 1e-9 * (1 + rates[f]):
                finish[f] = now + dt
                active.discard(f)
        now += dt
    return finish


def case_random(seed):
    rng = random.Random(seed)
    links = [{"id": "l%d" % i, "bandwidth": rng.choice([12.5e9, 25e9, 50e9])} for i in range(6)]
    flows = []
    for i in range(25):
        route = rng.sample([l["id"] for l in links], rng.randint(1, 3))
        cap = rng.choice([None, None, None, 5e9])
        flows.append(flow("f%d" % i, route, rng.randint(1, 40) * 250_000_000,
                          start=round(rng.uniform(0, 2), 3), cap=cap))
    prob = {"links": links, "flows": flows}
    check("random problem seed %d vs reference max-min" % seed, run_peer(prob), reference(prob))


if __name__ == "__main__":
    EXTRA_ARGS.extend(sys.argv[1:])
    case_equal_share()
    case_two_bottlenecks()
    case_staggered()
    case_cap()
    case_striped_nics()
    case_close_events()
    for s in (1, 2, 3):
        case_random(s)
    if failures:
        print("%d case(s) failed" % len(failures))
        sys.exit(1)
    print("all cases passed")
