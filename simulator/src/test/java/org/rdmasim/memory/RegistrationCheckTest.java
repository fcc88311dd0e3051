package org.rdmasim.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.rdmasim.hardware.CpuFamily;
import org.rdmasim.memory.RegistrationLimits.FirmwareCapScope;
import org.rdmasim.memory.RegistrationVerdict.LimitKind;
import org.rdmasim.transport.config.Ternary;

class RegistrationCheckTest {

    private static final long FORTY_GIB = 40 * ByteUnits.GIB;
    private final RegistrationModel model = new RegistrationModel();
    private final UcxRegistrationConfig nixlOld = HgxHost.nixl(CpuFamily.INTEL_OTHER, false);
    private final UcxRegistrationConfig nixlNew = HgxHost.nixl(CpuFamily.INTEL_OTHER, true);

    /**
     * A per-VM cap chosen (the real one is not public) so that, with 8 GPUs x 40 GiB x 8 HCAs x 2 MRs
     * registered in order, the MR that crosses it is GPU2's first MR on mlx5_5, as in Crusoe's log [crusoe-kb-nixl]:
     * 42 MRs x 80 MiB = 3360 MiB fit, the 43rd (3440 MiB) does not.
     */
    private static final RegistrationLimits PER_VM_CAP = RegistrationLimits.unlimited()
            .withFirmwarePageCap(3400 * ByteUnits.MIB, FirmwareCapScope.PER_HOST);

    @Test
    void seed000FirmwareCapFailsWithTheRealMessage() {
        RegistrationVerdict verdict = RegistrationCheck.check(
                HgxHost.planEveryGpu(model, FORTY_GIB, 8, nixlOld), PER_VM_CAP);
        assertFalse(verdict.passed());
        assertEquals(LimitKind.FIRMWARE_PAGE_CAP, verdict.limit());
        assertEquals(List.of(
                "UCX  ERROR ibv_reg_dmabuf_mr(address=0x7f7980000000, length=42949672960, access=0x10000f) failed: "
                        + "Resource temporarily unavailable",
                "UCX  ERROR failed to register address 0x7f7980000000 (cuda) length 42949672960 dmabuf_fd 438 on "
                        + "md[11]=mlx5_5: Input/output error (md supports: host)",
                "Failed to ucp_mem_map: Input/output error",
                "registerMem: registration failed for the specified or all potential backends",
                "nixlBackendError: NIXL_ERR_BACKEND"), verdict.messageLines());
        assertEquals(128, verdict.totals().mrCount());
    }

    @Test
    void seed000MaxHcaPerGpuAutoOrFewerHcasFitUnderTheSameCap() {
        RegistrationVerdict auto = RegistrationCheck.check(HgxHost.planEveryGpu(model, FORTY_GIB, 8, nixlNew),
                PER_VM_CAP);
        assertTrue(auto.passed(), auto.message());
        assertEquals(16, auto.totals().mrCount());
        assertEquals(16 * (80 * ByteUnits.MIB + 64), auto.totals().firmwareBytes());

        RegistrationVerdict twoHcas = RegistrationCheck.check(HgxHost.planEveryGpu(model, FORTY_GIB, 2, nixlOld),
                PER_VM_CAP);
        assertTrue(twoHcas.passed(), twoHcas.message());
        assertEquals("", twoHcas.message());
    }

    @Test
    void seed000RelaxedOrderingAutoWorkaroundOnlyRaisesTheThreshold() {
        UcxRegistrationConfig workaround = nixlOld.withRelaxedOrdering(Ternary.AUTO);
        // 40 GiB per GPU: 64 MRs x 80 MiB = 5 GiB, still over the cap.
        RegistrationVerdict forty = RegistrationCheck.check(HgxHost.planEveryGpu(model, FORTY_GIB, 8, workaround),
                PER_VM_CAP);
        assertEquals(LimitKind.FIRMWARE_PAGE_CAP, forty.limit());
        // The strict-order-only MR has no relaxed-ordering bit.
        assertTrue(forty.messageLines().get(0).contains("access=0xf)"), forty.message());
        // Half the registrations roughly doubles what fits: 20 GiB per GPU passes where try failed.
        long twenty = 20 * ByteUnits.GIB;
        assertFalse(RegistrationCheck.check(HgxHost.planEveryGpu(model, twenty, 8, nixlOld), PER_VM_CAP).passed());
        assertTrue(RegistrationCheck.check(HgxHost.planEveryGpu(model, twenty, 8, workaround), PER_VM_CAP).passed());
    }

    @Test
    void perVfCapCountsEachHcaSeparately() {
        RegistrationLimits perVf = RegistrationLimits.unlimited()
                .withFirmwarePageCap(ByteUnits.GIB, FirmwareCapScope.PER_HCA);
        // Every HCA collects 2 x 80 MiB per GPU; the 7th GPU's first MR on mlx5_0 (md[6]) crosses 1 GiB.
        RegistrationVerdict everyHca = RegistrationCheck.check(HgxHost.planEveryGpu(model, FORTY_GIB, 8, nixlOld),
                perVf);
        assertEquals(LimitKind.FIRMWARE_PAGE_CAP, everyHca.limit());
        assertTrue(everyHca.messageLines().get(1).contains("on md[6]=mlx5_0:"), everyHca.message());
        assertEquals(6 * 2 * (80 * ByteUnits.MIB + 64), everyHca.firmwareBytesPerHca().get("mlx5_0"));

        RegistrationVerdict auto = RegistrationCheck.check(HgxHost.planEveryGpu(model, FORTY_GIB, 8, nixlNew), perVf);
        assertTrue(auto.passed());
        assertEquals(2 * (80 * ByteUnits.MIB + 64), auto.firmwareBytesPerHca().get("mlx5_3"));
    }

    @Test
    void smallBar1CapsRegisteredGpuMemory() {
        // a T4 exposes a 256 MB BAR1 ([nvidia-gdr-doc], PCI BAR sizes).
        RegistrationLimits t4 = RegistrationLimits.unlimited().withBar1PerGpu(256 * ByteUnits.MIB);
        List<HcaCandidate> one = List.of(new HcaCandidate("mlx5_0", 2, HgxHost.PIX, false));
        UcxRegistrationConfig cfg = UcxRegistrationConfig.ucxDefaults(CpuFamily.INTEL_OTHER, org.rdmasim.transport.config.StackVersion.parse("1.20.0"));
        RegistrationPlan small = model.plan(MemoryRegion.cuda("GPU0", 200 * ByteUnits.MIB), one, cfg);
        RegistrationPlan more = model.plan(MemoryRegion.cuda("GPU0", 100 * ByteUnits.MIB).withAddress(0x7f0000000000L),
                one, cfg);
        assertTrue(RegistrationCheck.check(List.of(small), t4).passed());
        RegistrationVerdict verdict = RegistrationCheck.check(List.of(small, more), t4);
        assertEquals(LimitKind.BAR1, verdict.limit());
        assertEquals("UCX  ERROR ibv_reg_mr(address=0x7f0000000000, length=104857600, access=0xf) failed: "
                + "Cannot allocate memory", verdict.messageLines().get(0));
        assertTrue(verdict.message().contains("rdmasim: BAR1 of GPU0 exhausted"));
    }

    @Test
    void mttLimitFailsWithOpenMpiWarning() {
        // The host of [linuxcluster-mtt]: 65476 MiB of RAM, default mlx4 MTT = 32 GiB registerable per HCA.
        long ram = 65476 * ByteUnits.MIB;
        RegistrationLimits limits = RegistrationLimits.unlimited().withHostMemory(ram)
                .withMttLimit(MttSizing.maxRegisterableBytes(20, 3, 4096)).withLocalHostName("node02");
        List<HcaCandidate> one = List.of(new HcaCandidate("mlx4_0", 0, HgxHost.PIX, false));
        UcxRegistrationConfig cfg = UcxRegistrationConfig.ucxDefaults(CpuFamily.INTEL_OTHER, org.rdmasim.transport.config.StackVersion.parse("1.20.0"));
        RegistrationPlan a = model.plan(MemoryRegion.host("NUMA0", 20 * ByteUnits.GIB), one, cfg);
        RegistrationPlan b = model.plan(MemoryRegion.host("NUMA0", 20 * ByteUnits.GIB).withAddress(0x7f0000000000L),
                one, cfg);

        RegistrationVerdict fits = RegistrationCheck.check(List.of(a), limits);
        assertTrue(fits.passed());
        assertEquals(1, fits.warnings().size()); // Open MPI warns at start-up: 32768 < 3/4 of 65476
        assertTrue(fits.warnings().get(0).contains("Registerable memory:     32768 MiB"));

        RegistrationVerdict verdict = RegistrationCheck.check(List.of(a, b), limits);
        assertEquals(LimitKind.MTT, verdict.limit());
        assertTrue(verdict.messageLines().contains("  Local host:              node02"));
        assertTrue(verdict.messageLines().contains("  Registerable memory:     32768 MiB"));
        assertTrue(verdict.messageLines().contains("  Total memory:            65476 MiB"));
        assertTrue(verdict.message().contains("mlx4_0 would hold 42949672960 registered bytes"));
    }

    @Test
    void pinnedHostMemoryCannotExceedTheHost() {
        RegistrationLimits small = RegistrationLimits.unlimited().withHostMemory(10 * ByteUnits.GIB);
        UcxRegistrationConfig cfg = UcxRegistrationConfig.ucxDefaults(CpuFamily.INTEL_OTHER, org.rdmasim.transport.config.StackVersion.parse("1.20.0"));
        List<RegistrationPlan> plans = List.of(
                model.plan(MemoryRegion.host("NUMA0", 8 * ByteUnits.GIB), HgxHost.hcasSeenFrom(0), cfg),
                model.plan(MemoryRegion.host("NUMA0", 4 * ByteUnits.GIB), HgxHost.hcasSeenFrom(0), cfg));
        RegistrationVerdict verdict = RegistrationCheck.check(plans, small);
        assertEquals(LimitKind.HOST_MEMORY, verdict.limit());
        assertTrue(verdict.messageLines().get(0).endsWith("failed: Cannot allocate memory"));
        assertTrue(verdict.messageLines().get(0).contains("address=(nil)"));
    }

    @Test
    void emptyAndUnlimitedPass() {
        assertTrue(RegistrationCheck.check(List.of(), RegistrationLimits.unlimited()).passed());
        RegistrationVerdict all = RegistrationCheck.check(HgxHost.planEveryGpu(model, FORTY_GIB, 8, nixlOld),
                RegistrationLimits.unlimited());
        assertTrue(all.passed());
        assertEquals(8, all.firmwareBytesPerHca().size());
    }
}
