package org.rdmasim.transport.backend;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.Hosts;
import org.rdmasim.hardware.TopologyNode;
import org.rdmasim.transport.LanePolicy;
import org.rdmasim.transport.LaneSplit;
import org.rdmasim.transport.QpRetry;
import org.rdmasim.transport.TransferSpec;
import org.rdmasim.transport.WriteOrdering;
import org.rdmasim.transport.config.EffectiveConfig;
import org.rdmasim.transport.ucx.LaneDecision;
import org.rdmasim.transport.ucx.StackProfile;
import org.rdmasim.transport.ucx.UcxLaneSelection;

/**
 * NIXL's UCX backend: rc_mlx5 lanes chosen by {@link UcxLaneSelection}, memory registered by
 * {@code ucp_mem_map} under each process's UCX configuration, a lost port answered by the RC QP's ACK
 * timer and retries ({@link QpRetry}).
 *
 * @param api RMA (NIXL's {@code ucp_get_nbx} / {@code ucp_put_nbx}) or rendezvous, for the rail limit
 */
public record UcxBackend(UcxLaneSelection.Api api) implements TransferBackend {
    public UcxBackend {
        if (api == null) {
            throw new IllegalArgumentException("a UCX API (rma or rendezvous) is required");
        }
    }

    @Override
    public String name() {
        return "ucx";
    }

    @Override
    public RegistrationSites registration(StackProfile stack, Host host, TopologyNode device) {
        return new RegistrationSites.ByUcxConfig(stack.configFor(host, device));
    }

    @Override
    public LanePolicy lanes(StackProfile stack, UcxLaneSelection.Registrations held) {
        return new UcxLaneSelection(stack, api, held);
    }

    /** UCX chooses with every buffer taken as registered on every HCA its configuration selects. */
    @Override
    public List<String> checkLanes(StackProfile stack, Hosts cluster, List<TransferSpec> transfers) {
        UcxLaneSelection selection = new UcxLaneSelection(stack, api);
        Set<String> warnings = new LinkedHashSet<>();
        for (TransferSpec t : transfers) {
            LaneDecision decision = selection.decide(cluster, t);
            if (decision.picked().isEmpty()) {
                throw new BackendRefusal("UCX finds no lane for transfer " + t.id());
            }
            warnings.addAll(decision.warnings());
            warnings.addAll(decision.remoteConfig().warnings());
        }
        return new ArrayList<>(warnings);
    }

    /** {@code UCX_RC_TIMEOUT} and {@code UCX_RC_RETRY_COUNT} as the process on {@code device} reads them. */
    @Override
    public QpRetry faultReaction(StackProfile stack, Host host, TopologyNode device) {
        EffectiveConfig config = stack.configFor(host, device);
        return new QpRetry(config.rcTimeoutSeconds(), config.rcRetryCount());
    }

    @Override
    public LaneExplanation explain(StackProfile stack, Hosts cluster, TransferSpec spec,
            UcxLaneSelection.Registrations held, WriteOrdering ordering) {
        LaneDecision d = new UcxLaneSelection(stack, api, held).decide(cluster, spec);
        List<String> lines = new ArrayList<>(UcxExplanation.choice(spec, d));
        lines.addAll(explainGivenLanes(stack, cluster, spec, d.picked(), ordering));
        return new LaneExplanation(lines, d.picked());
    }

    @Override
    public List<String> explainGivenLanes(StackProfile stack, Hosts cluster, TransferSpec spec,
            List<LaneSplit.Candidate> lanes, WriteOrdering ordering) {
        List<String> lines = new ArrayList<>(UcxExplanation.protoInfo(spec, lanes));
        lines.addAll(UcxExplanation.writeOrdering(cluster, spec, lanes, ordering));
        lines.addAll(UcxExplanation.ncclGdr(stack, cluster, spec));
        return lines;
    }
}
