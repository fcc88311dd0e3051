package org.rdmasim.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.rdmasim.hardware.CalibrationProfile.Kind;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.Presets;
import org.rdmasim.transport.config.EnvEntry;
import org.rdmasim.transport.config.MemoryType;
import org.rdmasim.transport.config.StackVersion;
import org.rdmasim.transport.ucx.StackProfile;

/**
 * The GPU registration-time terms against the published figures they were fitted to: ModelExpress PR #450
 * (comment of 2026-06-23: 290 tensors, 8.04 GB, register 0.151 s on one NIC, 0.331 s on four) and PR #267
 * (target register_tensors 107 ms / 339 registrations, 51 ms / 59).
 */
class GpuRegistrationCalibrationTest {

    private final RegistrationParameters p = RegistrationParameters.defaults();

    @Test
    void termsFollowFromThePublishedFigures() {
        // (107 - 51) ms / (339 - 59) = 0.2 ms per registration: both modes register the same 59 allocations
        assertEquals(0.2e-3, GpuRegistrationCalibration.perCallSeconds(), 1e-12);
        // (0.331 - 0.151) s over 3 more HCAs x 2 MRs = 30 ms per HCA-MR, less 290 x 16 us, over 8.04 GB
        assertEquals((0.030 - 290 * 16e-6) / 8.04e9, GpuRegistrationCalibration.perBytePerMrSeconds(), 1e-18);
        assertEquals(3.15e-12, GpuRegistrationCalibration.perBytePerMrSeconds(), 0.01e-12);
        assertEquals(4.10e-12, GpuRegistrationCalibration.perByteOnceSeconds(), 0.01e-12);
        assertEquals(GpuRegistrationCalibration.perCallSeconds(), p.gpuPerCallSeconds());
        assertEquals(GpuRegistrationCalibration.perByteOnceSeconds(), p.gpuPerByteOnceSeconds());
        assertEquals(GpuRegistrationCalibration.perBytePerMrSeconds(), p.gpuPerBytePerMrSeconds());
    }

    @Test
    void theModelGivesPr450sTwoTimesOnTheHostItWasFittedFor() {
        Host h = new Host("h", Presets.get("gb200-tray"));
        RegistrationPlan one = plan(h, "1.1.0", "1.20.0", "mlx5_0:1");
        RegistrationPlan four = plan(h, "1.1.0", "1.20.0", "mlx5_0:1,mlx5_1:1,mlx5_2:1,mlx5_3:1");
        // the calibration's posing must be what the model does on that host: NIXL 1.1's 'try' -> 2 MRs per HCA
        assertEquals(1, one.perHca().size());
        assertEquals(4, four.perHca().size());
        assertEquals(GpuRegistrationCalibration.MX450_MRS_PER_HCA, one.perHca().get(0).mrCount());
        double t1 = seconds(one, 290, 290, 8_040_000_000L);
        double t4 = seconds(four, 290, 290, 8_040_000_000L);
        assertEquals(0.151, t1, 1e-12);
        assertEquals(0.331, t4, 1e-12);
        // a fixed part is paid once: four HCAs cost 2.2x one, not 4x
        assertEquals(2.19, t4 / t1, 0.01);
    }

    @Test
    void theModelGivesPr267sTargetDifferenceOnItsPosedHost() {
        Host h = new Host("h", Presets.get("dgx-b200"));
        RegistrationPlan posed = plan(h, "1.2.0", "1.21.0", "");
        assertEquals(1, posed.perHca().size(), "UCX_MAX_HCA_PER_GPU=auto keeps the GPU's own HCA");
        // the per-call slope is what was fitted: whatever the bytes and HCAs, 280 fewer calls over the same 59
        // allocations save 56 ms
        RegistrationPlan all = plan(h, "1.1.0", "1.20.0", "");
        for (RegistrationPlan hcas : List.of(posed, all)) {
            for (long bytes : List.of(1_000_000_000L, 5_000_000_000L)) {
                assertEquals(0.107 - 0.051, seconds(hcas, 339, 59, bytes) - seconds(hcas, 59, 59, bytes), 1e-12);
            }
        }
        assertTrue(all.perHca().size() > posed.perHca().size());
    }

    @Test
    void costGrowsWithCallsHcasAndBytes() {
        double base = p.seconds(MemoryType.CUDA, 1_000_000_000L, 10, 1, 2);
        assertTrue(p.seconds(MemoryType.CUDA, 1_000_000_000L, 11, 1, 2) > base);
        assertTrue(p.seconds(MemoryType.CUDA, 2_000_000_000L, 10, 1, 2) > base);
        // each HCA adds the same cost; the once-per-buffer part is not repeated
        double two = p.seconds(MemoryType.CUDA, 1_000_000_000L, 10, 2, 2);
        double three = p.seconds(MemoryType.CUDA, 1_000_000_000L, 10, 3, 2);
        assertEquals(two - base, three - two, 1e-15);
        assertTrue(two < 2 * base);
        assertEquals(0.0, p.seconds(MemoryType.CUDA, 1_000_000_000L, 10, 0, 2));
        // host memory keeps UCX's per-MR estimate and pays nothing once
        assertEquals(2 * (16e-6 + 0.06e-9 * 1e9), p.seconds(MemoryType.HOST, 1_000_000_000L, 1, 1, 2), 1e-15);
        assertEquals(0.0, p.onceSeconds(MemoryType.HOST, 1_000_000_000L));
        assertThrows(MemoryInputException.class, () -> p.seconds(MemoryType.CUDA, 1, 0, 1, 1));
        assertThrows(MemoryInputException.class, () -> p.seconds(MemoryType.CUDA, 1, 2, 3, 1, 1));
    }

    @Test
    void tensorsSharingAnAllocationPayItsMrsOnceOnEachHca() {
        long bytes = 1_000_000_000L;
        // 10 calls over 2 allocations: the 8 cache hits pay the call alone, on any number of HCAs
        double hitsOneHca = p.seconds(MemoryType.CUDA, bytes, 10, 2, 1, 2)
                - p.seconds(MemoryType.CUDA, bytes, 2, 2, 1, 2);
        double hitsFourHcas = p.seconds(MemoryType.CUDA, bytes, 10, 2, 4, 2)
                - p.seconds(MemoryType.CUDA, bytes, 2, 2, 4, 2);
        assertEquals(8 * p.gpuPerCallSeconds(), hitsOneHca, 1e-15);
        assertEquals(hitsOneHca, hitsFourHcas, 1e-15);
        // one more allocation adds an MR on every HCA
        double perAllocation = p.seconds(MemoryType.CUDA, bytes, 10, 3, 4, 2)
                - p.seconds(MemoryType.CUDA, bytes, 10, 2, 4, 2);
        assertEquals(4 * 2 * p.perMrSeconds(), perAllocation, 1e-15);
        // the five-argument form is one allocation per call
        assertEquals(p.seconds(MemoryType.CUDA, bytes, 10, 10, 1, 2), p.seconds(MemoryType.CUDA, bytes, 10, 1, 2));
    }

    @Test
    void termsSayWhetherCalibratedOrAssumedAndNameTheirSource() {
        List<RegistrationParameters.Term> gpu = p.terms(true, false);
        assertEquals(4, gpu.size());
        assertTrue(gpu.stream().filter(t -> t.kind() == Kind.CALIBRATED)
                .allMatch(t -> t.source().contains("PR #")));
        assertTrue(gpu.stream().anyMatch(t -> t.kind() == Kind.ASSUMED && t.parameter().equals("registration: per MR")
                && t.value().startsWith("16")));
        assertTrue(p.terms(false, true).stream().noneMatch(t -> t.kind() == Kind.CALIBRATED));
        assertTrue(p.terms(false, false).isEmpty());
    }

    private static RegistrationPlan plan(Host h, String nixl, String ucx, String env) {
        List<EnvEntry> entries = env.isEmpty() ? List.of() : List.of(new EnvEntry("UCX_NET_DEVICES", env, "test", 1));
        StackProfile s = new StackProfile(entries, Optional.of(StackVersion.parse(nixl)), StackVersion.parse(ucx));
        return new HostRegistration(h, s.configFor(h, h.gpu("GPU0"))).plan(new RegistrationModel(),
                MemoryRegion.cuda("GPU0", 8_040_000_000L));
    }

    private double seconds(RegistrationPlan plan, int calls, int allocations, long bytes) {
        return p.seconds(MemoryType.CUDA, bytes, calls, allocations, plan.perHca().size(),
                plan.perHca().get(0).mrCount());
    }
}
