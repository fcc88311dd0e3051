package org.rdmasim.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rdmasim.engine.SimulationClock;
import org.rdmasim.fluid.FluidNetwork;
import org.rdmasim.fluid.Resource;
import org.rdmasim.hardware.Bottleneck;
import org.rdmasim.hardware.CalibrationProfile;
import org.rdmasim.hardware.Cluster;
import org.rdmasim.hardware.FabricSpec;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.Presets;
import org.rdmasim.hardware.Units;

/**
 * A NIC's writes into GPU memory without relaxed ordering cross the slow route an Emerald Rapids host's
 * profile calibrates (openucx/ucx PR #10955: ~16 GB/s); nothing else does: relaxed writes, writes into
 * host memory, and hosts whose profile has no such route.
 */
class StrictOrderWritesTest {
    private static final WriteOrdering ALL_STRICT = (host, device, nic) -> true;

    private static TransferEngine engine(String preset, WriteOrdering ordering) {
        Cluster c = new Cluster(List.of(new Host("src", Presets.get(preset)), new Host("dst", Presets.get(preset))),
                new FabricSpec(FabricSpec.Kind.NON_BLOCKING, 1, 1.0, 130e-9), new FluidNetwork(new SimulationClock()));
        return new TransferEngine(c, ProtocolParameters.defaults(), QpRetry.UCX_DEFAULT, ordering);
    }

    private static TransferSpec write(String sinkDevice, long bytes) {
        return new TransferSpec("t", new Endpoint("src", "GPU0"), new Endpoint("dst", sinkDevice), bytes,
                Operation.WRITE, 1, DataPath.GPUDIRECT, DataPath.GPUDIRECT, false, 0);
    }

    /** The lane through GPU0's own port on both hosts: mlx5_4 on a DGX B200, mlx5_0 on a DGX H100. */
    private static List<Resource> path(TransferEngine e, TransferSpec spec) {
        String port = e.cluster().host("dst").nearestNic(e.cluster().host("dst").gpu("GPU0")).name();
        return e.lanePath(spec, new Lane(port, port, spec.bytes(), 0), new ArrayList<>());
    }

    private static boolean crossesStrictRoute(List<Resource> path) {
        return path.stream().anyMatch(r -> r.limit() instanceof Bottleneck.StrictOrderWrite);
    }

    @Test
    void aDgxB200TakesTheEmeraldRapidsProfileWithTheConnectxReadRate() {
        CalibrationProfile p = new Host("h", Presets.get("dgx-b200")).profile();
        assertEquals("emr-connectx", p.name());
        assertEquals(128, p.strictOrderGpuWriteRate().orElseThrow().value());
        assertEquals(CalibrationProfile.Kind.CALIBRATED, p.strictOrderGpuWriteRate().orElseThrow().kind());
        // inherited from connectx7 (extends=connectx7): one value in one file
        assertEquals(CalibrationProfile.named("connectx7").qpReadRate(), p.qpReadRate());
        // an Emerald Rapids host with EFA devices is still AWS's
        assertEquals("aws-efa", new Host("h", Presets.get("p6-b200.48xlarge")).profile().name());
    }

    @Test
    void onlyStrictWritesIntoGpuMemoryOnAProfiledHostCrossTheSlowRoute() {
        assertTrue(crossesStrictRoute(path(engine("dgx-b200", ALL_STRICT), write("GPU0", 1000))));
        assertFalse(crossesStrictRoute(path(engine("dgx-b200", WriteOrdering.RELAXED), write("GPU0", 1000))));
        assertFalse(crossesStrictRoute(path(engine("dgx-b200", ALL_STRICT), write("CPU0", 1000))), "host memory");
        assertFalse(crossesStrictRoute(path(engine("dgx-h100", ALL_STRICT), write("GPU0", 1000))), "no such route");
        // a READ: the sink's NIC writes the responses into the sink GPU; the source GPU is only read
        TransferSpec read = new TransferSpec("r", new Endpoint("src", "GPU0"), new Endpoint("dst", "GPU0"), 1000,
                Operation.READ, 1, DataPath.GPUDIRECT, DataPath.GPUDIRECT, false, 0);
        List<Resource> p = path(engine("dgx-b200", ALL_STRICT), read);
        assertEquals(1, p.stream().filter(r -> r.limit() instanceof Bottleneck.StrictOrderWrite).count());
        assertTrue(p.stream().anyMatch(r -> r.name().equals("dst:mlx5_4 strict-order writes into GPU memory, "
                + "calibrated to emr-connectx (openucx/ucx PR #10955)")), p.toString());
    }

    @Test
    void twoStrictPathsOfOneNicShareItsRoute() {
        TransferEngine e = engine("dgx-b200", ALL_STRICT);
        long bytes = 8_000_000_000L;
        List<TransferResult> done = new ArrayList<>();
        e.post(write("GPU0", bytes), List.of(new Lane("mlx5_4", "mlx5_4", bytes / 2, 0),
                new Lane("mlx5_4", "mlx5_4", bytes / 2, 1)), done::add);
        e.cluster().network().clock().run();
        double route = Units.gbpsToBytesPerSecond(128);
        // both paths share one 16 GB/s route: 8 GB in 0.5 s plus microseconds of latency
        assertEquals(bytes / route, done.get(0).finishSeconds(), 1e-5);
        assertEquals("dst:mlx5_4 strict-order writes into GPU memory, calibrated to emr-connectx (openucx/ucx PR #10955)",
                done.get(0).bottleneck().id());
    }
}
