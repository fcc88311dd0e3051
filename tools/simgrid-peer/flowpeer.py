#!/usr/bin/python3
"""flowpeer: solve an rdmasim "flow problem" with SimGrid's CM02 flow model.

This is an independent peer for rdmasim's fluid engine: same inputs (links with a
capacity in bytes/s, flows with a start time, a size and a route), computed by a
different code base (SimGrid's lmm max-min solver), so the two can be diffed.

Run it with Debian's interpreter, which sees python3-simgrid:

    /usr/bin/python3 tools/simgrid-peer/flowpeer.py problem.json > result.json
    ... | /usr/bin/python3 tools/simgrid-peer/flowpeer.py - > result.json

Input (JSON):
    {"links": [{"id": "h1:mlx5_0 tx", "bandwidth": 2.5e10}, ...],
     "flows": [{"id": "f0", "start": 0.0, "bytes": 1000000,
                "route": ["h1:mlx5_0 tx", ...], "cap": null}, ...]}
Other top-level keys are ignored.

Output (JSON):
    {"simgrid_version": "3.32.0", "wall_seconds": ..., "build_seconds": ...,
     "run_seconds": ..., "config": [...],
     "flows": [{"id": "f0", "start": 0.0, "finish": 0.04}, ...]}   (input order)

How the problem is mapped onto SimGrid
--------------------------------------
* One StarZone. Each flow gets its own source host whose "up" route is exactly the
  flow's links (plus a private cap link, see below); one shared sink host has an
  empty "down" route. A StarZone keeps one route per host, so building is O(total
  route length), not O(hosts^2) as a FullZone's table would be.
  (StarZone::get_local_route = links_up(src) + links_down(dst); do_seal gives hosts
  without add_route an empty route: simgrid/simgrid src/kernel/routing/StarZone.cpp.)
* Every link is SHARED (the default policy of a CM02 link; we set it explicitly),
  zero latency. A full-duplex NIC is two link ids, one per direction, as in rdmasim.
* A flow's cap is a private link of that bandwidth on its route: in max-min a
  constraint used by one flow only is exactly a rate bound. (Comm.set_rate is not
  an option for host-to-host comms in 3.32: sendto_init leaves the Comm in state
  STARTING and set_rate asserts state INITED, src/s4u/s4u_Comm.cpp.)
* One launcher actor sleeps until each distinct start time and starts that
  instant's flows with Comm.sendto_init/start (no mailboxes, no actor per flow),
  then waits for all of them; finish times are read from Comm.finish_time.

SimGrid configuration (names checked against libsimgrid 3.32's registered flags)
-------------------------------------------------------------------------------
* network/model:CM02 - "Legacy network analytic model ... without corrective
  factors" (docs/source/Configuring_SimGrid.rst, options_model_select). Its
  registration sets latency-factor 1.0, bandwidth-factor 1.0, weight-S 0.0 as
  defaults (src/kernel/resource/models/network_cm02.cpp, SIMGRID_REGISTER_NETWORK_MODEL(CM02));
  we set them explicitly anyway.
* network/weight-S:0 - with weight-S > 0 a flow's sharing penalty becomes
  latency + sum(S / bandwidth) over its route (NetworkCm02Model::communicate), i.e.
  RTT-weighted sharing. 0 keeps the penalty at 1 for zero-latency flows, so the
  solver does unweighted max-min.
* network/TCP-gamma:0 - the TCP window bound gamma / (2 * latency) is only applied
  when latency > 0 and gamma > 0 (NetworkCm02Model::comm_action_set_variable);
  0 disables it (documented default 4194304, Configuring_SimGrid.rst cfg=network/TCP-gamma).
* network/crosstraffic:0 - when on, every flow also consumes 0.05 of its own rate
  on each link of the reverse route (comm_action_expand_constraints); rdmasim has
  no reverse traffic, so it is off ("0 (disable this feature)", cfg=network/crosstraffic).
* maxmin/precision and surf/precision - documented defaults 0.00001
  (Configuring_SimGrid.rst, cfg=maxmin/precision). In the 3.32 solver
  (src/kernel/lmm/maxmin.cpp) a link counts as saturated when its remaining
  capacity is below bound * maxmin/precision (relative) and bound comparisons use
  it as an absolute epsilon in bytes/s; surf/precision is the timing epsilon in
  seconds. We tighten both to 1e-9 by default (--precision).
"""

import argparse
import json
import sys
import time

try:
    import simgrid
    from simgrid import Actor, Comm, Engine, Link, LinkInRoute, NetZone
except ImportError as exc:  # pragma: no cover - depends on the machine
    sys.exit("flowpeer: cannot import simgrid (%s). Use /usr/bin/python3 with Debian's "
             "python3-simgrid installed (tools/simgrid-peer/install.sh)." % exc)


class ProblemError(ValueError):
    pass


def load_problem(obj):
    """Validate the input dict; returns (links, flows) as plain lists."""
    if not isinstance(obj, dict):
        raise ProblemError("top level must be an object")
    links = obj.get("links")
    flows = obj.get("flows")
    if not isinstance(links, list) or not isinstance(flows, list):
        raise ProblemError("'links' and 'flows' must be lists")
    bw = {}
    for i, link in enumerate(links):
        lid = link.get("id")
        b = link.get("bandwidth")
        if not isinstance(lid, str) or lid in bw:
            raise ProblemError("links[%d]: missing or duplicate id %r" % (i, lid))
        if not isinstance(b, (int, float)) or not b > 0:
            raise ProblemError("links[%d] (%s): bandwidth must be > 0 bytes/s" % (i, lid))
        bw[lid] = float(b)
    seen = set()
    for i, f in enumerate(flows):
        fid = f.get("id")
        if fid is None or fid in seen:
            raise ProblemError("flows[%d]: missing or duplicate id %r" % (i, fid))
        seen.add(fid)
        start = f.get("start", 0.0)
        nbytes = f.get("bytes")
        route = f.get("route", [])
        cap = f.get("cap")
        if not isinstance(start, (int, float)) or start < 0:
            raise ProblemError("flows[%d] (%s): start must be >= 0" % (i, fid))
        if not isinstance(nbytes, int) or nbytes < 0:
            raise ProblemError("flows[%d] (%s): bytes must be a non-negative integer" % (i, fid))
        if not isinstance(route, list):
            raise ProblemError("flows[%d] (%s): route must be a list" % (i, fid))
        for lid in route:
            if lid not in bw:
                raise ProblemError("flows[%d] (%s): unknown link %r" % (i, fid, lid))
        if len(set(route)) != len(route):
            # StarZone drops repeated links from a route (add_links_to_route), which would
            # silently halve that link's load for this flow; refuse instead.
            raise ProblemError("flows[%d] (%s): route lists a link twice" % (i, fid))
        if cap is not None and (not isinstance(cap, (int, float)) or not cap > 0):
            raise ProblemError("flows[%d] (%s): cap must be null or > 0 bytes/s" % (i, fid))
        if not route and cap is None and nbytes > 0:
            raise ProblemError("flows[%d] (%s): empty route and no cap: infinite rate" % (i, fid))
    return links, flows


def config_flags(precision, optim):
    return [
        "network/model:CM02",
        "network/latency-factor:1",
        "network/bandwidth-factor:1",
        "network/weight-S:0",
        "network/TCP-gamma:0",
        "network/crosstraffic:0",
        "network/optim:%s" % optim,
        "maxmin/precision:%g" % precision,
        "surf/precision:%g" % precision,
    ]


def solve(problem, precision=1e-9, optim="Lazy", quiet=True):
    """Run SimGrid on a problem dict; returns the result dict.

    Only one problem per process: SimGrid's Engine is a singleton."""
    t0 = time.perf_counter()
    links, flows = load_problem(problem)
    cfg = config_flags(precision, optim)
    argv = ["flowpeer"] + ["--cfg=" + c for c in cfg]
    if quiet:
        argv.append("--log=root.thres:warning")
    engine = Engine(argv)

    zone = NetZone.create_star_zone("flowpeer")
    sink = zone.create_host("sink", 1e9)
    shared = Link.SharingPolicy.SHARED
    link_by_id = {}
    for i, link in enumerate(links):
        sl = zone.create_link("L%d" % i, float(link["bandwidth"]))
        sl.set_sharing_policy(shared, None)
        sl.set_latency(0.0)
        link_by_id[link["id"]] = sl.seal()

    hosts = []
    for i, f in enumerate(flows):
        host = zone.create_host("F%d" % i, 1e9)
        route = [link_by_id[lid] for lid in f.get("route", [])]
        cap = f.get("cap")
        if cap is not None:
            cl = zone.create_link("C%d" % i, float(cap))
            cl.set_sharing_policy(shared, None)
            cl.set_latency(0.0)
            route.append(cl.seal())
        if route:
            zone.add_route(host.netpoint, None, None, None, [LinkInRoute(l) for l in route], False)
        hosts.append(host)
    zone.seal()

    order = sorted(range(len(flows)), key=lambda k: (float(flows[k].get("start", 0.0)), k))
    comms = [None] * len(flows)
    finish = [None] * len(flows)

    def launcher():
        from simgrid import this_actor
        pending = []
        for k in order:
            f = flows[k]
            start = float(f.get("start", 0.0))
            if start > engine.clock:
                this_actor.sleep_until(start)
            if f["bytes"] == 0:
                finish[k] = engine.clock
                continue
            c = Comm.sendto_init(hosts[k], sink)
            c.set_payload_size(int(f["bytes"]))
            c.start()
            comms[k] = c
            pending.append(c)
        if pending:
            Comm.wait_all(pending)

    Actor.create("launcher", sink, launcher)
    t1 = time.perf_counter()
    engine.run()
    t2 = time.perf_counter()

    out_flows = []
    for k, f in enumerate(flows):
        fin = finish[k] if comms[k] is None else comms[k].finish_time
        out_flows.append({"id": f["id"], "start": float(f.get("start", 0.0)), "finish": fin})
    return {
        "simgrid_version": simgrid.simgrid_version,
        "config": cfg,
        "build_seconds": t1 - t0,
        "run_seconds": t2 - t1,
        "wall_seconds": time.perf_counter() - t0,
        "flows": out_flows,
    }


def main(argv=None):
    ap = argparse.ArgumentParser(description="Solve a flow problem with SimGrid CM02 (max-min).")
    ap.add_argument("problem", nargs="?", default="-", help="JSON file, or - for stdin (default)")
    ap.add_argument("-o", "--out", default="-", help="output file, or - for stdout (default)")
    ap.add_argument("--precision", type=float, default=1e-9,
                    help="maxmin/precision and surf/precision (default 1e-9; SimGrid's own default is 1e-5)")
    ap.add_argument("--optim", choices=["Lazy", "Full"], default="Lazy",
                    help="network/optim update algorithm (default Lazy, SimGrid's default)")
    ap.add_argument("--verbose", action="store_true", help="keep SimGrid's info logging on stderr")
    args = ap.parse_args(argv)

    src = sys.stdin if args.problem == "-" else open(args.problem, encoding="utf-8")
    with src:
        problem = json.load(src)
    try:
        result = solve(problem, precision=args.precision, optim=args.optim, quiet=not args.verbose)
    except ProblemError as exc:
        print("flowpeer: invalid problem: %s" % exc, file=sys.stderr)
        return 2
    text = json.dumps(result, indent=1)
    if args.out == "-":
        sys.stdout.write(text + "\n")
    else:
        with open(args.out, "w", encoding="utf-8") as fh:
            fh.write(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
