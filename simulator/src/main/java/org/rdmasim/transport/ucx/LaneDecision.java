package org.rdmasim.transport.ucx;

import java.util.List;
import org.rdmasim.transport.LaneSplit;
import org.rdmasim.transport.config.EffectiveConfig;

/**
 * Why a transfer got its lanes: the initiator's effective configuration, every candidate HCA on both
 * sides with UCX's estimate, every (device, path) lane with its verdict, the rail limit in force, and
 * the weighted lanes that came out.
 */
public record LaneDecision(EffectiveConfig initiatorConfig, EffectiveConfig remoteConfig, List<HcaEstimate> local,
        List<HcaEstimate> remote, int railLimit, String railLimitName, double ratio, List<UcxLane> lanes,
        List<LaneSplit.Candidate> picked, List<String> warnings) {

    /**
     * The initiator's storage/management ports left out because {@code UCX_NET_DEVICES} does not name them: the
     * ports only a listing brings in ({@link org.rdmasim.hardware.Host#listedOnlyNics}) that are not candidates.
     */
    public List<String> notCandidates(org.rdmasim.hardware.Host initiator) {
        return initiator.listedOnlyNics().stream().filter(n -> local.stream().noneMatch(e -> e.nic().equals(n))).toList();
    }
}
