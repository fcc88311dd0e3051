package org.rdmasim.refit.method;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rdmasim.refit.method.RefitFixture.GB;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rdmasim.hardware.CalibrationProfile;
import org.rdmasim.hardware.FabricSpec;
import org.rdmasim.hardware.Host;
import org.rdmasim.refit.layout.InferenceLayout;
import org.rdmasim.refit.layout.SliceMap;
import org.rdmasim.refit.layout.SliceRoute;
import org.rdmasim.refit.layout.TrainerLayout;
import org.rdmasim.refit.model.DType;
import org.rdmasim.refit.model.Tensor;
import org.rdmasim.refit.model.TensorRole;
import org.rdmasim.transport.TransferResult;

/**
 * vLLM's sharded RDT engine (vllm-project/vllm docs/training/weight_transfer/sharded_rdt.md; sharded_rdt_common.py
 * RdtRouter): one pull per gather group from one producer, reads serialized per consumer, a scatter wait per pull,
 * produce calls one at a time per producer.
 */
class ShardedRdtTest {
    private static final TrainerLayout ONE = new TrainerLayout(1, 1, 1, 1, 1, 1);

    private static double pack() {
        return RefitCalibration.defaults().value(RefitCalibration.RDT_PACK);
    }

    private static double scatter() {
        return RefitCalibration.defaults().value(RefitCalibration.RDT_SCATTER);
    }

    /** {@code groups} groups of {@code bytes} each, every consumer pulling all of each. */
    private static ShardedRdt method(TrainerLayout t, int consumers, int groups, long bytes, boolean spare) {
        List<ShardedRdt.Unit> units = new ArrayList<>();
        for (int c = 0; c < consumers; c++) {
            for (int g = 0; g < groups; g++) {
                units.add(new ShardedRdt.Unit(c, g, -1, bytes));
            }
        }
        long[] size = new long[groups];
        java.util.Arrays.fill(size, bytes);
        return new ShardedRdt(t, consumers, new int[groups], size, units, spare);
    }

    private static RefitResult.Cycle run(List<Host> hosts, List<SliceRoute> routes, ShardedRdt m,
            java.util.function.IntFunction<org.rdmasim.transport.Endpoint> inference) {
        RefitPlan plan = RefitPlan.of(routes, RefitFixture::trainer, inference, m);
        return RefitRun.run(hosts, FabricSpec.nonBlocking(), plan, RefitFixture.nearestNic()).cycles().get(0);
    }

    /** assign_producer_indices and RdtRouter.producer_for, worked by hand from their code. */
    @Test
    void theRouterBindsBlocksAndRotatesByGroup() {
        assertEquals(List.of(3), ShardedRdt.block(8, 8, 3));
        assertEquals(List.of(6, 7), ShardedRdt.block(16, 8, 3));
        assertEquals(List.of(2), ShardedRdt.block(4, 8, 5));
        ShardedRdt m = method(new TrainerLayout(1, 1, 1, 1, 1, 16), 8, 4, 1, false);
        // gather to all: consumer 3 binds producers 6 and 7 and alternates between them by group
        assertEquals(6, m.producerFor(3, 0, -1));
        assertEquals(7, m.producerFor(3, 1, -1));
        assertEquals(6, m.producerFor(3, 2, -1));
        // two pipeline stages of 4 ranks: a stage-1 group is owned by ranks 4-7; EP 2 within a stage splits them
        TrainerLayout pp = new TrainerLayout(2, 2, 2, 1, 1, 2);
        ShardedRdt staged = new ShardedRdt(pp, 2, new int[] {0, 1}, new long[] {1, 1},
                List.of(new ShardedRdt.Unit(0, 1, 1, 1)), false);
        assertEquals(List.of(4, 5, 6, 7), staged.owners(1, -1));
        assertEquals(List.of(5, 7), staged.owners(1, 1), "expert coordinate (rank / etp) % ep");
        assertEquals(5, staged.producerFor(0, 1, 1));
        assertEquals(7, staged.producerFor(1, 1, 1));
    }

    /**
     * One producer, one consumer, n groups of B bytes, no gather: the first produce call (p), then each group's
     * READ (T) and its scatter wait (s), the next produce call hidden under the READ: p + n (T + s). With a spare
     * slot the waits go: p + n T.
     */
    @Test
    void aConsumersPullsAreSerialWithAScatterWaitEach() {
        List<Host> hosts = RefitFixture.twoHosts();
        long b = GB;
        int n = 4;
        double t = RefitFixture.readSeconds(hosts, RefitFixture.trainer(0), RefitFixture.inference(0), b);
        assertTrue(pack() < t, "the test's premise: a produce call hides under the previous READ");
        List<SliceRoute> routes = List.of(new SliceRoute(0, 0, n * b, n, n));
        RefitResult.Cycle c = run(hosts, routes, method(ONE, 1, n, b, false), RefitFixture::inference);
        double expected = pack() + n * (t + scatter());
        assertEquals(expected, c.seconds(), expected * 1e-6);
        assertEquals(n * b, c.received().get(0), "bytes conserved");
        RefitResult.Cycle spare = run(hosts, routes, method(ONE, 1, n, b, true), RefitFixture::inference);
        assertEquals(pack() + n * t, spare.seconds(), expected * 1e-6);
    }

    /**
     * Two consumers on one producer with tiny pulls: the producer's sidecar makes one produce call at a time, so
     * the cycle is at least the 2 n calls end to end, and the two consumers' reads come from the same producer GPU.
     */
    @Test
    void oneProducerServesItsConsumersOneCallAtATime() {
        List<Host> hosts = RefitFixture.twoHosts();
        int n = 5;
        long b = 1_000_000;
        List<SliceRoute> routes = List.of(new SliceRoute(0, 0, n * b, n, n), new SliceRoute(0, 1, n * b, n, n));
        RefitPlan plan = RefitPlan.of(routes, RefitFixture::trainer, RefitFixture::inference, method(ONE, 2, n, b, true));
        RefitResult r = RefitRun.run(hosts, FabricSpec.nonBlocking(), plan, RefitFixture.nearestNic());
        RefitResult.Cycle c = r.cycles().get(0);
        assertTrue(c.seconds() >= 2 * n * pack() - 1e-12, c.seconds() + " s against " + 2 * n * pack());
        assertTrue(c.seconds() < 2 * n * pack() + 0.01, c.seconds() + " s: the calls bound it");
        assertEquals(2 * n, r.transfers().size(), "one READ per group per consumer");
        for (TransferResult x : r.transfers()) {
            assertEquals(RefitFixture.trainer(0), x.spec().source());
            assertEquals(1, x.spec().descriptors(), "one packed blob a pull");
        }
    }

    /** The stage costs come from the scenario's parameters: a larger scatter wait adds n times the difference. */
    @Test
    void theScatterWaitIsAParameter() {
        List<Host> hosts = RefitFixture.twoHosts();
        int n = 3;
        List<SliceRoute> routes = List.of(new SliceRoute(0, 0, n * GB, n, n));
        RefitPlan plan = RefitPlan.of(routes, RefitFixture::trainer, RefitFixture::inference, method(ONE, 1, n, GB, false));
        double base = RefitRun.run(hosts, FabricSpec.nonBlocking(), plan, RefitFixture.nearestNic()).cycles().get(0)
                .seconds();
        RefitPlan slower = plan.withCalibration(RefitCalibration.defaults().with(RefitCalibration.RDT_SCATTER, 0.1,
                CalibrationProfile.Kind.ASSUMED, "test"));
        double more = RefitRun.run(hosts, FabricSpec.nonBlocking(), slower, RefitFixture.nearestNic()).cycles().get(0)
                .seconds();
        assertEquals(n * (0.1 - scatter()), more - base, 1e-9);
    }

    /**
     * From a slice map: groups before the first layer, per layer, after; every consumer's pull units add up to what
     * its layout needs, and expert bytes split by the expert coordinate of the trainer rank holding them.
     */
    @Test
    void unitsFromASliceMapConserveBytesAndSplitExperts() {
        List<Tensor> tensors = new ArrayList<>();
        tensors.add(tensor("model.embed_tokens.weight", TensorRole.VOCAB_EMBEDDING, -1, -1, 64, 8));
        for (int l = 0; l < 2; l++) {
            tensors.add(tensor("model.layers." + l + ".input_layernorm.weight", TensorRole.REPLICATED, l, -1, 8));
            for (int e = 0; e < 4; e++) {
                tensors.add(tensor("model.layers." + l + ".mlp.experts." + e + ".down_proj.weight",
                        TensorRole.EXPERT_ROW, l, e, 8, 16));
            }
        }
        tensors.add(tensor("model.norm.weight", TensorRole.REPLICATED, -1, -1, 8));
        TrainerLayout ep2 = new TrainerLayout(1, 1, 2, 1, 1, 2);
        SliceMap map = SliceMap.of(tensors, null, ep2, new InferenceLayout(1));
        ShardedRdt m = ShardedRdt.of(map, false);
        assertEquals(4, m.groups(), "pre, two layers, post");
        long sum = 0;
        for (ShardedRdt.Unit u : m.units(0)) {
            sum += u.bytes();
        }
        assertEquals(map.neededBytes(0), sum);
        // each layer: the norm (any owner) and the experts of coordinates 0 and 1
        long layerUnits = m.units(0).stream().filter(u -> u.group() == 1).count();
        assertEquals(3, layerUnits);
        assertTrue(m.units(0).stream().anyMatch(u -> u.group() == 1 && u.ep() == 1));
    }

    private static Tensor tensor(String name, TensorRole role, int layer, int expert, long... shape) {
        List<Long> s = new ArrayList<>();
        for (long d : shape) {
            s.add(d);
        }
        return new Tensor(name, s, DType.BF16, role, layer, expert);
    }
}
