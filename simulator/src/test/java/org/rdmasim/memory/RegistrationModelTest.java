package org.rdmasim.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.rdmasim.hardware.CpuFamily;
import org.rdmasim.transport.config.HcaPerGpuLimit;
import org.rdmasim.transport.config.MemoryType;
import org.rdmasim.transport.config.StackVersion;
import org.rdmasim.transport.config.Ternary;

class RegistrationModelTest {

    private static final long FORTY_GIB = 40 * ByteUnits.GIB; // [crusoe-kb-nixl]: length=42949672960
    private final RegistrationModel model = new RegistrationModel();

    private RegistrationPlan planGpu0(UcxRegistrationConfig config) {
        return model.plan(HgxHost.gpuBuffer(0, FORTY_GIB), HgxHost.hcasSeenFrom(0), config);
    }

    private static UcxRegistrationConfig config(HcaPerGpuLimit max, Ternary ro, CpuFamily cpu) {
        return config(max, ro, cpu, "1.22.0");
    }

    private static UcxRegistrationConfig config(HcaPerGpuLimit max, Ternary ro, CpuFamily cpu, String ucx) {
        return new UcxRegistrationConfig(max, ro, cpu, StackVersion.parse(ucx));
    }

    @Test
    void seed000NixlDefaultTryRegistersEachBufferSixteenTimes() {
        // NIXL before 1.2.0 / UCX before 1.21: RELAXED_ORDERING=try, every HCA.
        RegistrationPlan plan = planGpu0(HgxHost.nixl(CpuFamily.INTEL_OTHER, false));
        assertEquals(8, plan.perHca().size());
        assertEquals(16, plan.totalMrs());
        assertTrue(plan.perHca().stream().allMatch(r -> r.mrCount() == 2 && r.relaxedOrdering()));
    }

    @Test
    void seed000RelaxedOrderingAutoOnCpuWithoutSecondMrRegistersEightTimes() {
        for (CpuFamily cpu : List.of(CpuFamily.INTEL_OTHER, CpuFamily.NVIDIA_GRACE, CpuFamily.OTHER)) {
            RegistrationPlan plan = planGpu0(config(HcaPerGpuLimit.INF, Ternary.AUTO, cpu));
            assertEquals(8, plan.totalMrs(), cpu.name());
        }
        // CPUs UCX prefers relaxed ordering on keep the second MR under auto.
        for (CpuFamily cpu : List.of(CpuFamily.AMD_ZEN, CpuFamily.INTEL_EMERALD_RAPIDS)) {
            assertEquals(16, planGpu0(config(HcaPerGpuLimit.INF, Ternary.AUTO, cpu)).totalMrs(), cpu.name());
        }
        // Emerald Rapids: only CUDA memory (UCX PR #11532).
        RegistrationPlan host = model.plan(MemoryRegion.host("NUMA0", FORTY_GIB), HgxHost.hcasSeenFrom(0),
                config(HcaPerGpuLimit.INF, Ternary.AUTO, CpuFamily.INTEL_EMERALD_RAPIDS));
        assertEquals(8, host.totalMrs());
    }

    @Test
    void autoFollowsTheCpuListOfEachUcxRelease() {
        // ucs_cpu_prefer_relaxed_order: AMD from v1.13.0 (src/ucs/arch/cpu.h L159-162), Emerald Rapids from
        // v1.21.0 for all memory (L174-175), for CUDA memory only from v1.22.0 (ib_md.h L339-353).
        CpuFamily emr = CpuFamily.INTEL_EMERALD_RAPIDS;
        MemoryRegion hostMemory = MemoryRegion.host("NUMA0", FORTY_GIB);
        int[][] expected = {
            // {AMD GPU buffer, EMR GPU buffer, EMR host buffer} MRs per HCA, per release
            {1, 1, 1}, {2, 1, 1}, {2, 1, 1}, {2, 2, 2}, {2, 2, 1}};
        String[] releases = {"1.12.0", "1.13.0", "1.20.0", "1.21.0", "1.22.0"};
        for (int i = 0; i < releases.length; i++) {
            String ucx = releases[i];
            assertEquals(8 * expected[i][0],
                    planGpu0(config(HcaPerGpuLimit.INF, Ternary.AUTO, CpuFamily.AMD_ZEN, ucx)).totalMrs(), "AMD " + ucx);
            assertEquals(8 * expected[i][1],
                    planGpu0(config(HcaPerGpuLimit.INF, Ternary.AUTO, emr, ucx)).totalMrs(), "EMR GPU " + ucx);
            assertEquals(8 * expected[i][2], model.plan(hostMemory, HgxHost.hcasSeenFrom(0),
                    config(HcaPerGpuLimit.INF, Ternary.AUTO, emr, ucx)).totalMrs(), "EMR host " + ucx);
        }
    }

    @Test
    void seed000MaxHcaPerGpuAutoRegistersOnlyOnTheClosestHca() {
        RegistrationPlan before = planGpu0(HgxHost.nixl(CpuFamily.INTEL_OTHER, false));
        RegistrationPlan after = planGpu0(HgxHost.nixl(CpuFamily.INTEL_OTHER, true));
        assertEquals(List.of("mlx5_0"), after.hcaNames());
        assertEquals(2, after.totalMrs());

        double fewerMrs = RegistrationModel.reductionInMrs(before.totals(), after.totals());
        assertEquals(0.875, fewerMrs, 1e-12);
        // Firmware bytes scale with MRs, so they fall by the same 87.5%.
        assertEquals(0.875, 1.0 - (double) after.firmwareBytes() / before.firmwareBytes(), 1e-12);
        // Crusoe [crusoe-kb-nixl] says "up to ~70%" less host memory. That figure is about the whole host-memory
        // footprint the NICs' firmware holds, which also has parts that do not shrink with
        // registrations: QPs, CQs, the firmware's own boot and init pages, other processes' MRs. If
        // registration-driven pages are R and the fixed part F, the saving is 0.875 R / (R + F); it is
        // 70% when F = R / 4. The model counts only R, so it reports 87.5%; the gap is the fixed part.
    }

    @Test
    void everyGpuGetsItsOwnPixNicUnderAuto() {
        UcxRegistrationConfig nixl = HgxHost.nixl(CpuFamily.AMD_ZEN, true);
        List<RegistrationPlan> plans = HgxHost.planEveryGpu(model, FORTY_GIB, 8, nixl);
        for (int g = 0; g < HgxHost.GPUS; g++) {
            assertEquals(List.of("mlx5_" + g), plans.get(g).hcaNames());
        }
        assertEquals(16, RegistrationTotals.of(plans).mrCount());
    }

    @Test
    void maxHcaPerGpuNTakesTheNClosestBreakingTiesByName() {
        // From GPU5: mlx5_5 (PIX), then mlx5_4, mlx5_6, mlx5_7 tie at NODE -> by name mlx5_4, mlx5_6.
        RegistrationPlan plan = model.plan(HgxHost.gpuBuffer(5, FORTY_GIB), HgxHost.hcasSeenFrom(5),
                config(HcaPerGpuLimit.parse("3"), Ternary.NO, CpuFamily.OTHER));
        assertEquals(List.of("mlx5_4", "mlx5_5", "mlx5_6"), plan.hcaNames()); // reported in md order
        RegistrationPlan all = model.plan(HgxHost.gpuBuffer(5, FORTY_GIB), HgxHost.hcasSeenFrom(5),
                config(HcaPerGpuLimit.parse("20"), Ternary.NO, CpuFamily.OTHER));
        assertEquals(8, all.perHca().size());
    }

    @Test
    void autoKeepsEveryHcaTiedAtTheMinimumDistance() {
        // GB200-style tray: no PIX NIC; two NICs on the GPU's Grace (NODE), two on the other (SYS).
        List<HcaCandidate> tray = List.of(
                new HcaCandidate("mlx5_0", 3, HgxHost.NODE, true),
                new HcaCandidate("mlx5_1", 4, HgxHost.NODE, true),
                new HcaCandidate("mlx5_2", 5, HgxHost.SYS, true),
                new HcaCandidate("mlx5_3", 6, HgxHost.SYS, true));
        RegistrationPlan plan = model.plan(MemoryRegion.cuda("GPU0", ByteUnits.GIB), tray,
                config(HcaPerGpuLimit.AUTO, Ternary.TRY, CpuFamily.NVIDIA_GRACE));
        assertEquals(List.of("mlx5_0", "mlx5_1"), plan.hcaNames());
    }

    @Test
    void hostBuffersBypassMaxHcaPerGpu() {
        RegistrationPlan plan = model.plan(MemoryRegion.host("NUMA0", ByteUnits.GIB), HgxHost.hcasSeenFrom(0),
                config(HcaPerGpuLimit.AUTO, Ternary.NO, CpuFamily.OTHER));
        assertEquals(8, plan.perHca().size());
        assertEquals(ByteUnits.GIB + plan.firmwareBytes(), plan.pinnedHostBytes());
    }

    @Test
    void yesAndNoFollowTheUcxSource() {
        UcxRegistrationConfig yes = config(HcaPerGpuLimit.INF, Ternary.YES, CpuFamily.OTHER);
        assertEquals(16, planGpu0(yes).totalMrs()); // strict companion kept (ib_md.c)
        RegistrationModel relaxedOnly = new RegistrationModel(
                RegistrationParameters.defaults().withYesKeepsStrictCompanion(false));
        assertEquals(8, relaxedOnly.plan(HgxHost.gpuBuffer(0, FORTY_GIB), HgxHost.hcasSeenFrom(0), yes).totalMrs());
        assertEquals(8, planGpu0(config(HcaPerGpuLimit.INF, Ternary.NO, CpuFamily.AMD_ZEN)).totalMrs());

        List<HcaCandidate> noRelaxedSupport = List.of(
                new HcaCandidate("mlx5_0", 0, HgxHost.PIX, false),
                new HcaCandidate("mlx5_1", 1, HgxHost.NODE, false));
        RegistrationPlan tryPlan = model.plan(MemoryRegion.cuda("GPU0", ByteUnits.GIB), noRelaxedSupport,
                config(HcaPerGpuLimit.INF, Ternary.TRY, CpuFamily.AMD_ZEN));
        assertEquals(2, tryPlan.totalMrs());
    }

    @Test
    void translationBytesFollowPageSize() {
        UcxRegistrationConfig oneMr = config(HcaPerGpuLimit.AUTO, Ternary.NO, CpuFamily.OTHER);
        // 40 GiB / 4 KiB = 10,485,760 entries x 8 B = 80 MiB per MR; + 64 B mkey context.
        HcaRegistration reg4k = planGpu0(oneMr).perHca().get(0);
        assertEquals(10_485_760L, reg4k.translationEntries());
        assertEquals(80 * ByteUnits.MIB, reg4k.translationBytes());
        assertEquals(80 * ByteUnits.MIB + 64, reg4k.firmwareBytes());

        RegistrationModel at64k = new RegistrationModel(RegistrationParameters.defaults().withPageSizeBytes(65536));
        assertEquals(5 * ByteUnits.MIB,
                at64k.plan(HgxHost.gpuBuffer(0, FORTY_GIB), HgxHost.hcasSeenFrom(0), oneMr).totalTranslationBytes());
        RegistrationModel at2m = new RegistrationModel(
                RegistrationParameters.defaults().withPageSizeBytes(2 * ByteUnits.MIB));
        assertEquals(160 * ByteUnits.KIB,
                at2m.plan(HgxHost.gpuBuffer(0, FORTY_GIB), HgxHost.hcasSeenFrom(0), oneMr).totalTranslationBytes());

        // A buffer that straddles a page boundary needs one more entry.
        RegistrationPlan unaligned = model.plan(MemoryRegion.cuda("GPU0", 8192).withAddress(4096 + 100),
                HgxHost.hcasSeenFrom(0), oneMr);
        assertEquals(3, unaligned.perHca().get(0).translationEntries());
        assertEquals(0, model.plan(MemoryRegion.cuda("GPU0", 0), HgxHost.hcasSeenFrom(0), oneMr)
                .totalTranslationBytes());
    }

    @Test
    void seed000FortyToEightyGigabytesPerGpuPinTensOfGigabytesOfHostMemory() {
        UcxRegistrationConfig nixl = HgxHost.nixl(CpuFamily.AMD_ZEN, false);
        long forty = RegistrationTotals.of(HgxHost.planEveryGpu(model, FORTY_GIB, 8, nixl)).firmwareBytes();
        long eighty = RegistrationTotals.of(HgxHost.planEveryGpu(model, 80 * ByteUnits.GIB, 8, nixl)).firmwareBytes();
        // 8 GPUs x 16 MRs x 80 MiB = 10 GiB; at 80 GiB per GPU, 20 GiB (4 KiB translation pages).
        assertEquals(10 * ByteUnits.GIB + 128 * 64, forty);
        assertEquals(20 * ByteUnits.GIB + 128 * 64, eighty);
    }

    @Test
    void registrationTimeIsPerMrPlusPerByteCost() {
        RegistrationPlan plan = planGpu0(config(HcaPerGpuLimit.AUTO, Ternary.TRY, CpuFamily.OTHER));
        // GPU memory: once per buffer (per call + per byte once), then per MR UCX's MEM_REG_OVERHEAD plus the
        // calibrated per-byte-per-MR cost
        RegistrationParameters p = RegistrationParameters.defaults();
        double perMr = 16e-6 + p.gpuPerBytePerMrSeconds() * FORTY_GIB;
        double once = p.gpuPerCallSeconds() + p.gpuPerByteOnceSeconds() * FORTY_GIB;
        assertEquals(once + 2 * perMr, plan.registrationSeconds(), 1e-12);
        assertEquals(once, plan.onceSeconds(), 1e-15);
        RegistrationPlan host = model.plan(MemoryRegion.host("0", FORTY_GIB), HgxHost.hcasSeenFrom(0),
                config(HcaPerGpuLimit.AUTO, Ternary.TRY, CpuFamily.OTHER));
        assertEquals(16e-6 + 0.06e-9 * FORTY_GIB, host.registrationSeconds() / host.totalMrs(), 1e-12);
        assertEquals(0.06, RegistrationParameters.defaults().perGigabyteSeconds(), 1e-15);

        RegistrationModel custom = new RegistrationModel(RegistrationParameters.defaults().withCosts(1e-3, 0.0));
        assertEquals(once + 2 * (1e-3 + p.gpuPerBytePerMrSeconds() * FORTY_GIB), custom.plan(HgxHost.gpuBuffer(0, FORTY_GIB), HgxHost.hcasSeenFrom(0),
                config(HcaPerGpuLimit.AUTO, Ternary.TRY, CpuFamily.OTHER)).registrationSeconds(), 1e-12);
        assertTrue(RegistrationParameters.assumptions().stream()
                .allMatch(a -> a.startsWith("ASSUMPTION") || a.startsWith("CALIBRATED")));
    }

    @Test
    void environmentSpellingsParse() {
        assertEquals(HcaPerGpuLimit.INF, HcaPerGpuLimit.parse("inf"));
        assertEquals(HcaPerGpuLimit.AUTO, HcaPerGpuLimit.parse(" AUTO "));
        assertEquals(new HcaPerGpuLimit(HcaPerGpuLimit.Kind.COUNT, 2), HcaPerGpuLimit.parse("2"));
        assertEquals("auto", HcaPerGpuLimit.AUTO.toString());
        assertEquals(Ternary.TRY, Ternary.parse("try"));
        assertEquals(Ternary.NO, Ternary.parse("n"));
        assertEquals(MemoryType.CUDA, MemoryType.fromUcxName("cuda"));
    }
}
