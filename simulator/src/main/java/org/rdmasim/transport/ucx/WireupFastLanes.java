package org.rdmasim.transport.ucx;

import java.util.List;
import org.rdmasim.transport.citation.Citation;
import org.rdmasim.transport.config.StackVersion;
import org.rdmasim.transport.config.UcxSite;

/**
 * UCX's fast-lane filter at wireup: once {@link BwLanePairing} has wired the bandwidth lanes of an endpoint, a lane
 * whose bandwidth is below {@code 1 / UCX_MULTI_LANE_MAX_RATIO} of the fastest wired lane's is not added to the
 * endpoint at all ({@code ucp_wireup_add_fast_lanes_pairwise}, openucx/ucx {@code src/ucp/wireup/select.c}; named
 * {@code ucp_wireup_add_fast_lanes} from v1.14.1, where it first appears, to v1.18.1; the same loop in every release
 * to v1.22.0). A lane's bandwidth there is {@code ucp_wireup_get_lane_bw}: the lesser of the local interface's
 * bandwidth capped by its distance ({@code ucp_wireup_iface_bw_distance}) and the remote one as its version-1 worker
 * address carries it, which is {@link BwLanePairing.Device#bandwidth} on both sides, with no path share and no
 * 8-bit packing. The ratio is the initiating process's {@code UCX_MULTI_LANE_MAX_RATIO} (4 in every release read).
 *
 * <p>This runs before any buffer exists, over every wired lane; the protocol's own ratio filter
 * ({@code ucp_proto_multi_init}, {@link UcxLaneSelection}) runs later over the lanes a buffer's rkey leaves, with the
 * protocol's estimate (8-bit packed distance, an XDR GET's lowered interface). A lane this filter drops never reaches
 * the protocol, so rdmasim gives it its own verdict, {@link LaneVerdict#DROPPED_AT_WIREUP}.
 *
 * <p>What it leaves out: a remote release before v1.17 ({@code dst_version < 17}) makes UCX rate the local side
 * without its distance; rdmasim's pairing does not model that either. {@code UCX_CONNECT_ALL_TO_ALL=y} (v1.19.0 on,
 * off by default) adds all-to-all lanes for non-host memory with a filter of its own that stops at the first slow
 * lane ({@code ucp_wireup_add_fast_lanes_a2a}); rdmasim does not accept that variable. v1.18.x also caps the lanes
 * wired to those an endpoint already has when it is reconfigured without a connection manager
 * ({@code ucp_wireup_get_current_num_lanes}); rdmasim poses a fresh endpoint, where the cap is the full lane count.
 *
 * @param inForce whether the initiator's release has the filter (v1.14.1 on)
 * @param ratio   {@code UCX_MULTI_LANE_MAX_RATIO}
 * @param best    bytes per second of the fastest wired lane
 * @param wired   every wired lane, in wiring order, with the bandwidth the filter compares
 */
public record WireupFastLanes(boolean inForce, double ratio, double best, List<Rated> wired) {
    /** The first UCX with the filter (openucx/ucx c34529db4d, "UCP/WIREUP: Filter slow lanes in selection process"). */
    static final StackVersion FIRST_RELEASE = new StackVersion(1, 14, 1);

    /** One wired lane and {@code ucp_wireup_get_lane_bw} for it, bytes per second. */
    public record Rated(BwLanePairing.Wire wire, double bandwidth) {
    }

    public WireupFastLanes {
        wired = List.copyOf(wired);
    }

    /** The filter over {@code wires}, as the initiator's release {@code ucx} runs it. */
    static WireupFastLanes over(List<BwLanePairing.Wire> wires, List<BwLanePairing.Device> local,
            List<BwLanePairing.Device> remote, double ratio, StackVersion ucx) {
        java.util.Map<String, BwLanePairing.Device> l = new java.util.HashMap<>();
        java.util.Map<String, BwLanePairing.Device> r = new java.util.HashMap<>();
        local.forEach(d -> l.put(d.nic(), d));
        remote.forEach(d -> r.put(d.nic(), d));
        List<Rated> rated = wires.stream()
                .map(w -> new Rated(w, laneBandwidth(l.get(w.localNic()), r.get(w.remoteNic())))).toList();
        double best = rated.stream().mapToDouble(Rated::bandwidth).max().orElse(0);
        return new WireupFastLanes(ucx.atLeast(FIRST_RELEASE), ratio, best, rated);
    }

    /** {@code ucp_wireup_get_lane_bw}: the lesser of the two sides' bandwidths, no path share. */
    static double laneBandwidth(BwLanePairing.Device local, BwLanePairing.Device remote) {
        return Math.min(local.bandwidth(), remote.bandwidth());
    }

    /** The bandwidth a lane must reach to be kept: {@code max_bw * (1 / multi_lane_max_ratio)}. */
    public double threshold() {
        return best * (1.0 / ratio);
    }

    /** {@code if (lane_bw < (max_bw * max_ratio))}: the lanes never added to the endpoint, in wiring order. */
    public List<Rated> dropped() {
        return inForce ? wired.stream().filter(w -> w.bandwidth() < threshold()).toList() : List.of();
    }

    /** Whether the filter drops the lane on the initiator's {@code nic} path {@code path}. */
    public boolean drops(String nic, int path) {
        return dropped().stream().anyMatch(w -> w.wire().localNic().equals(nic) && w.wire().localPath() == path);
    }

    /** The filter, the bandwidth it compares, and the ratio's default, at {@code ucx}. */
    public static List<Citation> sources(StackVersion ucx) {
        return List.of(UcxSite.WIREUP_FAST_LANES.cite(ucx), UcxSite.WIREUP_LANE_BW.cite(ucx),
                UcxSite.CONF_MULTI_LANE_MAX_RATIO.cite(ucx));
    }
}
