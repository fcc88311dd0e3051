package org.rdmasim.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rdmasim.engine.SimulationClock;
import org.rdmasim.fluid.FluidNetwork;
import org.rdmasim.hardware.Bottleneck;
import org.rdmasim.hardware.Cluster;
import org.rdmasim.hardware.CpuFamily;
import org.rdmasim.hardware.FabricSpec;
import org.rdmasim.hardware.GpuModel;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.HostSpec;
import org.rdmasim.hardware.LinkLayer;
import org.rdmasim.hardware.LinkSpec;
import org.rdmasim.hardware.NicModel;
import org.rdmasim.hardware.Presets;

class TransferEngineTest {
    private static final long SIZE = 16_000_000_000L;
    private static final double IB_EFFICIENCY = 4096.0 / 4140.0;

    /** A host whose GPU reaches k NICs over links far wider than the NICs, so lanes are independent. */
    private static HostSpec wideHost(int nics) {
        List<HostSpec.DeviceSpec> devices = new ArrayList<>();
        devices.add(new HostSpec.GpuSpec("GPU0", GpuModel.B200, LinkSpec.c2c(10e12), GpuModel.B200.hbmBytes(),
                GpuModel.B200.bar1Bytes(), 0));
        for (int i = 0; i < nics; i++) {
            devices.add(new HostSpec.NicSpec("mlx5_" + i, NicModel.CX7, LinkLayer.INFINIBAND, LinkSpec.c2c(10e12), 1,
                    400, true));
        }
        return new HostSpec("wide", CpuFamily.OTHER, 0, List.of(new HostSpec.SocketSpec(0, 10e12, 1L << 40, "", devices)),
                "test");
    }

    private record Run(TransferResult result, TransferEngine engine, TransferSpec spec, List<Lane> lanes) {
    }

    private static Run pull(HostSpec hostSpec, Operation op, int lanes) {
        SimulationClock clock = new SimulationClock();
        FluidNetwork net = new FluidNetwork(clock);
        Cluster cluster = new Cluster(List.of(new Host("src", hostSpec), new Host("dst", hostSpec)),
                FabricSpec.nonBlocking(), net);
        TransferEngine engine = new TransferEngine(cluster, ProtocolParameters.defaults());
        TransferSpec spec = new TransferSpec("t", new Endpoint("src", "GPU0"), new Endpoint("dst", "GPU0"), SIZE, op, 1,
                DataPath.GPUDIRECT, DataPath.GPUDIRECT, false, 0);
        List<LaneSplit.Candidate> cands = new ArrayList<>();
        for (int i = 0; i < lanes; i++) {
            cands.add(new LaneSplit.Candidate("mlx5_" + i, "mlx5_" + i, 1));
        }
        List<Lane> split = LaneSplit.split(SIZE, cands, LaneSplit.MinChunk.rma(8192));
        List<TransferResult> out = new ArrayList<>();
        engine.post(spec, split, out::add);
        clock.run();
        assertEquals(1, out.size());
        return new Run(out.get(0), engine, spec, split);
    }

    private static double fixedCosts(Run r) {
        ProtocolParameters p = r.engine().parameters();
        double oneWay = r.engine().oneWayLatency(r.spec(), r.lanes().get(0));
        double request = r.spec().operation() == Operation.READ ? oneWay : 0;
        return p.perDescriptorSeconds() + p.perFragmentSeconds() + request + oneWay;
    }

    @Test
    void writeOverOne400gNicTakesSizeOverWireRatePlusProtocolCosts() {
        Run r = pull(wideHost(1), Operation.WRITE, 1);
        double wire = SIZE * 8.0 / (400e9 * IB_EFFICIENCY);
        assertEquals(wire + fixedCosts(r), r.result().seconds(), 1e-9);
        Bottleneck held = r.result().bottleneck();
        assertTrue(held.equals(new Bottleneck.NicWire("dst", "mlx5_0", Bottleneck.Side.RX, null))
                || held.equals(new Bottleneck.NicWire("src", "mlx5_0", Bottleneck.Side.TX, null)), held.id());
    }

    @Test
    void kIndependentLanesTakeOneKthOfTheDataTime() {
        Run one = pull(wideHost(4), Operation.WRITE, 1);
        double data1 = one.result().seconds() - fixedCosts(one);
        for (int k = 2; k <= 4; k++) {
            Run r = pull(wideHost(4), Operation.WRITE, k);
            double dataK = r.result().seconds() - fixedCosts(r);
            // Shares are 16.16 fixed-point fractions; the last lane takes the rounding remainder, so a
            // split that is not a power of two is even only to within a few 1/65536 of the size.
            assertEquals(data1 / k, dataK, 3.0 / 65536 * data1, "k=" + k);
        }
    }

    @Test
    void readOverOneQpOfAConnectX7IsHeldByItsCalibratedReadRate() {
        // UCX's 38e9 READ path figure is an estimate and caps nothing; what holds one QP is the READ rate
        // of profile connectx7, 320 Gbps, calibrated to pegaflow #291 (ConnectX-7 ib_read_bw, 1 QP).
        Run r = pull(wideHost(1), Operation.READ, 1);
        double expected = SIZE / (320e9 / 8);
        assertEquals(expected + fixedCosts(r), r.result().seconds(), 1e-9);
        assertEquals(new Bottleneck.QpReadRate("dst", "mlx5_0", "connectx7"), r.result().bottleneck());
        assertEquals("dst:mlx5_0 READ rate of one QP, calibrated to connectx7 (novitalabs/pegaflow #291)",
                r.result().bottleneck().id());
    }

    @Test
    void lanesOfOneDgxGpuShareItsPcieLink() {
        HostSpec dgx = Presets.get("dgx-h100");
        Run r = pull(dgx, Operation.WRITE, 2);
        // Both lanes leave GPU0 through its one Gen5 x16 link: 56.4 GB/s less than two NICs' 98.9 GB/s.
        double pcie = LinkSpec.pcie(org.rdmasim.hardware.PcieGen.GEN5, 16).bytesPerSecond();
        assertEquals(SIZE / pcie + fixedCosts(r), r.result().seconds(), 1e-6);
        assertTrue(r.result().bottleneck() instanceof Bottleneck.Link l && l.device().equals("GPU0")
                && l.type() == LinkSpec.LinkType.PCIE, r.result().bottleneck().id());
    }

    @Test
    void hostStagingCrossesHostMemoryTwiceAndAddsLatency() {
        HostSpec dgx = Presets.get("dgx-h100");
        SimulationClock clock = new SimulationClock();
        FluidNetwork net = new FluidNetwork(clock);
        Cluster cluster = new Cluster(List.of(new Host("src", dgx), new Host("dst", dgx)), FabricSpec.nonBlocking(), net);
        TransferEngine engine = new TransferEngine(cluster, ProtocolParameters.defaults());
        TransferSpec gdr = new TransferSpec("g", new Endpoint("src", "GPU0"), new Endpoint("dst", "GPU0"), 1024, Operation.WRITE,
                1, DataPath.GPUDIRECT, DataPath.GPUDIRECT, false, 0);
        TransferSpec staged = new TransferSpec("s", new Endpoint("src", "GPU0"), new Endpoint("dst", "GPU0"), 1024,
                Operation.WRITE, 1, DataPath.STAGED, DataPath.STAGED, false, 0);
        Lane lane = new Lane("mlx5_0", "mlx5_0", 1024);
        double gdrLatency = engine.oneWayLatency(gdr, lane);
        double stagedLatency = engine.oneWayLatency(staged, lane);
        // [gdr-kb-guide]: GPUDirect ~2-5 us, host staging ~10-20 us one way.
        assertTrue(gdrLatency >= 1e-6 && gdrLatency <= 5e-6, "GPUDirect one-way " + gdrLatency);
        assertTrue(stagedLatency >= 10e-6 && stagedLatency <= 20e-6, "staged one-way " + stagedLatency);
        List<Double> usage = new ArrayList<>();
        var path = engine.lanePath(staged, lane, usage);
        int memoryCrossings = 0;
        for (int i = 0; i < path.size(); i++) {
            if (path.get(i).name().contains("memory")) {
                assertEquals(2.0, usage.get(i));
                memoryCrossings++;
            }
        }
        assertEquals(2, memoryCrossings, "one bounce buffer on each side");
    }
}
