package org.rdmasim.crosscheck;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.rdmasim.engine.RandomStreams;
import org.rdmasim.engine.SimulationClock;
import org.rdmasim.fluid.FluidNetwork;
import org.rdmasim.fluid.Resource;
import org.rdmasim.hardware.Cluster;
import org.rdmasim.hardware.FabricSpec;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.HostShape;
import org.rdmasim.hardware.HostSpec;
import org.rdmasim.hardware.Presets;
import org.rdmasim.hardware.TopologyNode;
import org.rdmasim.transport.Endpoint;
import org.rdmasim.transport.Lane;
import org.rdmasim.transport.Operation;
import org.rdmasim.transport.ProtocolParameters;
import org.rdmasim.transport.TransferEngine;
import org.rdmasim.transport.TransferSpec;
import org.rdmasim.transport.DataPath;
import umontreal.ssj.rng.RandomStream;

/**
 * A synthetic receiver fan-out as a {@link FlowProblem}, built from a real {@link Cluster}: {@code
 * sources} hosts hold a model sharded over their first {@code rails} GPUs; each of {@code receivers}
 * hosts pulls it (RDMA READ, GPUDirect on both sides) from source {@code r mod sources}, shard i over
 * rail i (source GPU i and NIC i to receiver NIC i and GPU i). A lane's route is exactly what
 * {@link TransferEngine#lanePath} gives (PCIe links, NIC sides, leaf uplinks), and with {@code
 * laneCaps} its cap is {@link TransferEngine#laneCap} (the READ limits of one QP).
 *
 * <p>This is the part of the model that SimGrid's flow model shares identically, which is what it is
 * for: GPUDirect paths have no resource used twice per byte (a host-staged path would use host
 * memory twice, which SimGrid cannot express), and every lane has weight 1. Protocol latencies are
 * left out: a lane starts when its receiver arrives.
 *
 * @param meanGapSeconds mean gap between receiver arrivals for {@link Arrival#POISSON}
 */
public record RailFanout(HostSpec host, int sources, int receivers, int rails, long modelBytes, Arrival arrival,
        double meanGapSeconds, Sizes sizes, FabricSpec fabric, boolean laneCaps, long seed) {
    /** When receivers start pulling. */
    public enum Arrival { ALL_AT_ONCE, POISSON }

    /** Model bytes per receiver: all the same, or each drawn uniformly from 0.25x to 1.75x. */
    public enum Sizes { EQUAL, UNEQUAL }

    public RailFanout {
        if (sources < 1 || receivers < 1 || rails < 1) {
            throw new IllegalArgumentException("fan-out needs sources, receivers and rails >= 1");
        }
        if (modelBytes < rails) {
            throw new IllegalArgumentException("model of " + modelBytes + " bytes cannot be split over " + rails + " rails");
        }
        if (arrival == Arrival.POISSON && !(meanGapSeconds > 0)) {
            throw new IllegalArgumentException("Poisson arrivals need a mean gap > 0 s");
        }
    }

    /**
     * A host with 4 GPUs, each beside its own ConnectX-7 400G under one PCIe Gen5 switch (PIX), on one
     * socket: the smallest host where 4 rail-aligned lanes do not share a PCIe link.
     */
    public static HostSpec fourRailHost() {
        Presets.GenericHost d = Presets.GenericHost.defaults();
        return Presets.generic(new Presets.GenericHost(1, 4, 1, d.gpu(), d.nic(), d.linkLayer(), d.gpuNicRelation(),
                d.cpu(), d.memoryBandwidth(), d.interSocket()));
    }

    /** One receiver's pull time alone on an idle cluster, limited by its {@code rails} NICs' wire rate. */
    public double soloPullSeconds() {
        Host probe = new Host("probe", host);
        double wire = probe.nics().get(0).nic().payloadBytesPerSecond(probe.profile());
        return modelBytes / (rails * wire);
    }

    public String sourceName(int s) {
        return "src" + s;
    }

    public String receiverName(int r) {
        return "rcv" + r;
    }

    /** Builds the cluster and turns every lane into a flow; link ids are the resources' names. */
    public FlowProblem build() {
        List<Host> hosts = new ArrayList<>(sources + receivers);
        HostShape shape = new HostShape(host);
        for (int s = 0; s < sources; s++) {
            hosts.add(new Host(sourceName(s), shape));
        }
        for (int r = 0; r < receivers; r++) {
            hosts.add(new Host(receiverName(r), shape));
        }
        Host probe = hosts.get(0);
        if (probe.nics().size() < rails || probe.gpus().size() < rails) {
            throw new IllegalArgumentException("host " + host.model() + " has " + probe.gpus().size() + " GPUs and "
                    + probe.nics().size() + " NICs, fewer than " + rails + " rails");
        }
        String[] gpu = new String[rails];
        String[] nic = new String[rails];
        for (int i = 0; i < rails; i++) {
            TopologyNode g = probe.gpus().get(i);
            gpu[i] = g.name();
            nic[i] = probe.nearestNic(g).name();
        }
        Cluster cluster = new Cluster(hosts, fabric, new FluidNetwork(new SimulationClock()));
        TransferEngine engine = new TransferEngine(cluster, ProtocolParameters.defaults());
        RandomStreams streams = new RandomStreams(seed, 0);
        RandomStream arrivals = streams.stream("fanout-arrivals");
        RandomStream sizeDraws = streams.stream("fanout-sizes");

        Map<String, FlowProblem.Link> links = new LinkedHashMap<>();
        List<FlowProblem.FlowSpec> flows = new ArrayList<>(receivers * rails);
        double t = 0;
        for (int r = 0; r < receivers; r++) {
            if (arrival == Arrival.POISSON && r > 0) {
                t += -meanGapSeconds * Math.log(1 - arrivals.nextDouble());
            }
            long bytes = sizes == Sizes.EQUAL ? modelBytes
                    : Math.max(rails, Math.round(modelBytes * (0.25 + 1.5 * sizeDraws.nextDouble())));
            String src = sourceName(r % sources);
            String dst = receiverName(r);
            for (int i = 0; i < rails; i++) {
                long laneBytes = bytes / rails + (i < bytes % rails ? 1 : 0);
                String id = dst + ".rail" + i;
                TransferSpec spec = new TransferSpec(id, new Endpoint(src, gpu[i]), new Endpoint(dst, gpu[i]), laneBytes,
                        Operation.READ, 1, DataPath.GPUDIRECT, DataPath.GPUDIRECT, false, 0);
                Lane lane = new Lane(nic[i], nic[i], laneBytes);
                List<Double> usage = new ArrayList<>();
                List<Resource> path = engine.lanePath(spec, lane, usage);
                List<String> route = new ArrayList<>(path.size());
                for (int k = 0; k < path.size(); k++) {
                    if (usage.get(k) != 1.0) {
                        throw new IllegalStateException("lane " + id + " uses " + path.get(k) + " " + usage.get(k)
                                + " times per byte; SimGrid's flow model cannot express that");
                    }
                    Resource res = path.get(k);
                    links.computeIfAbsent(res.name(), n -> new FlowProblem.Link(n, res.capacity()));
                    route.add(res.name());
                }
                double cap = laneCaps ? engine.laneCap(spec, lane) : Double.POSITIVE_INFINITY;
                flows.add(new FlowProblem.FlowSpec(id, dst, t, laneBytes, route, cap));
            }
        }
        return new FlowProblem(new ArrayList<>(links.values()), flows);
    }
}
