package org.rdmasim.refit.method;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rdmasim.refit.method.RefitFixture.GB;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rdmasim.engine.SimulationClock;
import org.rdmasim.fluid.FluidNetwork;
import org.rdmasim.fluid.Resource;
import org.rdmasim.hardware.Cluster;
import org.rdmasim.hardware.FabricSpec;
import org.rdmasim.hardware.Host;
import org.rdmasim.memory.RegistrationParameters;
import org.rdmasim.refit.layout.SliceRoute;
import org.rdmasim.transport.DataPath;
import org.rdmasim.transport.Endpoint;
import org.rdmasim.transport.Lane;
import org.rdmasim.transport.Operation;
import org.rdmasim.transport.ProtocolParameters;
import org.rdmasim.transport.TransferEngine;
import org.rdmasim.transport.TransferResult;
import org.rdmasim.transport.TransferSpec;
import org.rdmasim.workload.RefitRegistrationMode;

/** checkpoint-engine's P2P update ({@link CheckpointUpdate}): who reads what, when, and what each updated rank receives. */
class CheckpointEngineP2pTest {
    private static final long TENSORS = 40;

    private static RefitResult run(List<SliceRoute> routes, long payload, long bucket, int ranks, int cycles) {
        RefitPlan plan = RefitPlan.of(routes, RefitFixture::trainer, RefitFixture::inference,
                CheckpointEngine.p2p(new Buckets(bucket, true), ranks)).withBroadcastBytes(payload)
                .withBroadcastTensors(TENSORS).withRegistration(Registration.none(), cycles);
        return RefitRun.run(RefitFixture.twoHosts(), FabricSpec.nonBlocking(), plan, RefitFixture.nearestNic());
    }

    /** Trainer rank 0 owns everything; inference rank 0 needs all of {@code bytes}. */
    private static List<SliceRoute> oneToOne(long bytes) {
        return List.of(new SliceRoute(0, 0, bytes, (int) TENSORS, 4));
    }

    /**
     * One RDMA READ, the owner's host memory to the receiver's GPU, from first principles: Mooncake's two QPs on
     * the same pair of devices each carry half the bytes at the lower of one QP's cap (its READ rate) and half
     * the path's narrowest capacity over its usage (both share every resource), plus the READ's fixed costs
     * (posting, the request crossing to the owner, one fragment, the data's one-way latency back).
     */
    private static double hostReadSeconds(long bytes) {
        Cluster c = new Cluster(RefitFixture.twoHosts(), FabricSpec.nonBlocking(),
                new FluidNetwork(new SimulationClock()));
        ProtocolParameters p = ProtocolParameters.defaults();
        TransferEngine engine = new TransferEngine(c, p);
        TransferSpec spec = new TransferSpec("x", new Endpoint("train", "CPU0"), RefitFixture.inference(0), bytes,
                Operation.READ, 1, DataPath.HOST_MEMORY, DataPath.GPUDIRECT, false, 0);
        // each rank's Transfer Engine opens the RDMA device of its local rank: GPU0's, mlx5_0, on both hosts
        int qps = CheckpointUpdate.MOONCAKE_QPS_PER_ENDPOINT;
        assertEquals(2, qps, "Mooncake's num_qp_per_ep default");
        Lane lane = new Lane("mlx5_0", "mlx5_0", bytes / qps);
        List<Double> usage = new ArrayList<>();
        List<Resource> path = engine.lanePath(spec, lane, usage);
        double path1 = Double.POSITIVE_INFINITY;
        for (int i = 0; i < path.size(); i++) {
            path1 = Math.min(path1, path.get(i).capacity() / usage.get(i));
        }
        double rate = Math.min(engine.laneCap(spec, lane), path1 / qps);
        double oneWay = engine.oneWayLatency(spec, lane);
        return (double) (bytes / qps) / rate + p.perDescriptorSeconds() + oneWay + p.perFragmentSeconds() + oneWay;
    }

    /** The h2d buffer (one bucket) registered with the Transfer Engine at every update: one MR on one HCA. */
    private static double registerSeconds(long bucket) {
        return new Registration(RefitRegistrationMode.ARENA, 0, false, 1, 1).seconds(RegistrationParameters.defaults(),
                bucket, 1);
    }

    /**
     * One owner, one updated rank, one bucket: the update registers its h2d buffer (g), reads the bucket from the
     * owner's host memory (r), copies it into the broadcast buffer (c), pays the bucket's fixed cost (t0),
     * broadcasts to nobody, and the engine loads it: one call per tensor (n x l) and the copy of its bytes (c);
     * then the update's end (e).
     */
    @Test
    void oneBucketIsRegisterReadCopyCallAndLoad() {
        long b = GB;
        double g = registerSeconds(b);
        double r = hostReadSeconds(b);
        double c = 2.0 * b / RefitFixture.hbm();
        double t0 = RefitFixture.dispatch();
        double l = RefitCalibration.defaults().value(RefitCalibration.LOAD_TENSOR);
        assertTrue(g > 0 && r > 0 && l > 0, "the test's premise: every term counts");
        RefitResult res = run(oneToOne(b), b, b, 1, 1);
        double expected = g + r + c + t0 + TENSORS * l + c + RefitFixture.updateEnd();
        assertEquals(expected, res.firstCycleSeconds(), expected * 1e-9);
        assertEquals(b, res.cycles().get(0).received().get(0));
        assertEquals(b, res.cycles().get(0).wireBytes());
    }

    /**
     * Two buckets of one owner, one receiver: the second iteration's read starts once the first bucket is handed
     * to the engine (after its copy and call), the engine's load of the first runs meanwhile, and the second
     * bucket is handed over only once the first is loaded (the {@code socket.recv()} before each send); the
     * update's end follows the last load.
     */
    @Test
    void nextReadOverlapsTheLoadAndTheNextHandOverWaitsForIt() {
        long b = GB;
        double g = registerSeconds(b);
        double r = hostReadSeconds(b);
        double c = 2.0 * b / RefitFixture.hbm();
        double t0 = RefitFixture.dispatch();
        double load = TENSORS / 2 * RefitCalibration.defaults().value(RefitCalibration.LOAD_TENSOR) + c;
        RefitResult res = run(oneToOne(2 * b), 2 * b, b, 1, 1);
        double expected = g + r + c + t0 + Math.max(r + c + t0, load) + load + RefitFixture.updateEnd();
        assertEquals(expected, res.firstCycleSeconds(), expected * 1e-9);
        List<TransferResult> reads = res.transfers();
        assertEquals(2, reads.size());
        assertEquals(reads.get(0).finishSeconds() + c + t0, reads.get(1).startSeconds(), 1e-12);
    }

    /**
     * Byte conservation: every updated rank ends with the whole payload, once; the wire carries it once read
     * and once per other updated rank broadcast; a rank outside the update receives nothing.
     */
    @Test
    void everyUpdatedRankGetsThePayloadOnceAndNoOtherRankAny() {
        long payload = 4 * GB;
        RefitResult.Cycle all = run(RefitFixture.twoByTwo(GB), payload, GB, 2, 1).cycles().get(0);
        assertEquals(Map.of(0, payload, 1, payload), all.received());
        assertEquals(2 * payload, all.wireBytes());
        RefitResult.Cycle first = run(RefitFixture.twoByTwo(GB), payload, GB, 1, 1).cycles().get(0);
        assertEquals(payload, first.received().get(0));
        assertNull(first.received().get(1));
        assertEquals(payload, first.wireBytes());
    }

    /** Two owners (trainer GPUs 0 and 1, each its own NIC) and two receivers: each read leaves by its owner's NIC. */
    @Test
    void readsLeaveByTheOwnersDeviceAndEnterByTheReceivers() {
        RefitResult res = run(RefitFixture.twoByTwo(GB), 4 * GB, GB, 2, 1);
        for (TransferResult t : res.transfers()) {
            assertEquals("train", t.spec().source().host());
            assertTrue(t.spec().source().device().startsWith("CPU"), "read from host memory: " + t.spec().source());
            assertEquals(CheckpointUpdate.MOONCAKE_QPS_PER_ENDPOINT, t.lanes().size());
            String owner = t.spec().id().replaceAll(".*/t([0-9]+)-i([0-9]+)@.*", "$1");
            String receiver = t.spec().id().replaceAll(".*/t([0-9]+)-i([0-9]+)@.*", "$2");
            for (var lane : t.lanes()) {
                assertEquals("mlx5_" + owner, lane.sourceNic());
                assertEquals("mlx5_" + receiver, lane.sinkNic());
            }
        }
        assertEquals(4, res.transfers().size());
    }

    @Test
    void bucketsNeverSpanOwnersAndCoverThePayload() {
        List<CheckpointUpdate.Bucket> b = CheckpointUpdate.buckets(3, 10 * GB, 2 * GB);
        // shares 3.33, 3.33, 3.33 GB: two buckets each (2 GB and the rest)
        assertEquals(6, b.size());
        long sum = 0;
        long at = 0;
        for (CheckpointUpdate.Bucket x : b) {
            assertEquals(at, x.from());
            at += x.size();
            sum += x.size();
            assertTrue(x.from() >= CheckpointUpdate.shareStart(10 * GB, 3, x.owner())
                    && x.from() + x.size() <= CheckpointUpdate.shareStart(10 * GB, 3, x.owner() + 1));
        }
        assertEquals(10 * GB, sum);
    }

    /**
     * checkpoint-engine's {@code _assign_receiver_ranks} on two cases, the expected lists being what its Python
     * returns for them (MoonshotAI/checkpoint-engine ps.py @415c3205 L599-654, run on the same input).
     */
    @Test
    void receiversAreAssignedAsCheckpointEngineDoes() {
        // owner 0 on device A with three buckets, owner 1 on B with one; ranks 0, 1, 2 each their own device:
        // two receivers (two owner devices); the second round ends at a2, A being taken by a1
        List<CheckpointUpdate.Bucket> b = List.of(new CheckpointUpdate.Bucket(0, 0, 1), new CheckpointUpdate.Bucket(0, 1, 1),
                new CheckpointUpdate.Bucket(0, 2, 1), new CheckpointUpdate.Bucket(1, 3, 1));
        List<CheckpointUpdate.Assigned> got = CheckpointUpdate.assign(b, o -> o == 0 ? "A" : "B", List.of(0, 1, 2), r -> "X" + r);
        assertEquals(List.of(new CheckpointUpdate.Assigned(0, b.get(0)), new CheckpointUpdate.Assigned(1, b.get(3)),
                new CheckpointUpdate.Assigned(0, b.get(1)), new CheckpointUpdate.Assigned(0, b.get(2))), got);
        // ranks 0, 1 share device X, ranks 2, 3 device Y: receivers 0 and 2; owners 0, 1 on A, 2, 3 on B
        List<CheckpointUpdate.Bucket> c = List.of(new CheckpointUpdate.Bucket(0, 0, 1), new CheckpointUpdate.Bucket(0, 1, 1),
                new CheckpointUpdate.Bucket(1, 2, 1), new CheckpointUpdate.Bucket(2, 3, 1), new CheckpointUpdate.Bucket(3, 4, 1),
                new CheckpointUpdate.Bucket(3, 5, 1));
        List<CheckpointUpdate.Assigned> got2 = CheckpointUpdate.assign(c, o -> o < 2 ? "A" : "B", List.of(0, 1, 2, 3),
                r -> r < 2 ? "X" : "Y");
        assertEquals(List.of(new CheckpointUpdate.Assigned(0, c.get(0)), new CheckpointUpdate.Assigned(2, c.get(3)),
                new CheckpointUpdate.Assigned(0, c.get(1)), new CheckpointUpdate.Assigned(2, c.get(4)),
                new CheckpointUpdate.Assigned(0, c.get(2)), new CheckpointUpdate.Assigned(2, c.get(5))), got2);
    }

    @Test
    void devicesSplitOverGpusAsCheckpointEngineDoes() {
        Host h = RefitFixture.twoHosts().get(0);
        assertEquals("mlx5_0", CheckpointUpdate.device(h, h.gpu("GPU0"), org.rdmasim.transport.config.NcclIbHca.unset()).name());
        assertEquals("mlx5_1", CheckpointUpdate.device(h, h.gpu("GPU1"), org.rdmasim.transport.config.NcclIbHca.unset()).name());
        // NCCL_IB_HCA naming one device: both local ranks share it
        org.rdmasim.transport.config.NcclIbHca one = org.rdmasim.transport.config.NcclIbHca.parse("=mlx5_1");
        assertEquals("mlx5_1", CheckpointUpdate.device(h, h.gpu("GPU0"), one).name());
        assertEquals("mlx5_1", CheckpointUpdate.device(h, h.gpu("GPU1"), one).name());
    }

    @Test
    void moreUpdatedRanksThanThePlanHasIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> run(RefitFixture.twoByTwo(GB), 4 * GB, GB, 3, 1));
        assertTrue(e.getMessage().contains("3 ranks"), e.getMessage());
    }
}
