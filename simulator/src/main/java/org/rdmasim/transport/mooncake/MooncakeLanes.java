package org.rdmasim.transport.mooncake;

import java.util.ArrayList;
import java.util.List;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.Hosts;
import org.rdmasim.hardware.TopologyNode;
import org.rdmasim.transport.Endpoint;
import org.rdmasim.transport.LanePolicy;
import org.rdmasim.transport.LaneSplit;
import org.rdmasim.transport.TransferSpec;

/**
 * The lanes of a transfer carried by Mooncake's RDMA transport. Each request of a batch picks one local
 * HCA at random among those preferred for the local buffer's location ({@code submitTransferTask},
 * kvcache-ai/Mooncake commit 3b5a59413 {@code mooncake-transfer-engine/src/transport/rdma_transport/rdma_transport.cpp}
 * L890-895) and is cut into slices of {@code MC_SLICE_SIZE} (65536 bytes by default, {@code include/config.h}
 * L64); each slice then picks the peer's HCA at random among those the peer prefers for the remote buffer
 * ({@code selectPeerDevice}, {@code worker_pool.cpp} L52-80, L195-226; no destination affinity by default).
 *
 * <p>ASSUMPTION: a transfer is many requests (its descriptors), so the random draws even out: every pair of
 * a preferred source HCA and a preferred sink HCA carries an equal share. One large request alone would
 * stay on one local HCA; that is not modelled.
 */
public final class MooncakeLanes implements LanePolicy {
    private final List<String> visible;

    /** @param visible the devices {@code MC_TE_FILTERS} lets the engine open; empty means every one */
    public MooncakeLanes(List<String> visible) {
        this.visible = List.copyOf(visible);
    }

    @Override
    public Plan plan(Hosts hosts, TransferSpec spec) {
        return new Plan(lanes(hosts, spec, visible), LaneSplit.MinChunk.PROPORTIONAL_SHARES);
    }

    /** Every (preferred source HCA, preferred sink HCA) pair, equally weighted, source HCAs in PCI order. */
    public static List<LaneSplit.Candidate> lanes(Hosts hosts, TransferSpec spec, List<String> visible) {
        List<TopologyNode> source = preferred(hosts, spec.source(), visible);
        List<TopologyNode> sink = preferred(hosts, spec.sink(), visible);
        List<LaneSplit.Candidate> out = new ArrayList<>();
        for (TopologyNode s : source) {
            for (TopologyNode d : sink) {
                out.add(new LaneSplit.Candidate(s.name(), d.name(), 1.0));
            }
        }
        return out;
    }

    /** The HCAs Mooncake prefers for the buffer at {@code e}. */
    public static List<TopologyNode> preferred(Hosts hosts, Endpoint e, List<String> visible) {
        Host h = hosts.host(e.host());
        TopologyNode device = h.find(e.device()).orElseThrow(
                () -> new IllegalArgumentException("host " + e.host() + " has no device " + e.device()));
        List<TopologyNode> p = MooncakeTopology.preferred(h, device, visible);
        if (p.isEmpty()) {
            throw new IllegalArgumentException("host " + e.host() + " has no RDMA device for Mooncake to use"
                    + (visible.isEmpty() ? "" : " among " + visible));
        }
        return p;
    }
}
