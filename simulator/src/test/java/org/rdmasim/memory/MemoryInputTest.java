package org.rdmasim.memory;

import org.rdmasim.transport.ucx.HcaDistance;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.rdmasim.hardware.CpuFamily;
import org.rdmasim.memory.RegistrationLimits.FirmwareCapScope;
import org.rdmasim.transport.config.HcaPerGpuLimit;
import org.rdmasim.transport.config.MemoryType;
import org.rdmasim.transport.config.Ternary;

class MemoryInputTest {

    @Test
    void negativeSizesAreRejected() {
        MemoryInputException e = assertThrows(MemoryInputException.class, () -> MemoryRegion.cuda("GPU0", -1));
        assertEquals("buffer size must be >= 0 bytes, got -1", e.getMessage());
        assertInstanceOf(IllegalArgumentException.class, e);
        assertThrows(MemoryInputException.class, () -> CudaPoolAddressSpace.forDevice(-5));
        assertThrows(MemoryInputException.class, () -> CudaPoolAddressSpace.forDevice(1).withPoolMaxSize(-1));
        assertThrows(MemoryInputException.class, () -> MttSizing.smallestLogNumMtt(-1, 2, 3, 4096));
    }

    @Test
    void unknownPageSizeIsRejected() {
        MemoryInputException e = assertThrows(MemoryInputException.class,
                () -> RegistrationParameters.defaults().withPageSizeBytes(8192));
        assertTrue(e.getMessage().contains("unsupported translation page size 8192"), e.getMessage());
        assertThrows(MemoryInputException.class, () -> MttSizing.maxRegisterableBytes(20, 3, 3000));
    }

    @Test
    void negativeCapsAreRejected() {
        MemoryInputException e = assertThrows(MemoryInputException.class,
                () -> RegistrationLimits.unlimited().withFirmwarePageCap(-1, FirmwareCapScope.PER_HCA));
        assertEquals("firmware page cap must be >= 0 bytes, got -1", e.getMessage());
        assertThrows(MemoryInputException.class, () -> RegistrationLimits.unlimited().withBar1PerGpu(-1));
        assertThrows(MemoryInputException.class, () -> RegistrationLimits.unlimited().withMttLimit(-1));
        assertThrows(MemoryInputException.class, () -> RegistrationLimits.unlimited().withHostMemory(-1));
    }

    @Test
    void badSettingsAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> HcaPerGpuLimit.parse("closest"));
        assertThrows(IllegalArgumentException.class, () -> HcaPerGpuLimit.parse("0"));
        assertThrows(IllegalArgumentException.class, () -> Ternary.parse("sometimes"));
        assertThrows(MemoryInputException.class, () -> new MemoryRegion("GPU0", MemoryType.ROCM, 1, 0, -1));
        assertThrows(MemoryInputException.class, () -> CudaPoolAddressSpace.forDevice(1).withPoolsPerCommunicator(3));
        assertThrows(IllegalArgumentException.class, () -> new HcaDistance(-1, 1));
        assertThrows(IllegalArgumentException.class, () -> new HcaDistance(0, 0));
        assertThrows(MemoryInputException.class, () -> new HcaCandidate("", 0, HgxHost.PIX, true));
        assertThrows(MemoryInputException.class, () -> VirtualAddressSpace.ofBits(64));
    }

    @Test
    void duplicateHcasAreRejected() {
        RegistrationModel model = new RegistrationModel();
        List<HcaCandidate> twice = List.of(new HcaCandidate("mlx5_0", 0, HgxHost.PIX, true),
                new HcaCandidate("mlx5_0", 1, HgxHost.NODE, true));
        assertThrows(MemoryInputException.class, () -> model.plan(MemoryRegion.cuda("GPU0", 1), twice,
                UcxRegistrationConfig.ucxDefaults(CpuFamily.OTHER, org.rdmasim.transport.config.StackVersion.parse("1.20.0"))));
    }
}
