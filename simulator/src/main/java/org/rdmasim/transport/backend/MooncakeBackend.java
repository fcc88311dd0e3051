package org.rdmasim.transport.backend;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.Hosts;
import org.rdmasim.hardware.TopologyNode;
import org.rdmasim.transport.LanePolicy;
import org.rdmasim.transport.LaneSplit;
import org.rdmasim.transport.QpRetry;
import org.rdmasim.transport.TransferSpec;
import org.rdmasim.transport.WriteOrdering;
import org.rdmasim.transport.citation.CitedNote;
import org.rdmasim.transport.mooncake.MooncakeLanes;
import org.rdmasim.transport.mooncake.MooncakeTopology;
import org.rdmasim.transport.ucx.StackProfile;
import org.rdmasim.transport.ucx.UcxLaneSelection;

/**
 * Mooncake's Transfer Engine over RDMA, standalone or as NIXL's Mooncake plugin (ai-dynamo/nixl
 * {@code src/plugins/mooncake}, first in tag 0.2.1). It reads no UCX variable: the HCAs a buffer's
 * slices use follow the engine's topology matrix ({@link MooncakeTopology}), which keeps host memory on
 * its own NUMA node's HCAs and a GPU on its nearest ones.
 *
 * <p>Its RDMA transport's context thread: each NIC context the engine opens has {@code workers_per_ctx} = 2
 * worker threads and {@code num_cq_per_ctx} = 1 completion queue (kvcache-ai/Mooncake v0.3.7.post2
 * {@code mooncake-transfer-engine/include/config.h} L27, L40); a worker polls the CQs whose index is its own
 * modulo the worker count ({@code src/transport/rdma_transport/worker_pool.cpp} L271-272), so worker 0 reaps
 * every completion of the context and marks each slice done (L280-328), between its own posting passes
 * (L381-405: post, then poll, in one loop). Slices bound for one peer NIC of one target all fall in one shard
 * (L149) and so are posted by one worker (L173-174), one signaled work request per 64 KiB slice (config.h L41;
 * {@code rdma_endpoint.cpp} L266-306). Every slice of a context therefore passes one thread; that thread's time
 * a slice is CALIBRATED ({@link #DEFAULT_SLICE_THREAD_SECONDS}). The same loop, shard rule and CQ count are in
 * the engine's first release (348afd753 {@code worker_pool.cpp} L129, L153) and at 3b5a59413.
 *
 * @param visibleDevices     the devices {@code MC_TE_FILTERS} names (the engine opens only those); empty means
 *                           every RDMA device of the host
 * @param sliceThreadSeconds the context thread's time per slice ({@code transport.sliceThread})
 */
public record MooncakeBackend(List<String> visibleDevices, double sliceThreadSeconds) implements TransferBackend {
    /**
     * CALIBRATED on MC-VLLM-KV-MARGIN: 8 ranks, each its own engine writing over its GPU's one NIC, add 2.25 GiB in
     * 15.22 ms (158.7 GB/s), 19.84 GB/s a rank, below the 200G port's 24.4; one 64 KiB slice every 3.304 us.
     */
    public static final double DEFAULT_SLICE_THREAD_SECONDS = 3.304 * 1e-6;
    /**
     * {@code slice_size}, the engine's {@code MC_SLICE_SIZE} default (kvcache-ai/Mooncake v0.3.7.post2
     * mooncake-transfer-engine/include/config.h L41).
     */
    public static final long SLICE_BYTES = 65536;
    /**
     * {@code fragment_limit}: a request's last slice takes what is left when that is at most a slice and this
     * much, rather than leave a short slice of its own (kvcache-ai/Mooncake v0.3.7.post2
     * mooncake-transfer-engine/include/config.h L51,
     * {@code src/transport/rdma_transport/rdma_transport.cpp} L326-339 {@code merge_final_slice}; the same at
     * 6e3a11b9, config.h L74).
     */
    public static final long TAIL_BYTES = 16384;

    public MooncakeBackend {
        visibleDevices = List.copyOf(visibleDevices);
        if (!(sliceThreadSeconds >= 0) || Double.isInfinite(sliceThreadSeconds)) {
            throw new IllegalArgumentException("sliceThreadSeconds must be >= 0 and finite");
        }
    }

    /** With the calibrated context thread. */
    public MooncakeBackend(List<String> visibleDevices) {
        this(visibleDevices, DEFAULT_SLICE_THREAD_SECONDS);
    }

    @Override
    public org.rdmasim.transport.SliceThread sliceThread() {
        // a limit it sets says where its number comes from: the calibration, or the scenario's own figure
        return new org.rdmasim.transport.SliceThread(sliceThreadSeconds, SLICE_BYTES, TAIL_BYTES,
                sliceThreadSeconds == DEFAULT_SLICE_THREAD_SECONDS ? "calibrated on MC-VLLM-KV-MARGIN"
                        : "the scenario's transport.sliceThread");
    }

    @Override
    public String name() {
        return "mooncake";
    }

    /**
     * {@code registerLocalMemory} registers a buffer with every RDMA context the engine opened, one MR per
     * HCA, and publishes an rkey for each (kvcache-ai/Mooncake commit 3b5a59413,
     * {@code rdma_transport.cpp} L489-495: one lkey and rkey per context). Without GPUDirect the model
     * keeps these registrations: what the engine does with GPU memory no HCA can register is not modelled.
     */
    @Override
    public RegistrationSites registration(StackProfile stack, Host host, TopologyNode device, boolean gpudirect) {
        return new RegistrationSites.OnDevices(MooncakeTopology.opened(host, visibleDevices).stream()
                .map(TopologyNode::name).toList(), 1);
    }

    @Override
    public LanePolicy lanes(StackProfile stack, UcxLaneSelection.Registrations held) {
        // every HCA holds the buffer (registration above): no rkey filter is needed
        return new MooncakeLanes(visibleDevices);
    }

    /**
     * Refuses a host with AWS EFA devices: there the engine runs its EFA transport
     * ({@code src/transport/efa_transport}), which sends each request whole and deals requests to NICs in turn
     * ({@code docs/source/design/transfer-engine/efa_transport.md} L252), not the RDMA transport's topology
     * matrix modelled here.
     */
    @Override
    public List<String> checkLanes(StackProfile stack, Hosts cluster, List<TransferSpec> transfers) {
        for (TransferSpec t : transfers) {
            for (String h : List.of(t.source().host(), t.sink().host())) {
                boolean efa = cluster.host(h).nics().stream().anyMatch(n -> n.nic().model().isEfa()
                        || n.nic().linkLayer() == org.rdmasim.hardware.LinkLayer.EFA);
                if (efa) {
                    throw new BackendRefusal("host " + h + " has AWS EFA devices: Mooncake drives them with its EFA "
                            + "transport (requests dealt to NICs in turn), which rdmasim does not model; its RDMA "
                            + "transport's topology matrix is modelled", h);
                }
            }
            try {
                MooncakeLanes.lanes(cluster, t, visibleDevices);
            } catch (IllegalArgumentException e) {
                throw new BackendRefusal("transfer " + t.id() + ": " + e.getMessage());
            }
        }
        return List.of();
    }

    /** Any RDMA device the engine opened. */
    @Override
    public void checkGivenLane(StackProfile stack, Hosts cluster, String sourceHost, String sinkHost,
            LaneSplit.Candidate lane) {
    }

    /**
     * Refused: the reaction rdmasim models is UCX's RC transport's. Mooncake retries a failed slice on
     * another HCA of the available list ({@code Topology::selectDevice} with a retry count) and pauses failed
     * rails ({@code worker_pool.cpp}), neither of which is modelled.
     */
    @Override
    public QpRetry faultReaction(StackProfile stack, Host host, TopologyNode device) {
        throw new BackendRefusal("faults are modelled for UCX's RC transport; Mooncake's Transfer Engine retries "
                + "failed slices on other HCAs and pauses failed rails, which rdmasim does not model");
    }

    @Override
    public LaneExplanation explain(StackProfile stack, Hosts cluster, TransferSpec spec,
            UcxLaneSelection.Registrations held, WriteOrdering ordering) {
        List<CitedNote> lines = new ArrayList<>();
        lines.add(CitedNote.uncited(String.format(Locale.ROOT, "Mooncake Transfer Engine: %s prefers %s; %s prefers %s",
                location(cluster, spec.source().host(), spec.source().device()),
                names(MooncakeLanes.preferred(cluster, spec.source(), visibleDevices)),
                location(cluster, spec.sink().host(), spec.sink().device()),
                names(MooncakeLanes.preferred(cluster, spec.sink(), visibleDevices)))));
        lines.add(CitedNote.uncited("  each request draws one preferred local HCA, each 64 KiB slice one preferred "
                + "peer HCA: the bytes spread evenly over every pair"));
        return LaneExplanation.ofNotes(lines, MooncakeLanes.lanes(cluster, spec, visibleDevices));
    }

    /** Nothing of the engine's own: lanes given by the scenario bypass its topology matrix. */
    @Override
    public PathExplanation explainGivenLanes(StackProfile stack, Hosts cluster, TransferSpec spec,
            List<LaneSplit.Candidate> lanes, WriteOrdering ordering) {
        return PathExplanation.NONE;
    }

    /** The engine's name for a buffer location: {@code cpu:N} for host memory, {@code cuda:N} for a GPU. */
    private static String location(Hosts cluster, String host, String device) {
        TopologyNode d = cluster.host(host).find(device).orElseThrow();
        String where = d.kind() == TopologyNode.Kind.SOCKET ? "cpu:" + d.socket() : "cuda:" + device.replaceAll("\\D", "");
        return host + ":" + device + " (" + where + ")";
    }

    private static String names(List<TopologyNode> nics) {
        return String.join(",", nics.stream().map(TopologyNode::name).toList());
    }
}
