package org.rdmasim.scenario;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.rdmasim.engine.SimulationClock;
import org.rdmasim.fluid.FluidNetwork;
import org.rdmasim.hardware.Cluster;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.HostSpec;
import org.rdmasim.transport.ExplicitLanes;
import org.rdmasim.transport.LanePolicy;
import org.rdmasim.transport.NearestNicLanes;
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
        TransferEngine engine = new TransferEngine(cluster, v.protocol());
        LanePolicy lanes = v.transport().lanes().isEmpty() ? new NearestNicLanes() : new ExplicitLanes(v.transport().lanes());
        WorkloadRun run = new WorkloadRun(cluster, engine, lanes,
                new WorkloadRun.PathOptions(v.transport().gpudirect(), v.transport().acs(), v.transport().iommuPenalty()));
        RunResult result = run.run(v.transfers());
        double wall = (System.nanoTime() - t0) / 1e9;
        return new VariantOutcome(v.name(), v.description(), VariantOutcome.Status.OK, "", result, wall);
    }
}
