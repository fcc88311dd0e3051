package org.rdmasim.transport.ucx;

import java.util.List;
import org.rdmasim.transport.LaneSplit;
import org.rdmasim.transport.config.EffectiveConfig;

/**
 * Why a transfer got its lanes: the initiator's effective configuration, every candidate HCA on both
 * sides with UCX's estimate, every (device, path) lane with its verdict, the rail limit in force, and
 * the weighted lanes that came out.
 *
 * @param registeredAtFirstUse the initiator's HCAs that carry a picked lane though its own buffer is not
 *                             registered there: UCX registers the missing memory domain when the lane first
 *                             uses the buffer ({@code ucp_datatype_iter_mem_reg_single} calls
 *                             {@code ucp_memh_register}, {@link org.rdmasim.transport.config.UcxSite#MEMH_REGISTER_AT_USE}),
 *                             so the local registration never removes a lane, it costs a registration
 * @param wireupFilter         wireup's fast-lane filter over the wired lanes, with the bandwidth it compared for each
 *                             ({@link WireupFastLanes}); the lanes it dropped carry {@link LaneVerdict#DROPPED_AT_WIREUP}
 */
public record LaneDecision(EffectiveConfig initiatorConfig, EffectiveConfig remoteConfig, List<HcaEstimate> local,
        List<HcaEstimate> remote, int railLimit, String railLimitName, double ratio, List<UcxLane> lanes,
        List<LaneSplit.Candidate> picked, List<String> warnings, List<String> registeredAtFirstUse,
        WireupFastLanes wireupFilter) {
    public LaneDecision {
        registeredAtFirstUse = List.copyOf(registeredAtFirstUse);
    }

    /**
     * Each initiator HCA UCX considered, in lane order, with what selection made of it: {@link LaneVerdict#PICKED}
     * when one of its lanes was picked (it carries data), else the verdict of its first lane (a NIC's lanes share
     * one unless the rail limit cut between its paths, and then one of them was picked).
     */
    public java.util.Map<String, LaneVerdict> nicVerdicts() {
        java.util.Map<String, LaneVerdict> out = new java.util.LinkedHashMap<>();
        for (UcxLane l : lanes) {
            LaneVerdict had = out.get(l.nic());
            if (had == null || l.verdict() == LaneVerdict.PICKED) {
                out.put(l.nic(), l.verdict());
            }
        }
        return out;
    }

    /**
     * The initiator's storage/management ports left out because {@code UCX_NET_DEVICES} does not name them: the
     * ports only a listing brings in ({@link org.rdmasim.hardware.Host#listedOnlyNics}) that are not candidates.
     */
    public List<String> notCandidates(org.rdmasim.hardware.Host initiator) {
        return initiator.listedOnlyNics().stream().filter(n -> local.stream().noneMatch(e -> e.nic().equals(n))).toList();
    }
}
