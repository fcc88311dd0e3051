package org.rdmasim.refit.method;

import java.util.ArrayList;
import java.util.List;
import org.rdmasim.engine.SimulationClock;
import org.rdmasim.fluid.FluidNetwork;
import org.rdmasim.fluid.Resource;
import org.rdmasim.hardware.Cluster;
import org.rdmasim.hardware.CpuFamily;
import org.rdmasim.hardware.FabricSpec;
import org.rdmasim.hardware.GpuModel;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.HostSpec;
import org.rdmasim.hardware.LinkLayer;
import org.rdmasim.hardware.LinkSpec;
import org.rdmasim.hardware.NicModel;
import org.rdmasim.hardware.PcieGen;
import org.rdmasim.hardware.TopologyNode;
import org.rdmasim.refit.layout.SliceRoute;
import org.rdmasim.transport.DataPath;
import org.rdmasim.transport.Endpoint;
import org.rdmasim.transport.ExplicitLanes;
import org.rdmasim.transport.Lane;
import org.rdmasim.transport.LanePolicy;
import org.rdmasim.transport.LaneSplit;
import org.rdmasim.transport.Operation;
import org.rdmasim.transport.ProtocolParameters;
import org.rdmasim.transport.TransferEngine;
import org.rdmasim.transport.TransferSpec;

/**
 * Small hosts for refit tests: each host has two H100s, each beside its own ConnectX-7 (InfiniBand) under
 * one PCIe Gen5 switch (PIX), 18 NVLinks per GPU, one socket. Trainer rank t sits on {@code train:GPUt},
 * inference rank i on {@code infer:GPUi} (or on host {@code inferI:GPU0} in the three-host shape).
 */
final class RefitFixture {
    static final long GB = 1_000_000_000L;

    private RefitFixture() {
    }

    static HostSpec twoPairs() {
        List<HostSpec.DeviceSpec> switches = new ArrayList<>();
        for (int k = 0; k < 2; k++) {
            GpuModel g = GpuModel.H100;
            switches.add(new HostSpec.SwitchSpec("sw" + k, LinkSpec.pcie(PcieGen.GEN5, 16), List.of(
                    new HostSpec.GpuSpec("GPU" + k, g, g.hostLink(), g.hbmBytes(), g.bar1Bytes(), 18),
                    HostSpec.NicSpec.of("mlx5_" + k, NicModel.CX7, LinkLayer.INFINIBAND))));
        }
        return new HostSpec("two-pairs", CpuFamily.INTEL_SAPPHIRE_RAPIDS, 128e9,
                List.of(new HostSpec.SocketSpec(0, 307.2e9, 1L << 40, "", switches)), "test");
    }

    /** Hosts {@code train} and {@code infer}. */
    static List<Host> twoHosts() {
        HostSpec s = twoPairs();
        return List.of(new Host("train", s), new Host("infer", s));
    }

    /** Hosts {@code train}, {@code infer0}, {@code infer1}. */
    static List<Host> threeHosts() {
        HostSpec s = twoPairs();
        return List.of(new Host("train", s), new Host("infer0", s), new Host("infer1", s));
    }

    static Endpoint trainer(int rank) {
        return new Endpoint("train", "GPU" + rank);
    }

    static Endpoint inference(int rank) {
        return new Endpoint("infer", "GPU" + rank);
    }

    /** Inference rank i alone on host inferI. */
    static Endpoint inferenceOwnHost(int rank) {
        return new Endpoint("infer" + rank, "GPU0");
    }

    /** Each of 2 inference ranks needs {@code bytes} from each of 2 trainer ranks (a TP resharding). */
    static List<SliceRoute> twoByTwo(long bytes) {
        List<SliceRoute> out = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            for (int t = 0; t < 2; t++) {
                out.add(new SliceRoute(t, i, bytes, 4, 2));
            }
        }
        return out;
    }

    /** One lane per transfer, the NIC nearest each GPU: what a NIC pin gives. */
    static final LanePolicy NEAREST_NIC = (hosts, spec) -> {
        Host a = hosts.host(spec.source().host());
        Host b = hosts.host(spec.sink().host());
        String na = a.nearestNic(a.gpu(spec.source().device())).name();
        String nb = b.nearestNic(b.gpu(spec.sink().device())).name();
        return new LanePolicy.Plan(List.of(new LaneSplit.Candidate(na, nb, 1.0, 0)), ExplicitLanes.DEFAULT_MIN_CHUNK);
    };

    static RefitRun.Transport nearestNic() {
        return RefitRun.Transport.of(NEAREST_NIC);
    }

    /**
     * The rate a lone GPUDirect WRITE from {@code a} to {@code b} gets over the NICs nearest the GPUs: the
     * smallest capacity over usage along its path, as max-min gives one flow alone.
     */
    static double wireRate(List<Host> hosts, Endpoint a, Endpoint b) {
        Cluster c = new Cluster(hosts, FabricSpec.nonBlocking(), new FluidNetwork(new SimulationClock()));
        TransferEngine engine = new TransferEngine(c, ProtocolParameters.defaults());
        Host ha = c.host(a.host());
        Host hb = c.host(b.host());
        TransferSpec spec = new TransferSpec("x", a, b, GB, Operation.WRITE, 1, DataPath.GPUDIRECT, DataPath.GPUDIRECT,
                false, 0);
        Lane lane = new Lane(ha.nearestNic(ha.gpu(a.device())).name(), hb.nearestNic(hb.gpu(b.device())).name(), GB);
        return pathRate(engine, spec, lane, Double.POSITIVE_INFINITY);
    }

    /** The lowest of {@code cap} and the path's capacities over usage: what max-min gives one flow alone. */
    private static double pathRate(TransferEngine engine, TransferSpec spec, Lane lane, double cap) {
        List<Double> usage = new ArrayList<>();
        List<Resource> path = engine.lanePath(spec, lane, usage);
        double rate = cap;
        for (int i = 0; i < path.size(); i++) {
            rate = Math.min(rate, path.get(i).capacity() / usage.get(i));
        }
        return rate;
    }

    /**
     * One bucket's READ between two hosts over the NICs nearest the GPUs, from first principles: the bytes at the
     * lowest of the path's capacities and the lane's own cap (one QP's READ rate), plus the READ's fixed costs
     * (posting, the request crossing to the source, one fragment, the data's one-way latency back).
     */
    static double readSeconds(List<Host> hosts, Endpoint a, Endpoint b, long bytes) {
        Cluster c = new Cluster(hosts, FabricSpec.nonBlocking(), new FluidNetwork(new SimulationClock()));
        ProtocolParameters p = ProtocolParameters.defaults();
        TransferEngine engine = new TransferEngine(c, p);
        Host ha = c.host(a.host());
        Host hb = c.host(b.host());
        TransferSpec spec = new TransferSpec("x", a, b, bytes, Operation.READ, 1, DataPath.GPUDIRECT, DataPath.GPUDIRECT,
                false, 0);
        Lane lane = new Lane(ha.nearestNic(ha.gpu(a.device())).name(), hb.nearestNic(hb.gpu(b.device())).name(), bytes);
        double rate = pathRate(engine, spec, lane, engine.laneCap(spec, lane));
        double oneWay = engine.oneWayLatency(spec, lane);
        return bytes / rate + p.perDescriptorSeconds() + oneWay + p.perFragmentSeconds() + oneWay;
    }

    /** The rate of a lone copy from host memory of the GPU's socket into the GPU. */
    static double h2dRate(List<Host> hosts, Endpoint e) {
        Cluster c = new Cluster(hosts, FabricSpec.nonBlocking(), new FluidNetwork(new SimulationClock()));
        Host h = c.host(e.host());
        TopologyNode g = h.gpu(e.device());
        double rate = c.hostMemory(h, g.socket()).capacity();
        for (Resource r : c.fromSocket(h, g.socket(), g)) {
            rate = Math.min(rate, r.capacity());
        }
        return rate;
    }

    static double hbm() {
        return GpuModel.H100.hbmBytesPerSecond();
    }

    /** The per-bucket fixed cost every broadcast bucket pays (the default, calibrated on whitecircle/halo PR #11). */
    static double dispatch() {
        return RefitCalibration.defaults().value(RefitCalibration.BUCKET);
    }

    /** checkpoint-engine's end of one update (the default, calibrated on CKPT-GLM45AIR-8H800). */
    static double updateEnd() {
        return RefitCalibration.defaults().value(RefitCalibration.CKPT_UPDATE_END);
    }

    static double step() {
        return RefitCalibration.defaults().value(RefitCalibration.NCCL_STEP);
    }
}
