package org.rdmasim.scenario;

import java.util.ArrayList;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Map;
import org.rdmasim.hardware.TopologyNode;
import org.rdmasim.memory.MemoryRegion;
import org.rdmasim.memory.RegistrationModel;
import org.rdmasim.memory.VariantRegistration;
import org.rdmasim.transport.Endpoint;
import org.rdmasim.transport.ucx.StackProfile;
import org.rdmasim.workload.TransferItem;
import org.rdmasim.engine.SimulationClock;
import org.rdmasim.fluid.FluidNetwork;
import org.rdmasim.hardware.Cluster;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.HostSpec;
import org.rdmasim.transport.ExplicitLanes;
import org.rdmasim.transport.LanePolicy;
import org.rdmasim.transport.config.NcclPathType;
import org.rdmasim.transport.ucx.UcxLaneSelection;
import org.rdmasim.importers.env.EnvEntry;
import org.rdmasim.transport.TransferEngine;
import org.rdmasim.workload.RunResult;
import org.rdmasim.workload.VariantOutcome;
import org.rdmasim.workload.WorkloadRun;

/** Builds one variant's cluster and runs its workload. */
public final class VariantRunner {
    private VariantRunner() {
    }

    public static VariantOutcome run(VariantSpec v, long seed) {
        long t0 = System.nanoTime();
        SimulationClock clock = new SimulationClock();
        FluidNetwork network = new FluidNetwork(clock);
        List<Host> hosts = new ArrayList<>();
        for (Map.Entry<String, HostSpec> e : v.hosts().entrySet()) {
            hosts.add(new Host(e.getKey(), e.getValue()));
        }
        Cluster cluster = new Cluster(hosts, v.fabric(), network);
        VariantRegistration.Outcome registration = register(v, cluster);
        if (!registration.passed()) {
            return VariantOutcome.failed(v.name(), v.description(), registration.error(), v.claim(), registration.totals());
        }
        TransferEngine engine = new TransferEngine(cluster, v.protocol());
        LanePolicy lanes = v.transport().lanes().isEmpty()
                ? new UcxLaneSelection(v.transport().stack(), v.transport().api())
                : new ExplicitLanes(v.transport().lanes());
        WorkloadRun run = new WorkloadRun(cluster, engine, lanes, new WorkloadRun.PathOptions(v.transport().gpudirect(),
                gdrLevel(v.transport().env()), v.transport().acs(), v.transport().iommuPenalty()));
        RunResult result = run.run(v.transfers());
        double wall = (System.nanoTime() - t0) / 1e9;
        return new VariantOutcome(v.name(), v.description(), VariantOutcome.Status.OK, "", result, wall, v.claim(),
                registration.totals());
    }

    /**
     * Registers every buffer the workload touches (each endpoint once, at the largest size it moves)
     * the way each process's UCX configuration would, against the variant's caps.
     */
    static VariantRegistration.Outcome register(VariantSpec v, Cluster cluster) {
        Map<String, VariantRegistration.Buffer> buffers = new LinkedHashMap<>();
        Map<String, Long> sizes = new LinkedHashMap<>();
        for (TransferItem t : v.transfers()) {
            for (Endpoint e : List.of(t.from(), t.to())) {
                sizes.merge(e.toString(), t.bufferBytes(), Math::max);
            }
        }
        for (TransferItem t : v.transfers()) {
            for (Endpoint e : List.of(t.from(), t.to())) {
                long bytes = sizes.get(e.toString());
                Host h = cluster.host(e.host());
                boolean gpu = h.find(e.device()).map(n -> n.kind() == TopologyNode.Kind.GPU).orElse(false);
                buffers.computeIfAbsent(e.toString(), k -> gpu ? VariantRegistration.Buffer.gpu(e.host(), e.device(), bytes)
                        : new VariantRegistration.Buffer(e.host(), MemoryRegion.host(e.device(), bytes)));
            }
        }
        StackProfile stack = v.transport().stack();
        return VariantRegistration.register(cluster, (host, device) -> stack.configFor(host, host.find(device).orElseThrow()),
                new ArrayList<>(buffers.values()), new RegistrationModel(v.registration().parameters()),
                v.registration().caps());
    }

    /** NCCL_NET_GDR_LEVEL when the user set one NCCL recognises; null otherwise (no path limit). */
    static NcclPathType gdrLevel(List<EnvEntry> env) {
        NcclPathType level = null;
        for (EnvEntry e : env) {
            if (e.name().equals("NCCL_NET_GDR_LEVEL")) {
                NcclPathType parsed = NcclPathType.parseLevel(e.value());
                if (parsed != null) {
                    level = parsed;
                }
            }
        }
        return level;
    }
}
