package org.rdmasim.refit.method;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rdmasim.refit.method.RefitFixture.GB;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rdmasim.hardware.CalibrationProfile;
import org.rdmasim.hardware.FabricSpec;
import org.rdmasim.hardware.Host;
import org.rdmasim.memory.RegistrationParameters;
import org.rdmasim.refit.layout.InferenceLayout;
import org.rdmasim.refit.layout.SliceMap;
import org.rdmasim.refit.layout.TrainerLayout;
import org.rdmasim.refit.model.DType;
import org.rdmasim.refit.model.Tensor;
import org.rdmasim.refit.model.TensorRole;
import org.rdmasim.transport.config.MemoryType;

class RefitStagesTest {
    private static RefitPlan pull() {
        return RefitPlan.of(RefitFixture.twoByTwo(GB), RefitFixture::trainer, RefitFixture::inference,
                RdmaPull.direct());
    }

    private static RefitResult run(RefitPlan plan) {
        return RefitRun.run(RefitFixture.twoHosts(), FabricSpec.nonBlocking(), plan, RefitFixture.nearestNic());
    }

    /** Each rank registers 2 GB from 4 tensors (2 routes of 2 tensors); all at once, so one rank's time. */
    @Test
    void registrationIsTheModelsTermsPerTensorPooledOrArenaAndCachedAfterTheFirstCycle() {
        RegistrationParameters terms = RegistrationParameters.defaults();
        double perTensor = terms.seconds(MemoryType.CUDA, 2 * GB, 4, 1, 2);
        double pooled = terms.seconds(MemoryType.CUDA, 2 * GB, 2, 1, 2);
        double arena = terms.seconds(MemoryType.CUDA, 2 * GB, 1, 1, 2);
        assertTrue(perTensor > pooled && pooled > arena, "fewer calls, less time");
        double[] expected = {perTensor, pooled, arena};
        Registration[] modes = {Registration.perTensor(true), Registration.pooled(2, true), Registration.arena(true)};
        for (int k = 0; k < modes.length; k++) {
            RefitResult r = run(pull().withRegistration(modes[k], 2));
            assertEquals(expected[k], r.cycles().get(0).stage(RefitStage.REGISTER), 1e-12, modes[k].mode().name());
            assertEquals(0.0, r.cycles().get(1).stage(RefitStage.REGISTER), "cached: the second cycle pays nothing");
            assertEquals(expected[k], r.firstCycleSeconds() - r.steadyCycleSeconds(), 1e-9);
        }
        RefitResult uncached = run(pull().withRegistration(Registration.perTensor(false), 2));
        assertEquals(perTensor, uncached.cycles().get(1).stage(RefitStage.REGISTER), 1e-12,
                "uncached: every cycle registers again (modelexpress PR #429's per-cycle cost)");
    }

    /**
     * Registration prices each rank's own buffers once: one trainer GPU read by one receiver or by sixteen
     * (data-parallel replicas on 16 hosts) registers its 2 GB the same, because a remote read needs only the
     * registration's key. The receivers register what they receive.
     */
    @Test
    void aTrainerRankReadBySixteenRegistersWhatItDoesReadByOne() {
        Tensor w = new Tensor("w", List.of(1000L, 1_000_000L), DType.BF16, TensorRole.COLUMN, 0, -1);
        Registration reg = Registration.perTensor(true);
        RegistrationParameters terms = RegistrationParameters.defaults();
        double[] register = new double[2];
        int[] readers = {1, 16};
        for (int k = 0; k < 2; k++) {
            SliceMap map = SliceMap.of(List.of(w), null, new TrainerLayout(1, 1, 1, 1, 1, 1),
                    new InferenceLayout(1, readers[k], false, 0));
            List<Host> hosts = new ArrayList<>();
            hosts.add(new Host("train", RefitFixture.twoPairs()));
            for (int i = 0; i < readers[k]; i++) {
                hosts.add(new Host("infer" + i, RefitFixture.twoPairs()));
            }
            RefitPlan plan = RefitPlan.of(map.routes(), RefitFixture::trainer, RefitFixture::inferenceOwnHost,
                    RdmaPull.direct()).withRegistration(reg, 1).withBuffers(RankBuffers.of(map));
            RefitResult r = RefitRun.run(hosts, FabricSpec.nonBlocking(), plan, RefitFixture.nearestNic());
            register[k] = r.cycles().get(0).stage(RefitStage.REGISTER);
            assertEquals(readers[k] * 2 * GB, r.cycles().get(0).wireBytes());
        }
        assertEquals(terms.seconds(MemoryType.CUDA, 2 * GB, 1, 1, 2), register[0], 1e-12);
        assertEquals(register[0], register[1], 1e-12, "sixteen readers, one registration of the shard");
        RefitPlan summed = RefitPlan.of(SliceMap.of(List.of(w), null, new TrainerLayout(1, 1, 1, 1, 1, 1),
                new InferenceLayout(1, 16, false, 0)).routes(), RefitFixture::trainer, RefitFixture::inferenceOwnHost,
                RdmaPull.direct());
        assertEquals(16 * 2 * GB, summed.buffers().trainerBytes(0),
                "without the slice map each route is taken as its own buffer");
    }

    @Test
    void namedStageParametersAddTheirValuesAndSayWhatTheyAre() {
        RefitCalibration cal = RefitCalibration.defaults()
                .with(RefitCalibration.PAUSE, 0.5, CalibrationProfile.Kind.ASSUMED, "test")
                .with(RefitCalibration.BARRIER, 0.125, CalibrationProfile.Kind.ASSUMED, "test")
                .with(RefitCalibration.RESUME, 0.25, CalibrationProfile.Kind.ASSUMED, "test");
        RefitResult base = run(pull());
        RefitResult r = run(pull().withCalibration(cal));
        RefitResult.Cycle c = r.cycles().get(0);
        assertEquals(0.5, c.stage(RefitStage.PAUSE), 1e-12);
        assertEquals(0.125, c.stage(RefitStage.BARRIER), 1e-12);
        assertEquals(0.25, c.stage(RefitStage.RESUME), 1e-12);
        assertEquals(base.firstCycleSeconds() + 0.875, r.firstCycleSeconds(), 1e-9);
        assertTrue(r.restsOn().stream().map(org.rdmasim.workload.StageParameter::line).toList()
                .contains("refit.pauseSeconds = 500 ms, assumed (test)"), r.restsOn().toString());
        assertThrows(IllegalArgumentException.class,
                () -> RefitCalibration.defaults().with("refit.nope", 1, CalibrationProfile.Kind.ASSUMED, "x"));
    }

    @Test
    void aProfileThatCarriesARefitKeyReplacesTheDefault() {
        CalibrationProfile p = new CalibrationProfile("t", "test", List.of(new CalibrationProfile.Parameter(
                RefitCalibration.BARRIER, 0.02, "s", CalibrationProfile.Kind.CALIBRATED, "one named run", "")));
        RefitCalibration cal = RefitCalibration.of(p);
        assertEquals(0.02, cal.value(RefitCalibration.BARRIER));
        assertEquals(CalibrationProfile.Kind.CALIBRATED, cal.get(RefitCalibration.BARRIER).kind());
        assertEquals(0.0, cal.value(RefitCalibration.PAUSE));
    }

    /**
     * Gather over an FSDP pair: the gather moves the BF16 weights, twice the 2 GB of FP8 each GPU sends, and each
     * trainer GPU takes in half of them over NVLink (18 links x 25 GB/s per direction on an H100); then a
     * BF16 -> FP8 cast reads 2 and writes 1 byte per byte sent at HBM speed.
     */
    @Test
    void gatherAndConversionArePricedByNvlinkAndHbm() {
        RefitResult.Cycle c = run(pull().withPreparation(Preparation.bf16ToFp8(2))).cycles().get(0);
        assertEquals(2 * 2 * GB * 0.5 / (18 * 25e9), c.stage(RefitStage.GATHER), 1e-12);
        assertEquals(2 * GB * 3.0 / RefitFixture.hbm(), c.stage(RefitStage.CONVERT), 1e-12);
        RefitResult.Cycle plain = run(pull()).cycles().get(0);
        assertEquals(plain.seconds() + c.stage(RefitStage.GATHER) + c.stage(RefitStage.CONVERT), c.seconds(), 1e-9,
                "a pull waits for its sources to be ready");
    }

    /**
     * An FSDP pair holding FP32 and sending BF16 (verl's FSDP engine: model_dtype "fp32" by default) gathers twice
     * the bytes it sends and casts them, reading 2 and writing 1 byte per byte sent. With its shards offloaded to
     * host memory (FSDP1's CPUOffload), every cycle first unshards: each rank copies its FP32 shard to its GPU over
     * PCIe (both at once, each under its own switch), all-gathers the full tensors over NVLink and clones them,
     * and only then does the first byte leave.
     */
    @Test
    void anFp32TrainerGathersTwiceTheBytesAndAnOffloadedOneUnshardsOverPcieFirst() {
        RefitResult.Cycle bf16 = run(pull().withPreparation(new Preparation(2, 0, 0))).cycles().get(0);
        RefitResult.Cycle fp32 = run(pull().withPreparation(Preparation.fp32ToBf16(2))).cycles().get(0);
        double nvlink = 18 * 25e9;
        assertEquals(2 * GB * 0.5 / nvlink, bf16.stage(RefitStage.GATHER), 1e-12);
        assertEquals(2 * 2 * GB * 0.5 / nvlink, fp32.stage(RefitStage.GATHER), 1e-12, "FP32: twice the gather");
        assertEquals(2 * GB * 3.0 / RefitFixture.hbm(), fp32.stage(RefitStage.CONVERT), 1e-12, "the cast to BF16");
        assertEquals(0.0, fp32.stage(RefitStage.H2D), "shards on the GPUs: no host copy");

        long shard = 4 * GB; // each rank's FP32 shard of a model sent as 4 GB of BF16
        RefitResult.Cycle off = run(pull().withPreparation(Preparation.fp32ToBf16(2).withOffloadedShards(shard)))
                .cycles().get(0);
        double pcie = RefitFixture.h2dRate(RefitFixture.twoHosts(), RefitFixture.trainer(0));
        assertTrue(pcie < 64e9, "a Gen5 x16 link, not NVLink: " + pcie);
        assertEquals(shard / pcie, off.stage(RefitStage.H2D), 1e-6 * shard / pcie,
                "both ranks copy at once, each at its own link's rate");
        // the full tensors: 2 x 4 GB of FP32 a rank, half of it gathered over NVLink, then cloned (one HBM copy)
        double unshard = shard / pcie + 2 * shard * 0.5 / nvlink + 2.0 * (2 * shard) / RefitFixture.hbm();
        assertEquals(fp32.seconds() + unshard, off.seconds(), 1e-6, "nothing is sent before the state dict is built");
        assertThrows(IllegalArgumentException.class, () -> new Preparation(1, 1, 0, 0, GB),
                "an offloaded shard needs an FSDP group to gather it");
    }

    /**
     * An FSDP pair whose two ranks sit on two hosts gathers through the NICs NCCL's ring crosses between them, one
     * 400G InfiniBand port a host here (each rank's GPU has one nearest NIC), not over NVLink: half of the 4 GB of
     * BF16 each rank gathers crosses into its host at that port's payload rate. The same pair inside one host keeps
     * NVLink's rate, and so does a group of two pairs that each sit in one host (stride 2: ranks 0 and 2 together).
     */
    @Test
    void anFsdpGroupOverTwoHostsGathersAtItsNicsNotNvlink() {
        List<Host> hosts = List.of(new Host("train", RefitFixture.twoPairs()), new Host("train1", RefitFixture.twoPairs()),
                new Host("infer", RefitFixture.twoPairs()));
        java.util.function.IntFunction<org.rdmasim.transport.Endpoint> split =
                r -> new org.rdmasim.transport.Endpoint(r == 0 ? "train" : "train1", "GPU0");
        RefitPlan plan = RefitPlan.of(RefitFixture.twoByTwo(GB), split, RefitFixture::inference, RdmaPull.direct())
                .withPreparation(Preparation.bf16ToFp8(2));
        RefitResult.Cycle c = RefitRun.run(hosts, FabricSpec.nonBlocking(), plan, RefitFixture.nearestNic()).cycles()
                .get(0);
        Host train = hosts.get(0);
        double port = train.nic("mlx5_0").nic().payloadBytesPerSecond(train.profile());
        assertTrue(port < 18 * 25e9 / 8, "a 400G port carries far less than NVLink: " + port);
        assertEquals(2 * 2 * GB * 0.5 / port, c.stage(RefitStage.GATHER), 1e-12, "the pair's ring crosses one port");

        RefitResult.Cycle inOneHost = run(pull().withPreparation(Preparation.bf16ToFp8(2))).cycles().get(0);
        assertEquals(2 * 2 * GB * 0.5 / (18 * 25e9), inOneHost.stage(RefitStage.GATHER), 1e-12);

        Preparation strided = Preparation.bf16ToFp8(2).withGatherStride(2);
        assertEquals(List.of(1, 3), strided.gatherGroupOf(1), "tp 2: rank 1 gathers with rank 3");
        assertEquals(List.of(4, 6), strided.gatherGroupOf(6), "the next pipeline stage's group");
        assertThrows(IllegalArgumentException.class, () -> Preparation.bf16ToFp8(2).withGatherStride(0));
    }

    @Test
    void stagesUnionOverlappingWork() {
        StageLog log = new StageLog();
        log.add(RefitStage.WIRE, 0, 2);
        log.add(RefitStage.WIRE, 1, 3);
        log.add(RefitStage.WIRE, 5, 6);
        assertEquals(4.0, log.busySeconds().get(RefitStage.WIRE));
        assertEquals(0.0, log.busySeconds().get(RefitStage.H2D));
    }

    @Test
    void aRankOnNoGpuIsRefusedByName() {
        RefitPlan plan = RefitPlan.of(RefitFixture.twoByTwo(GB), RefitFixture::trainer,
                rank -> new org.rdmasim.transport.Endpoint("infer", "GPU9"), RdmaPull.direct());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> run(plan));
        assertTrue(e.getMessage().contains("GPU9"), e.getMessage());
    }
}
