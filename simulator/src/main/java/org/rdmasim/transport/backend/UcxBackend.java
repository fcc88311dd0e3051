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
import org.rdmasim.transport.config.StackVersion;
import org.rdmasim.transport.ucx.LaneDecision;
import org.rdmasim.transport.ucx.NoLaneException;
import org.rdmasim.transport.ucx.StackProfile;
import org.rdmasim.transport.ucx.UcxLaneSelection;

/**
 * NIXL's UCX backend: rc_mlx5 lanes chosen by {@link UcxLaneSelection}, memory registered by
 * {@code ucp_mem_map} under each process's UCX configuration, a lost port answered by the RC QP's ACK
 * timer and retries ({@link QpRetry}).
 *
 * <p>AWS EFA devices are refused. EFA has no RC queue pair: the Linux driver creates UD and SRD queue
 * pairs only ({@code efa_create_qp}, {@code drivers/infiniband/hw/efa/efa_verbs.c}, -EOPNOTSUPP for any
 * other type), so rc_mlx5 and rc_verbs have nothing to open there. UCX's own EFA transport is
 * {@code srd} (openucx/ucx {@code src/uct/ib/efa/srd/srd_iface.c}, {@code UCT_TL_DEFINE_ENTRY(..., srd, ...)}
 * at v1.19.0 L924); the directory {@code src/uct/ib/efa} first appears at tag v1.19.0 (absent at
 * v1.18.1), so an older UCX has no RDMA lane on EFA at all, and a newer one reaches it through SRD,
 * whose lanes, protocols and retransmission rdmasim does not model. NIXL on EFA uses its libfabric
 * backend instead.
 *
 * @param api RMA (NIXL's {@code ucp_get_nbx} / {@code ucp_put_nbx}) or rendezvous, for the rail limit
 */
public record UcxBackend(UcxLaneSelection.Api api) implements TransferBackend {
    /** The first UCX release with an EFA transport (openucx/ucx tag v1.19.0, {@code src/uct/ib/efa}). */
    public static final StackVersion FIRST_EFA_TRANSPORT = new StackVersion(1, 19, 0);

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
    public boolean carriedByUcx() {
        return true;
    }

    @Override
    public boolean ucxRma() {
        return api == UcxLaneSelection.Api.RMA;
    }

    /**
     * {@code ucp_mem_map} on the md map UCX keeps for the buffer's memory type. Without GPUDirect no IB md
     * lists CUDA memory ({@code src/uct/ib/base/ib_md.c} L1324-1346, v1.20.0: CUDA joins {@code reg_mem_types}
     * only when a peer-memory module's file exists or dma-buf works), so {@code reg_md_map[cuda]} holds no
     * NIC ({@code src/ucp/core/ucp_context.c} L1790-1846) and a GPU buffer gets no MR on any NIC; NIXL's
     * {@code memReg} accepts that (it refuses only a VRAM buffer UCX takes for host memory, ai-dynamo/nixl
     * v1.1.0 {@code src/plugins/ucx/ucx_utils.cpp} L560-576). The bytes then go through buffers UCX registered
     * when it opened its interfaces, not through a registration per buffer.
     */
    @Override
    public RegistrationSites registration(StackProfile stack, Host host, TopologyNode device, boolean gpudirect) {
        if (!gpudirect && device.kind() == TopologyNode.Kind.GPU) {
            return new RegistrationSites.NoNic("UCX registers " + device.name() + "'s memory on no NIC: no IB memory "
                    + "domain can register CUDA memory without nvidia-peermem or dma-buf (ib_md.c, reg_mem_types)");
        }
        return new RegistrationSites.ByUcxConfig(stack.configFor(host, device));
    }

    /**
     * Without GPUDirect a rendezvous send stages through UCX's host fragment pool, which allocates and
     * registers {@code RNDV_FRAG_ALLOC_COUNT} fragments of {@code UCX_RNDV_FRAG_SIZE} at a time
     * ({@code ucp_rndv_frag_malloc_mpools}, openucx/ucx v1.20.0 src/ucp/core/ucp_mm.c L1431-1461; defaults
     * {@code host:128} and {@code host:512K}, src/ucp/core/ucp_context.c L659-666): 64 MiB by default, taken
     * as one chunk per GPU buffer's process. An RMA call has no such pool: its bounce buffers are the ones
     * each interface registered when it opened, with or without GPUDirect.
     */
    @Override
    public long hostBounceBytes(StackProfile stack, Host host, TopologyNode gpu, boolean gpudirect) {
        if (gpudirect || api != UcxLaneSelection.Api.RENDEZVOUS || gpu.kind() != TopologyNode.Kind.GPU) {
            return 0;
        }
        return RNDV_FRAG_ALLOC_COUNT * stack.configFor(host, gpu).rndvFragSize(
                org.rdmasim.transport.config.MemoryType.HOST);
    }

    /** {@code RNDV_FRAG_ALLOC_COUNT} default for host memory (src/ucp/core/ucp_context.c L664, v1.20.0). */
    static final long RNDV_FRAG_ALLOC_COUNT = 128;

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
            refuseEfa(stack, cluster, t);
            LaneDecision decision;
            try {
                decision = selection.decide(cluster, t);
            } catch (NoLaneException e) {
                // a configuration that leaves a transfer no lane is the scenario's, refused where it is read
                throw new BackendRefusal(e.getMessage());
            }
            if (decision.picked().isEmpty()) {
                throw new BackendRefusal("UCX finds no lane for transfer " + t.id());
            }
            warnings.addAll(decision.warnings());
            warnings.addAll(decision.remoteConfig().warnings());
        }
        return new ArrayList<>(warnings);
    }

    /** Refuses a transfer whose source or sink host has EFA devices: UCX has no RC lane on them. */
    private static void refuseEfa(StackProfile stack, Hosts cluster, TransferSpec t) {
        for (String name : List.of(t.source().host(), t.sink().host())) {
            List<String> efa = cluster.host(name).nics().stream().filter(UcxBackend::isEfa).map(TopologyNode::name)
                    .toList();
            if (!efa.isEmpty()) {
                throw efaRefusal(name, efa.get(0) + (efa.size() > 1 ? " and " + (efa.size() - 1) + " more" : ""),
                        ucxOnEfa(stack.ucx()));
            }
        }
    }

    /** A lane the scenario gives is still an RC queue pair UCX opens: refused on an EFA device. */
    @Override
    public void checkGivenLane(StackProfile stack, Hosts cluster, String sourceHost, String sinkHost, LaneSplit.Candidate lane) {
        for (String[] end : new String[][] {{sourceHost, lane.sourceNic()}, {sinkHost, lane.sinkNic()}}) {
            TopologyNode nic = cluster.host(end[0]).find(end[1]).orElse(null);
            if (nic != null && nic.kind() == TopologyNode.Kind.NIC && isEfa(nic)) {
                throw efaRefusal(end[0], end[1], ucxOnEfa(stack.ucx()));
            }
        }
    }

    private static String ucxOnEfa(StackVersion ucx) {
        return ucx.atLeast(FIRST_EFA_TRANSPORT)
                ? "UCX " + ucx + " reaches EFA only through its srd transport (openucx/ucx v1.19.0 "
                        + "src/uct/ib/efa/srd), whose lanes rdmasim does not model"
                : "UCX " + ucx + " has no EFA transport at all (src/uct/ib/efa first appears in UCX v1.19.0), "
                        + "so it has no RDMA lane on these devices";
    }

    private static BackendRefusal efaRefusal(String host, String devices, String reason) {
        return new BackendRefusal("host " + host + " has AWS EFA devices (" + devices + "), which have no RC transport "
                + "for UCX's rc_mlx5 lanes; " + reason + ". NIXL drives EFA with its libfabric backend: "
                + "set transport.backend: libfabric", host);
    }

    private static boolean isEfa(TopologyNode nic) {
        return nic.nic().model().isEfa() || nic.nic().linkLayer() == org.rdmasim.hardware.LinkLayer.EFA;
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
        List<String> lines = new ArrayList<>(UcxExplanation.choice(spec, d,
                d.notCandidates(cluster.host(spec.initiator().host()))));
        PathExplanation path = explainGivenLanes(stack, cluster, spec, d.picked(), ordering);
        lines.addAll(path.lines());
        return new LaneExplanation(lines, d.picked(), d, path);
    }

    @Override
    public java.util.Optional<ProtocolTable> protocolTable(StackProfile stack, Hosts cluster, TransferSpec spec,
            List<LaneSplit.Candidate> lanes) {
        Host host = cluster.host(spec.initiator().host());
        TopologyNode device = host.find(spec.initiator().device()).orElseThrow();
        EffectiveConfig config = stack.configFor(host, device);
        return java.util.Optional.of(UcxExplanation.protoInfo(spec, lanes, nic -> host.find(nic)
                .filter(n -> n.kind() == TopologyNode.Kind.NIC)
                .map(n -> org.rdmasim.transport.ucx.UcxPaths.pathsPerPort(n.nic(), config.ucxVersion(), config.ibNumPaths()))
                .orElse(1)));
    }

    @Override
    public PathExplanation explainGivenLanes(StackProfile stack, Hosts cluster, TransferSpec spec,
            List<LaneSplit.Candidate> lanes, WriteOrdering ordering) {
        return new PathExplanation(protocolTable(stack, cluster, spec, lanes),
                UcxExplanation.writeOrdering(cluster, spec, lanes, ordering, stack.ucx()),
                UcxExplanation.ncclGdr(stack, cluster, spec));
    }
}
