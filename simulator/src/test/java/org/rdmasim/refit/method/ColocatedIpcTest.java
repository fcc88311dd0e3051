package org.rdmasim.refit.method;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rdmasim.refit.method.RefitFixture.GB;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rdmasim.engine.SimulationClock;
import org.rdmasim.fluid.FluidNetwork;
import org.rdmasim.fluid.Resource;
import org.rdmasim.hardware.Cluster;
import org.rdmasim.hardware.FabricSpec;
import org.rdmasim.hardware.GpuModel;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.TopologyNode;
import org.rdmasim.refit.layout.SliceRoute;
import org.rdmasim.refit.model.DType;
import org.rdmasim.refit.model.Tensor;
import org.rdmasim.refit.model.TensorRole;
import org.rdmasim.transport.Endpoint;

/**
 * A colocated refit on one host of two H100s: trainer rank r and inference rank r share GPU r. Four BF16 tensors
 * of 1 GB in buckets of 2 GB (two buckets of two tensors, one dtype); each trainer rank holds half the model and
 * each inference rank needs 2 GB of it.
 */
class ColocatedIpcTest {
    private static final long BUCKET = 2 * GB;

    private static Tensor tensor(String name, long bytes, DType dtype) {
        return new Tensor(name, List.of(bytes / dtype.bytesPerElement()), dtype, TensorRole.REPLICATED, 0, -1);
    }

    private static List<Tensor> fourGigabytes() {
        List<Tensor> out = new ArrayList<>();
        for (int k = 0; k < 4; k++) {
            out.add(tensor("w" + k, GB, DType.BF16));
        }
        return out;
    }

    private static RefitResult run(List<SliceRoute> routes, ColocatedIpc method, int cycles) {
        RefitPlan plan = new RefitPlan(routes, RefitFixture::trainer, RefitFixture::trainer, 0, method,
                Preparation.NONE, Registration.none(), RefitCalibration.defaults(), cycles);
        return RefitRun.run(List.of(new Host("train", RefitFixture.twoPairs())), FabricSpec.nonBlocking(), plan,
                RefitFixture.nearestNic());
    }

    private static ColocatedIpc method(int depth, boolean bounce, boolean perTensor) {
        return new ColocatedIpc(ColocatedIpc.pack(fourGigabytes(), BUCKET), depth, bounce, perTensor);
    }

    private static double value(String key) {
        return RefitCalibration.defaults().value(key);
    }

    /** The rate of a lone copy from the GPU up into host memory of its socket. */
    private static double d2hRate(Endpoint e) {
        Cluster c = new Cluster(List.of(new Host("train", RefitFixture.twoPairs())), FabricSpec.nonBlocking(),
                new FluidNetwork(new SimulationClock()));
        Host h = c.host(e.host());
        TopologyNode g = h.gpu(e.device());
        double rate = c.hostMemory(h, g.socket()).capacity();
        for (Resource r : c.toSocket(h, g, g.socket())) {
            rate = Math.min(rate, r.capacity());
        }
        return rate;
    }

    @Test
    void packsWholeTensorsAsSlimeDoes() {
        List<ColocatedIpc.Chunk> chunks = ColocatedIpc.pack(fourGigabytes(), BUCKET);
        assertEquals(List.of(new ColocatedIpc.Chunk(2 * GB, 2, 1), new ColocatedIpc.Chunk(2 * GB, 2, 1)), chunks);
        // a tensor larger than the bucket gets one of its own; a bucket of two dtypes exports two handles
        List<Tensor> mixed = List.of(tensor("a", GB, DType.BF16), tensor("b", 3 * GB, DType.BF16),
                tensor("c", GB / 2, DType.FP32), tensor("d", GB / 2, DType.BF16));
        assertEquals(List.of(new ColocatedIpc.Chunk(GB, 1, 1), new ColocatedIpc.Chunk(3 * GB, 1, 1),
                new ColocatedIpc.Chunk(GB, 2, 2)), ColocatedIpc.pack(mixed, BUCKET));
        assertThrows(IllegalArgumentException.class, () -> ColocatedIpc.pack(mixed, 0));
    }

    @Test
    void everyInferenceRankGetsExactlyItsNeedsAndNothingCrossesANic() {
        // odd sizes: the per-bucket shares must still add up to each rank's needs, every cycle
        List<Tensor> odd = List.of(tensor("a", 1_000_000_006L, DType.BF16), tensor("b", 777_777_778L, DType.BF16),
                tensor("c", 123_456_790L, DType.BF16));
        ColocatedIpc m = new ColocatedIpc(ColocatedIpc.pack(odd, 900_000_000L), 2, true, false);
        List<SliceRoute> routes = List.of(new SliceRoute(0, 0, 700_000_001L, 3, 3),
                new SliceRoute(1, 0, 250_000_003L, 3, 3), new SliceRoute(0, 1, 951_234_573L, 3, 3),
                new SliceRoute(1, 1, 1L, 1, 1));
        RefitResult r = run(routes, m, 2);
        for (RefitResult.Cycle c : r.cycles()) {
            assertEquals(950_000_004L, c.received().get(0));
            assertEquals(951_234_574L, c.received().get(1));
            assertEquals(0, c.wireBytes());
            assertEquals(0, c.stage(RefitStage.WIRE));
            assertEquals(0, c.stage(RefitStage.REGISTER));
        }
    }

    /**
     * By hand, per bucket of B = 2 GB: each rank gathers the half of it it does not hold over NVLink (g = 1 GB at
     * 18 links x 25 GB/s), flattens it in HBM (f = 2B / HBM), the call costs t0, and each engine rank opens one
     * handle (o), loads two tensors (2l) and copies its share, 1 GB (c = 2 GB / HBM). One buffer: every bucket pays
     * all of it. Two: the second bucket is gathered during the first's call, so the wall is F + 2 t0 + D.
     */
    @Test
    void aBucketCostsItsGatherFlattenCallAndInstallFromFirstPrinciples() {
        double hbm = GpuModel.H100.hbmBytesPerSecond();
        double g = GB / (18 * 25e9);
        double f = 2.0 * BUCKET / hbm;
        double t0 = value(RefitCalibration.BUCKET);
        double o = value(RefitCalibration.IPC_OPEN);
        double l = value(RefitCalibration.LOAD_TENSOR);
        double c = 2.0 * GB / hbm;
        double fill = g + f;
        double install = o + 2 * l + c;
        assertTrue(fill < t0 && install < t0, "the test's premise: the call is the longest step");
        List<SliceRoute> routes = RefitFixture.twoByTwo(GB);
        double serial = run(routes, method(1, false, false), 1).firstCycleSeconds();
        assertEquals(2 * (fill + t0 + install), serial, serial * 1e-9);
        double prefetch = run(routes, method(2, false, false), 1).firstCycleSeconds();
        assertEquals(fill + 2 * t0 + install, prefetch, prefetch * 1e-9);
        // one handle per tensor: each bucket opens two handles instead of one
        double perTensor = run(routes, method(1, false, true), 1).firstCycleSeconds();
        assertEquals(serial + 2 * o, perTensor, perTensor * 1e-9);
    }

    /** Inference loading FP8 from a BF16 trainer: each rank quantises every bucket, 2 bytes read and 1 written per FP8 byte, at HBM rate. */
    @Test
    void aQuantisingRefitConvertsEveryBucketAtHbmRate() {
        List<SliceRoute> routes = RefitFixture.twoByTwo(GB);
        RefitPlan plain = new RefitPlan(routes, RefitFixture::trainer, RefitFixture::trainer, 0, method(1, false, false),
                Preparation.NONE, Registration.none(), RefitCalibration.defaults(), 1);
        List<Host> hosts = List.of(new Host("train", RefitFixture.twoPairs()));
        double base = RefitRun.run(hosts, FabricSpec.nonBlocking(), plain, RefitFixture.nearestNic()).firstCycleSeconds();
        double fp8 = RefitRun.run(hosts, FabricSpec.nonBlocking(), plain.withPreparation(Preparation.bf16ToFp8(1)),
                RefitFixture.nearestNic()).firstCycleSeconds();
        assertEquals(base + 2 * 3.0 * BUCKET / GpuModel.H100.hbmBytesPerSecond(), fp8, fp8 * 1e-9);
    }

    /** The host bounce copies each bucket to host memory and back over PCIe: 2 x (B / D2H + B / H2D) a cycle, one bucket at a time. */
    @Test
    void theHostBounceAddsTwoPcieCopiesOfEveryBucket() {
        List<Host> hosts = List.of(new Host("train", RefitFixture.twoPairs()));
        Endpoint gpu = RefitFixture.trainer(0);
        double up = d2hRate(gpu);
        double down = RefitFixture.h2dRate(hosts, gpu);
        // both GPUs copy at once: the test's premise is that the socket's memory carries both at their links' rates
        assertTrue(2 * Math.max(up, down) < 307.2e9, "host memory is not the bound here");
        List<SliceRoute> routes = RefitFixture.twoByTwo(GB);
        RefitResult plain = run(routes, method(1, false, false), 1);
        RefitResult bounce = run(routes, method(1, true, false), 1);
        double added = 2 * (BUCKET / up + BUCKET / down);
        assertEquals(plain.firstCycleSeconds() + added, bounce.firstCycleSeconds(), bounce.firstCycleSeconds() * 1e-9);
        assertEquals(added, bounce.cycles().get(0).stage(RefitStage.H2D), added * 1e-9);
        assertEquals(0, plain.cycles().get(0).stage(RefitStage.H2D));
    }

    @Test
    void refusesWhatItCannotRun() {
        assertThrows(IllegalArgumentException.class, () -> new ColocatedIpc(List.of(), 1, false, false));
        assertThrows(IllegalArgumentException.class,
                () -> new ColocatedIpc(ColocatedIpc.pack(fourGigabytes(), BUCKET), 0, false, false));
        assertThrows(IllegalArgumentException.class, () -> new ColocatedIpc.Chunk(GB, 1, 2));
    }
}
