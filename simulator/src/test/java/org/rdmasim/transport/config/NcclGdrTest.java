package org.rdmasim.transport.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.rdmasim.hardware.PathType;

/**
 * NCCL's GPUDirect RDMA decision by release, from {@code ncclTopoCheckGdr} in NVIDIA/nccl
 * {@code src/graph/paths.cc}: v2.25.1-1 L415-427 (no C2C), v2.26.2-1 L381 {@code NET_GDR_C2C} default 0
 * and L433 (PHB over a C2C GPU counts as C2C), v2.27.3-1 L386 default 1 and L437 (P2C counts as C2C),
 * v2.28.9-1 L416/L467 (the same), v2.29.2-1 L456 (default level P2C when C2C is on, no remap).
 * There is no 2.26.1 in NCCL's history (2.25.1-1 is followed by 2.26.2-1): it stands for "just before
 * NET_GDR_C2C".
 */
class NcclGdrTest {
    private static final Optional<String> UNSET = Optional.empty();

    /** A GB200 tray: the GPU reaches its Grace over NVLink-C2C, the NIC hangs off the same Grace (NODE). */
    private static NcclGdr graceNic(String release, Optional<String> level, Optional<String> c2c) {
        return NcclGdr.decide(StackVersion.parse(release), level, c2c, PathType.NODE, true);
    }

    private static NcclGdr pcie(String release, PathType relation, Optional<String> level) {
        return NcclGdr.decide(StackVersion.parse(release), level, UNSET, relation, false);
    }

    @Test
    void aGraceAttachedNicByRelease() {
        // before NET_GDR_C2C: the path is PHB, beyond the default PXB: staged through host memory
        NcclGdr r2261 = graceNic("2.26.1", UNSET, UNSET);
        assertEquals(NcclPathType.PHB, r2261.path());
        assertFalse(r2261.gpuDirect());
        // 2.26.2: the knob exists but is off by default
        NcclGdr r2262 = graceNic("2.26.2", UNSET, UNSET);
        assertEquals(NcclPathType.PHB, r2262.path());
        assertFalse(r2262.gpuDirect());
        NcclGdr r2262on = graceNic("2.26.2", UNSET, Optional.of("1"));
        assertEquals(NcclPathType.C2C, r2262on.distance());
        assertTrue(r2262on.gpuDirect());
        // 2.27.3: the path is named P2C and NET_GDR_C2C=1 by default counts it as C2C, within PXB
        NcclGdr r2273 = graceNic("2.27.3", UNSET, UNSET);
        assertEquals(NcclPathType.P2C, r2273.path());
        assertEquals(NcclPathType.C2C, r2273.distance());
        assertEquals(NcclPathType.PXB, r2273.level());
        assertTrue(r2273.gpuDirect());
        assertFalse(graceNic("2.27.3", UNSET, Optional.of("0")).gpuDirect());
        // 2.28.x behaves as 2.27.3
        assertTrue(graceNic("2.28.9", UNSET, UNSET).gpuDirect());
        assertFalse(graceNic("2.28.3", UNSET, Optional.of("0")).gpuDirect());
        // 2.29.2: no remap; the default level itself becomes P2C while NET_GDR_C2C is on
        NcclGdr r2292 = graceNic("2.29.2", UNSET, UNSET);
        assertEquals(NcclPathType.P2C, r2292.distance());
        assertEquals(NcclPathType.P2C, r2292.level());
        assertTrue(r2292.gpuDirect());
        NcclGdr r2292off = graceNic("2.29.2", UNSET, Optional.of("0"));
        assertEquals(NcclPathType.PXB, r2292off.level());
        assertFalse(r2292off.gpuDirect());
    }

    @Test
    void anExplicitPxbLevelKeepsGpuDirectOnAGraceNicOnlyWhileTheRemapExists() {
        assertTrue(graceNic("2.28.9", Optional.of("PXB"), UNSET).gpuDirect(), "P2C counted as C2C, within PXB");
        assertFalse(graceNic("2.29.2", Optional.of("PXB"), UNSET).gpuDirect(), "P2C itself, beyond PXB");
    }

    @Test
    void theOtherGracesNicIsSysAtEveryRelease() {
        for (String release : new String[] {"2.26.1", "2.26.2", "2.27.3", "2.28.9", "2.29.2"}) {
            NcclGdr r = NcclGdr.decide(StackVersion.parse(release), UNSET, UNSET, PathType.SYS, true);
            assertEquals(NcclPathType.SYS, r.path(), release);
            assertFalse(r.gpuDirect(), release);
        }
    }

    @Test
    void pcieSwitchPathsUseGpuDirectAndHostBridgePathsDoNotAtEveryRelease() {
        for (String release : new String[] {"2.26.1", "2.26.2", "2.27.3", "2.28.9", "2.29.2"}) {
            assertTrue(pcie(release, PathType.PIX, UNSET).gpuDirect(), release);
            NcclGdr pxb = pcie(release, PathType.PXB, UNSET);
            assertEquals(NcclPathType.PXB, pxb.path(), release);
            assertTrue(pxb.gpuDirect(), release);
            NcclGdr phb = pcie(release, PathType.PHB, UNSET);
            assertEquals(NcclPathType.PHB, phb.path(), release);
            assertFalse(phb.gpuDirect(), release);
            // NCCL has no NODE: a path through a CPU is PHB
            assertEquals(NcclPathType.PHB, pcie(release, PathType.NODE, UNSET).path(), release);
            assertTrue(pcie(release, PathType.PHB, Optional.of("PHB")).gpuDirect(), release);
            assertFalse(pcie(release, PathType.PXB, Optional.of("PIX")).gpuDirect(), release);
        }
    }

    @Test
    void levelNamesAreThoseOfTheRelease() {
        // 2.26.x has no P2C: the name is not recognised and the default stays
        assertEquals(NcclPathType.PXB, graceNic("2.26.2", Optional.of("P2C"), UNSET).level());
        // 2.25.1 has no C2C either
        assertEquals(NcclPathType.PXB, NcclGdr.decide(StackVersion.parse("2.25.1"), Optional.of("C2C"), UNSET,
                PathType.PIX, false).level());
        assertEquals(NcclPathType.P2C, graceNic("2.27.3", Optional.of("P2C"), Optional.of("0")).level());
        assertEquals(NcclPathType.PHB, graceNic("2.27.3", Optional.of("3"), UNSET).level(), "old number 3 is PHB");
    }

    @Test
    void pxnSitsOnTheOtherSideOfP2cFrom2275() {
        // topoPathTypeStr (src/graph/topo.cc): 2.27.3-1 L24 has PXN before P2C, 2.27.5-1 L24 P2C before PXN
        assertFalse(graceNic("2.27.3", Optional.of("PXN"), Optional.of("0")).gpuDirect());
        assertTrue(graceNic("2.27.5", Optional.of("PXN"), Optional.of("0")).gpuDirect());
        assertEquals(7, NcclPathType.P2C.number(StackVersion.parse("2.27.3")));
        assertEquals(6, NcclPathType.P2C.number(StackVersion.parse("2.28.9")));
        assertEquals(-1, NcclPathType.P2C.number(StackVersion.parse("2.26.2")));
        assertEquals(3, NcclPathType.PIX.number(StackVersion.parse("2.25.1")));
        assertEquals(4, NcclPathType.PIX.number(StackVersion.parse("2.26.2")));
    }

    @Test
    void aNonNumericC2cSwitchReadsAsNcclReadsIt() {
        // NCCL_PARAM reads with strtoll: "yes" is 0, so off
        assertFalse(graceNic("2.26.2", UNSET, Optional.of("yes")).c2c());
        assertTrue(graceNic("2.26.2", UNSET, Optional.of("2")).c2c());
    }
}
