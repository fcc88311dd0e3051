package org.rdmasim.refit.method;

import java.util.ArrayList;
import java.util.List;
import org.rdmasim.engine.SimulationClock;
import org.rdmasim.fluid.FluidNetwork;
import org.rdmasim.hardware.CalibrationProfile;
import org.rdmasim.hardware.Cluster;
import org.rdmasim.hardware.FabricSpec;
import org.rdmasim.hardware.Host;
import org.rdmasim.memory.RegistrationParameters;
import org.rdmasim.transport.LanePolicy;
import org.rdmasim.transport.ProtocolParameters;
import org.rdmasim.transport.TransferEngine;
import org.rdmasim.workload.StageParameter;
import org.rdmasim.workload.WorkloadRun;

/**
 * Runs a refit: the entry point of this package.
 *
 * <p>It needs the hosts (built from presets or imported files, with the GPUs the plan's placements name),
 * the fabric, the plan, and the transport the pull and WRITE methods ride ({@link Transport}: the lane policy
 * of the variant's backend, e.g. {@code TransferBackend.lanes(stack, held)}, its protocol costs and path
 * options, and the registration terms). Broadcast methods choose their own NICs (NCCL's) and do not use the
 * lane policy. One clock and one fluid network carry every byte: fabric, PCIe, host memory and NVLink.
 *
 * <p>Each cycle: pause; registration when the cycle pays for it; the unshard of offloaded FSDP shards when the
 * trainer keeps them in host memory ({@link WireContext#unshardOffloaded}); the method (preparation, host copies, the
 * wire, install, overlapped as the method does); barrier; resume. Cycles run back to back.
 */
public final class RefitRun {
    /**
     * How the backend carries RDMA transfers.
     *
     * @param lanes        the backend's lane policy
     * @param protocol     protocol costs (latency, per-descriptor, ...)
     * @param options      GPUDirect and path options
     * @param registration the registration time terms
     */
    public record Transport(LanePolicy lanes, ProtocolParameters protocol, WorkloadRun.PathOptions options,
            RegistrationParameters registration, org.rdmasim.transport.SliceThread sliceThread) {
        public Transport(LanePolicy lanes, ProtocolParameters protocol, WorkloadRun.PathOptions options,
                RegistrationParameters registration) {
            this(lanes, protocol, options, registration, org.rdmasim.transport.SliceThread.NONE);
        }

        /** {@code lanes} with default protocol costs, GPUDirect, no ACS, IOMMU passthrough, RMA calls, default registration terms. */
        public static Transport of(LanePolicy lanes) {
            return new Transport(lanes, ProtocolParameters.defaults(), new WorkloadRun.PathOptions(true, false, 0, true),
                    RegistrationParameters.defaults());
        }
    }

    /** The protocol's per-descriptor posting cost, as a refit's bound names it when the posting rate holds it. */
    public static final String PER_DESCRIPTOR = "protocol.perDescriptor";

    private RefitRun() {
    }

    /**
     * The per-descriptor cost as a parameter the steady cycle rests on: assumed (no public measurement gives the
     * CPU cost of one {@code ucp_get_nbx} through NIXL; scenario.Parameters' entry says where its default comes
     * from), whether the default or the scenario's protocol set it.
     */
    static StageParameter perDescriptor(ProtocolParameters protocol) {
        double s = protocol.perDescriptorSeconds();
        boolean byDefault = s == ProtocolParameters.DEFAULT_PER_DESCRIPTOR_SECONDS;
        String shown = s >= 1e-3 ? org.rdmasim.hardware.Units.number(s * 1e3) + " ms"
                : org.rdmasim.hardware.Units.number(s * 1e6) + " us";
        return new StageParameter(PER_DESCRIPTOR, shown,
                new StageParameter.Evidence(CalibrationProfile.Kind.ASSUMED, byDefault
                        ? "the default: the order of UCX's software overhead per ucp_get_nbx / ucp_put_nbx through NIXL; "
                                + "no public measurement isolates it"
                        : "as the scenario's protocol sets it; no public measurement isolates it"));
    }

    /**
     * Runs every cycle of {@code plan} on a fresh clock and cluster built from {@code hosts} and {@code fabric}.
     *
     * @throws IllegalArgumentException for a plan the hosts cannot carry (a rank on no GPU, a broadcast without
     *         its payload, a tree shard whose ranks need different bytes)
     */
    public static RefitResult run(List<Host> hosts, FabricSpec fabric, RefitPlan plan, Transport transport) {
        return run(hosts, fabric, plan, transport, clock -> { }, run -> { });
    }

    /** As {@link #run(List, FabricSpec, RefitPlan, Transport)}, showing the clock to {@code before} before its first event and the run (its cluster, NIC traffic and resources, for the report's tables) to {@code after} once the last cycle ends. */
    public static RefitResult run(List<Host> hosts, FabricSpec fabric, RefitPlan plan, Transport transport,
            java.util.function.Consumer<SimulationClock> before, java.util.function.Consumer<WorkloadRun> after) {
        return run(hosts, fabric, plan, transport, RefitRun::groupedNetwork, before, after, cycle -> { });
    }

    /**
     * A fluid network with flow groups on, as a fan-out's: a refit's many writes into one engine's NICs, frozen
     * together there, share one rate and one completion event (the same max-min rates, finish times to rounding).
     */
    static FluidNetwork groupedNetwork(SimulationClock clock) {
        return new FluidNetwork(clock).grouping(FluidNetwork.DEFAULT_GROUP_MIN);
    }

    /**
     * As above, on the network {@code networkOf} makes for the run's clock (the run layer's: grouped, or flow by
     * flow on the reference path, verifying every event under {@code run --check}), telling {@code cycleEnded}
     * the index of each cycle as it ends (for a progress line).
     */
    public static RefitResult run(List<Host> hosts, FabricSpec fabric, RefitPlan plan, Transport transport,
            java.util.function.Function<SimulationClock, FluidNetwork> networkOf,
            java.util.function.Consumer<SimulationClock> before, java.util.function.Consumer<WorkloadRun> after,
            java.util.function.IntConsumer cycleEnded) {
        SimulationClock clock = new SimulationClock();
        before.accept(clock);
        FluidNetwork network = networkOf.apply(clock);
        Cluster cluster = new Cluster(hosts, fabric, network);
        TransferEngine engine = new TransferEngine(cluster, transport.protocol()).withSliceThread(transport.sliceThread());
        WorkloadRun run = new WorkloadRun(cluster, engine, transport.lanes(), transport.options());
        WireContext ctx = new WireContext(plan, cluster, run, engine, transport.registration());
        List<RefitResult.Cycle> cycles = new ArrayList<>();
        new Cycles(ctx, cycles, cycleEnded).start(0);
        clock.run();
        after.accept(run);
        if (cycles.size() != plan.cycles()) {
            throw new IllegalStateException("refit stopped after " + cycles.size() + " of " + plan.cycles()
                    + " cycles: a stage never finished");
        }
        List<StageParameter> restsOn = new ArrayList<>();
        for (CalibrationProfile.Parameter p : plan.calibration().parameters()) {
            if (p.key().equals(RefitCalibration.IPC_OPEN) && !(plan.method() instanceof ColocatedIpc)
                    || p.key().equals(RefitCalibration.BUCKET) && !paysBucketCalls(plan.method())
                    || p.key().equals(RefitCalibration.NCCL_STEP) && !broadcasts(plan)
                    || p.key().equals(RefitCalibration.LOAD_TENSOR) && !(RefitCalibration.loadsTensors(plan)
                            && p.value() > 0)
                    || (p.key().equals(RefitCalibration.RDT_SCATTER) || p.key().equals(RefitCalibration.RDT_PACK))
                            && !(plan.method() instanceof ShardedRdt)
                    || p.key().equals(RefitCalibration.CKPT_UPDATE_END) && !(plan.method() instanceof CheckpointEngine)
                    || p.key().equals(RefitCalibration.VERL_UPDATE_FRAME) && !plan.verlManager()
                    || p.key().equals(RefitCalibration.PACK_TENSOR) && !(RefitCalibration.packsTensors(plan)
                            && p.value() > 0)
                    || p.key().equals(RefitCalibration.REPLICA_LOAD)
                            && !(plan.method() instanceof RdmaPull pull && pull.hostReplica())
                    || p.key().equals(RefitCalibration.RESHARD_CALL) && !(plan.method() instanceof NcclP2p n
                            && n.calls() > 0)) {
                continue;
            }
            restsOn.add(StageParameter.of(p));
        }
        if (cycles.get(cycles.size() - 1).bound().parameters().contains(PER_DESCRIPTOR)) {
            restsOn.add(perDescriptor(transport.protocol()));
        }
        if (plan.registration().hcasPerGpu() > 0 && !(plan.method() instanceof ColocatedIpc)) {
            for (RegistrationParameters.Term t : transport.registration().terms(true, false)) {
                restsOn.add(StageParameter.of(t));
            }
        }
        return new RefitResult(plan.method().name(), cycles, plan.minimumBytes(), restsOn, ctx.transfers());
    }

    /**
     * Whether {@code method} pays {@link RefitCalibration#BUCKET} before its buckets: the broadcasts and
     * checkpoint-engine ({@link BucketedBroadcast}, {@link CheckpointUpdate}), verl's ring ({@link NixlRing}) and a
     * colocated refit's chunks ({@link ColocatedIpc}). A pull, a WRITE schedule, NeMo-RL's reshard and the
     * sharded RDT never read it, so their answers do not rest on it.
     */
    static boolean paysBucketCalls(RefitMethod method) {
        return method instanceof BroadcastRefit || method instanceof NixlRing || method instanceof ColocatedIpc;
    }

    /**
     * Whether the run sends anything down an NCCL broadcast ring ({@link WireContext#broadcast}), the only place
     * {@link RefitCalibration#NCCL_STEP} is read: a broadcast method, or NeMo-RL's reshard with a misc payload to
     * broadcast.
     */
    static boolean broadcasts(RefitPlan plan) {
        return plan.method() instanceof BroadcastRefit
                || plan.method() instanceof NcclP2p && plan.broadcastBytes() > 0;
    }

    /** The stages of one cycle after another, then the next cycle. */
    private static final class Cycles {
        private final WireContext ctx;
        private final List<RefitResult.Cycle> out;
        private final java.util.function.IntConsumer ended;
        private double start;

        Cycles(WireContext ctx, List<RefitResult.Cycle> out, java.util.function.IntConsumer ended) {
            this.ctx = ctx;
            this.out = out;
            this.ended = ended;
        }

        void start(int c) {
            ctx.beginCycle(c);
            start = ctx.clock().now();
            RefitPlan plan = ctx.plan();
            RefitCalibration cal = plan.calibration();
            double register = plan.registration().paidIn(c) ? plan.method().registrationSeconds(ctx) : 0.0;
            // verl's manager and vLLM adapter around the engine, in series with it (the trainer's timer waits on
            // every step: verl-project/verl e88dcf17b verl/checkpoint_engine/base.py:486-538)
            double frame = plan.verlManager() ? cal.value(RefitCalibration.VERL_UPDATE_FRAME) : 0.0;
            ctx.hold(RefitStage.PAUSE, cal.value(RefitCalibration.PAUSE),
                    () -> ctx.hold(RefitStage.REGISTER, register,
                            () -> ctx.unshardOffloaded(() -> plan.method().run(ctx,
                                    () -> ctx.hold(RefitStage.BARRIER, cal.value(RefitCalibration.BARRIER),
                                            () -> ctx.hold(RefitStage.VERL_FRAME, frame,
                                                    () -> ctx.hold(RefitStage.RESUME, cal.value(RefitCalibration.RESUME),
                                                            () -> end(c))))))));
        }

        private void end(int c) {
            out.add(new RefitResult.Cycle(c, start, ctx.clock().now(), ctx.log().busySeconds(), ctx.wireBytes(),
                    ctx.received(), ctx.bound()));
            ended.accept(c);
            if (c + 1 < ctx.plan().cycles()) {
                start(c + 1);
            }
        }
    }
}
