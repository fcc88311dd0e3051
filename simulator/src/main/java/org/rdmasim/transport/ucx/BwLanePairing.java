package org.rdmasim.transport.ucx;

import java.util.ArrayList;
import java.util.List;
import org.rdmasim.transport.citation.Citation;
import org.rdmasim.transport.config.StackVersion;
import org.rdmasim.transport.config.UcxSite;

/**
 * Which remote HCA each bandwidth lane is wired to, decided as UCX's wireup decides it when the endpoint is made
 * ({@code ucp_wireup_add_bw_lanes_pairwise}, openucx/ucx {@code src/ucp/wireup/select.c}; the same rule in every
 * release from v1.18.0 to v1.22.0, where v1.18.0 names the function {@code ucp_wireup_add_bw_lanes}):
 * <ol>
 *   <li>one lane at a time, every (local HCA, remote HCA) pair that both still have a path left is scored and the
 *       best is wired; local HCAs are tried in resource order, remote ones in the order of the remote worker
 *       address, and a later pair replaces the best only when its score is higher beyond UCX's tolerance
 *       ({@code ucp_wireup_select_transport}; {@code ucp_score_prio_cmp}: scores within
 *       {@code (s1 + s2) x 1e-6} are equal, then the interface priority, equal for every mlx5 HCA), so a tie goes
 *       to the first local HCA, then the first remote one;</li>
 *   <li>the score is {@code 1 / (256 KiB / avail + latency + overhead + registration cost)}
 *       ({@code ucp_wireup_rma_bw_score_func}); {@code avail} is {@code min(a, b) + 0.001 x (a + b)}
 *       ({@code ucp_wireup_iface_avail_bandwidth}) where {@code a} and {@code b} are the local and remote
 *       bandwidths, each the interface bandwidth capped by the HCA's distance to the process's GPU
 *       ({@code ucp_wireup_iface_bw_distance}; the remote one as packed in its worker address), times
 *       {@code 1 - path index / paths} ({@code ucp_tl_iface_bandwidth_ratio}, {@code UCX_MULTI_PATH_RATIO=auto}),
 *       the path index counting that HCA's lanes already wired; the latency is the mean of the two sides'
 *       interface latency plus distance latency ({@code ucp_wireup_tl_iface_latency});</li>
 *   <li>an HCA leaves the pool once each of its paths carries a lane ({@code dev_count.local},
 *       {@code dev_count.remote} against {@code dev_num_paths}); wiring stops when no pair is left (or at 64
 *       lanes, {@code UCP_MAX_LANES}, more than any host here has paths).</li>
 * </ol>
 * Wireup then leaves out of the endpoint every wired lane below {@code 1 / UCX_MULTI_LANE_MAX_RATIO} of the
 * fastest ({@link WireupFastLanes}); the pairing itself is done before that filter and does not change with it.
 * The {@code 0.001 x (a + b)} term makes a fresh pair beat a second path of a busy HCA of equal rating: with equal
 * HCAs on both sides the i-th HCA takes the i-th remote one, and when one side has fewer HCAs their paths are
 * spread over as many HCAs of the other side as they have paths, not doubled up on the first.
 *
 * <p>What differs between the releases does not move the pairing: v1.18.0 runs the same loop in
 * {@code ucp_wireup_add_bw_lanes} and adds to the latency a per-endpoint slope, 0 for IB; v1.19.0 adds
 * {@code UCX_CONNECT_ALL_TO_ALL} (off by default), which scores every path as a first one; v1.21.0 compares scores
 * with {@code ucs_fp_compare}, the same 1e-6 tolerance; v1.22.0 adds a second-pass tie-break for the AM and
 * keepalive lanes only (bandwidth lanes have none). Releases before v1.18.0 were not read line by line; v1.15.0 to
 * v1.17.0 compute {@code avail_bw} the same way (v1.17.0 adds the skip counters), and rdmasim applies this rule to
 * them too.
 *
 * <p>Left out, being the same for every pair: the interface latency (600 ns for EDR to XDR ports, 200 ns more on
 * RoCE, {@code uct_ib_iface_query}), the send overhead and the registration cost. They only move a pair whose
 * score is within UCX's 1e-6 tolerance of another's, which rdmasim's hardware (equal or clearly different HCAs)
 * does not produce.
 */
public final class BwLanePairing {
    /** {@code UCP_WIREUP_RMA_BW_TEST_MSG_SIZE}: the message the score times. */
    static final double TEST_MESSAGE_BYTES = 262144;
    /** The share of both bandwidths {@code ucp_wireup_iface_avail_bandwidth} adds to the lesser ({@code eps}). */
    static final double AVAIL_BW_EPS = 1e-3;
    /** {@code ucp_calc_epsilon} (v1.18.0-v1.20.0), {@code ucs_fp_compare_thresh} (v1.21.0 on). */
    static final double SCORE_TOLERANCE = 1e-6;
    /** The floor of {@code ucp_tl_iface_bandwidth_ratio}. */
    static final double MIN_PATH_SHARE = 1e-5;

    /**
     * An HCA as the wireup score sees it.
     *
     * @param bandwidth      bytes per second: interface bandwidth capped by the distance to the process's GPU
     * @param latencySeconds the distance latency to that GPU (the interface latency, equal for all, left out)
     * @param paths          {@code dev_num_paths}
     */
    public record Device(String nic, double bandwidth, double latencySeconds, int paths) {
        public Device {
            if (paths < 1) {
                throw new IllegalArgumentException(nic + ": an HCA opens at least one path, got " + paths);
            }
        }
    }

    /** One wired lane: a local HCA's path and the remote HCA's path it reaches. */
    public record Wire(String localNic, int localPath, String remoteNic, int remotePath, double score) {
    }

    /** The rules above, cited at {@code ucx}. */
    public static List<Citation> sources(StackVersion ucx) {
        return List.of(UcxSite.WIREUP_BW_LANES_PAIRWISE.cite(ucx), UcxSite.WIREUP_BEST_PAIR.cite(ucx),
                UcxSite.WIREUP_SCORE_CMP.cite(ucx), UcxSite.WIREUP_SCORE_EPSILON.cite(ucx),
                UcxSite.WIREUP_RMA_BW_SCORE.cite(ucx), UcxSite.WIREUP_AVAIL_BW.cite(ucx),
                UcxSite.WIREUP_PATH_BW_RATIO.cite(ucx), UcxSite.WIREUP_LATENCY.cite(ucx),
                UcxSite.WIREUP_BW_DISTANCE.cite(ucx));
    }

    /** Where the assumptions of {@link UcxLaneSelection#PEER_PAIRING_ASSUMPTIONS} meet UCX's code. */
    public static List<Citation> assumptionSources(StackVersion ucx) {
        return List.of(UcxSite.WORKER_IFACE_DISTANCE.cite(ucx), UcxSite.CONF_SELECT_DISTANCE_MD.cite(ucx),
                UcxSite.CONF_ADDRESS_VERSION.cite(ucx), UcxSite.ADDRESS_V1_BW.cite(ucx),
                UcxSite.CONTEXT_NUM_PPN.cite(ucx), UcxSite.IB_IFACE_LATENCY.cite(ucx));
    }

    private BwLanePairing() {
    }

    /**
     * The lanes UCX wires, in the order it wires them.
     *
     * @param local  the initiator's HCAs in its resource order
     * @param remote the remote HCAs in the order of its worker address
     */
    public static List<Wire> pair(List<Device> local, List<Device> remote) {
        int[] usedLocal = new int[local.size()];
        int[] usedRemote = new int[remote.size()];
        List<Wire> out = new ArrayList<>();
        while (true) {
            int bestL = -1;
            int bestR = -1;
            double best = 0;
            for (int i = 0; i < local.size(); i++) {
                if (usedLocal[i] >= local.get(i).paths()) {
                    continue;
                }
                for (int j = 0; j < remote.size(); j++) {
                    if (usedRemote[j] >= remote.get(j).paths()) {
                        continue;
                    }
                    double s = score(local.get(i), usedLocal[i], remote.get(j), usedRemote[j]);
                    if (bestL < 0 || compare(s, best) > 0) {
                        bestL = i;
                        bestR = j;
                        best = s;
                    }
                }
            }
            if (bestL < 0) {
                return out;
            }
            out.add(new Wire(local.get(bestL).nic(), usedLocal[bestL], remote.get(bestR).nic(), usedRemote[bestR], best));
            usedLocal[bestL]++;
            usedRemote[bestR]++;
        }
    }

    /** {@code ucp_tl_iface_bandwidth_ratio} with {@code UCX_MULTI_PATH_RATIO=auto}. */
    static double pathShare(int pathIndex, int paths) {
        return Math.max(MIN_PATH_SHARE, 1.0 - (double) pathIndex / paths);
    }

    /** {@code ucp_wireup_iface_avail_bandwidth} for the pair's next paths. */
    static double availableBandwidth(Device local, int localPath, Device remote, int remotePath) {
        double a = local.bandwidth() * pathShare(localPath, local.paths());
        double b = remote.bandwidth() * pathShare(remotePath, remote.paths());
        return Math.min(a, b) + AVAIL_BW_EPS * (a + b);
    }

    /** {@code ucp_wireup_rma_bw_score_func} without the terms equal for every pair. */
    static double score(Device local, int localPath, Device remote, int remotePath) {
        return 1.0 / (TEST_MESSAGE_BYTES / availableBandwidth(local, localPath, remote, remotePath)
                + (local.latencySeconds() + remote.latencySeconds()) / 2);
    }

    /** {@code ucp_score_cmp}: 0 within the tolerance, else the sign of the difference. */
    static int compare(double s1, double s2) {
        double diff = s1 - s2;
        return Math.abs(diff) < (s1 + s2) * SCORE_TOLERANCE ? 0 : (int) Math.signum(diff);
    }

    /**
     * The bandwidth a remote HCA's entry carries in a version-1 worker address ({@code UCX_ADDRESS_VERSION=v1},
     * the default): a 32-bit float.
     */
    static double packedV1(double bandwidth) {
        return (float) bandwidth;
    }
}
