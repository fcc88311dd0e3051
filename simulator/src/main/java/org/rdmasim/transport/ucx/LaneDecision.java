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
}
