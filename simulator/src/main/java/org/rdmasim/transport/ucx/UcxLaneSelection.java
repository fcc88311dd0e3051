package org.rdmasim.transport.ucx;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.rdmasim.hardware.Cluster;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.HostSpec;
import org.rdmasim.hardware.TopologyNode;
import org.rdmasim.hardware.Units;
import org.rdmasim.transport.Endpoint;
import org.rdmasim.transport.LanePolicy;
import org.rdmasim.transport.LaneSplit;
import org.rdmasim.transport.Operation;
import org.rdmasim.transport.TransferSpec;
import org.rdmasim.transport.config.DeviceSelection;
import org.rdmasim.transport.config.EffectiveConfig;

/**
 * Lane choice as UCX makes it for a multi-lane RMA operation (openucx/ucx
 * {@code src/ucp/proto/proto_multi.c}; FACTS.md section 2):
 * <ol>
 *   <li>candidates are the HCAs {@code UCX_NET_DEVICES} leaves the initiating process;</li>
 *   <li>each gets an estimated bandwidth: wire rate times MTU efficiency, capped by the HCA's PCIe
 *       bandwidth, then by the topology distance from the buffer's device
 *       ({@code src/ucs/sys/topo/base/topo.c});</li>
 *   <li>lanes whose estimate times {@code UCX_MULTI_LANE_MAX_RATIO} is below the best are dropped;</li>
 *   <li>the rest are taken best first, ties by PCI order (our NIC names), up to the rail limit
 *       ({@code UCX_MAX_RMA_RAILS} for get/put, {@code UCX_MAX_RNDV_RAILS} for rendezvous);</li>
 *   <li>bytes are split by estimate ({@link LaneSplit}), fixed when posted.</li>
 * </ol>
 * Each local lane is paired with the remote side's HCAs ranked the same way from the remote buffer.
 */
public final class UcxLaneSelection implements LanePolicy {
    /** Which UCX protocol family carries the transfer, hence which rail limit applies. */
    public enum Api { RMA, RENDEZVOUS }

    private final StackProfile stack;
    private final Api api;

    public UcxLaneSelection(StackProfile stack, Api api) {
        this.stack = stack;
        this.api = api;
    }

    public StackProfile stack() {
        return stack;
    }

    @Override
    public Plan plan(Cluster cluster, TransferSpec spec) {
        LaneDecision d = decide(cluster, spec);
        var chunk = d.initiatorConfig().minRmaChunk();
        return new Plan(d.lanes(), chunk.isInf() ? Long.MAX_VALUE : Math.max(1, chunk.requireBytes()));
    }

    /** The whole decision, for {@code explain}. */
    public LaneDecision decide(Cluster cluster, TransferSpec spec) {
        Endpoint initiator = spec.initiator();
        Endpoint remote = spec.operation() == Operation.READ ? spec.source() : spec.sink();
        Host lh = cluster.host(initiator.host());
        Host rh = cluster.host(remote.host());
        TopologyNode ld = lh.find(initiator.device()).orElseThrow();
        TopologyNode rd = rh.find(remote.device()).orElseThrow();
        EffectiveConfig lc = stack.configFor(lh, ld);
        EffectiveConfig rc = stack.configFor(rh, rd);
        List<String> warnings = new ArrayList<>();
        warnings.addAll(lc.warnings());
        List<HcaEstimate> local = estimates(lh, ld, lc, warnings);
        List<HcaEstimate> remoteEst = estimates(rh, rd, rc, new ArrayList<>());
        int rails = api == Api.RMA ? lc.maxRmaRails() : lc.maxRndvRails();
        String railName = api == Api.RMA ? "UCX_MAX_RMA_RAILS" : "UCX_MAX_RNDV_RAILS";
        double ratio = lc.multiLaneMaxRatio();
        List<HcaEstimate> localJudged = judge(local, rails, ratio);
        List<HcaEstimate> remoteJudged = judge(remoteEst, Integer.MAX_VALUE, rc.multiLaneMaxRatio());
        List<HcaEstimate> remotePicked = remoteJudged.stream().filter(e -> e.verdict().equals("picked")).toList();
        List<LaneSplit.Candidate> lanes = new ArrayList<>();
        int i = 0;
        for (HcaEstimate e : localJudged) {
            if (!e.verdict().equals("picked")) {
                continue;
            }
            HcaEstimate peer = remotePicked.get(i++ % remotePicked.size());
            double weight = Math.min(e.estimate(), peer.estimate());
            lanes.add(spec.operation() == Operation.READ
                    ? new LaneSplit.Candidate(peer.nic(), e.nic(), weight)
                    : new LaneSplit.Candidate(e.nic(), peer.nic(), weight));
        }
        return new LaneDecision(lc, rc, localJudged, remoteJudged, rails, railName, ratio, lanes, warnings);
    }

    /** UCX's estimate for every selected HCA of {@code host}, best first. */
    static List<HcaEstimate> estimates(Host host, TopologyNode device, EffectiveConfig config, List<String> warnings) {
        List<String> names = host.nics().stream().map(TopologyNode::name).toList();
        DeviceSelection selection = config.selectNetDevices(names);
        warnings.addAll(selection.warnings());
        List<HcaEstimate> out = new ArrayList<>();
        for (String name : selection.devices()) {
            TopologyNode nic = host.nic(name);
            HostSpec.NicSpec n = nic.nic();
            double wire = Units.gbpsToBytesPerSecond(n.lineRateGbps()) * n.linkLayer().wireEfficiency();
            double pcie = n.link().bytesPerSecond();
            HcaDistance distance = UcxTopoDistance.between(host, device, nic);
            double estimate = Math.min(Math.min(wire, pcie), distance.bandwidthBytesPerSecond());
            out.add(new HcaEstimate(name, device.kind() == TopologyNode.Kind.SOCKET ? null : host.relation(device, nic),
                    distance, wire, pcie, estimate, ""));
        }
        out.sort(Comparator.comparingDouble(HcaEstimate::estimate).reversed().thenComparing(HcaEstimate::nic));
        return out;
    }

    /** Applies the ratio filter and the rail limit, best first. */
    static List<HcaEstimate> judge(List<HcaEstimate> sorted, int rails, double ratio) {
        List<HcaEstimate> out = new ArrayList<>();
        double best = sorted.isEmpty() ? 0 : sorted.get(0).estimate();
        int taken = 0;
        for (HcaEstimate e : sorted) {
            if (e.estimate() * ratio < best) {
                out.add(e.withVerdict("dropped: estimate x " + fmt(ratio) + " below best"));
            } else if (taken >= rails) {
                out.add(e.withVerdict("over rail limit"));
            } else {
                out.add(e.withVerdict("picked"));
                taken++;
            }
        }
        return out;
    }

    private static String fmt(double v) {
        return v == Math.rint(v) ? String.valueOf((long) v) : String.valueOf(v);
    }
}
