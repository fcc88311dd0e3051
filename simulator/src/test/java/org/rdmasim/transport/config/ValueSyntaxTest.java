package org.rdmasim.transport.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ValueSyntaxTest {

    @Test
    void memUnitsUseBinaryUnitsInAnyCase() {
        assertEquals(8 * 1024, MemUnits.parse("8k").requireBytes());
        assertEquals(8 * 1024, MemUnits.parse("8KB").requireBytes());
        assertEquals(4L << 20, MemUnits.parse("4M").requireBytes());
        assertEquals(1L << 30, MemUnits.parse("1g").requireBytes());
        assertEquals(64 * 1024, MemUnits.parse("64kB").requireBytes());
        assertEquals(512, MemUnits.parse("512").requireBytes());
        assertEquals(512, MemUnits.parse("512b").requireBytes());
        assertEquals(MemUnits.INF, MemUnits.parse("INF"));
        assertEquals(MemUnits.AUTO, MemUnits.parse("auto"));
        for (String bad : new String[] {"4MiB", "-1", "k", "1.5M", "", "4 M"}) {
            assertThrows(IllegalArgumentException.class, () -> MemUnits.parse(bad), bad);
        }
    }

    @Test
    void ternaryFollowsUcxsBooleanWords() {
        assertEquals(Ternary.YES, Ternary.parse("Yes"));
        assertEquals(Ternary.YES, Ternary.parse("1"));
        assertEquals(Ternary.NO, Ternary.parse("n"));
        assertEquals(Ternary.TRY, Ternary.parse("maybe"));
        assertEquals(Ternary.AUTO, Ternary.parse("AUTO"));
        assertThrows(IllegalArgumentException.class, () -> Ternary.parse("on"));
        assertThrows(IllegalArgumentException.class, () -> Ternary.parse("true"));
        assertEquals(true, Ternary.parseBoolean("y"));
        assertThrows(IllegalArgumentException.class, () -> Ternary.parseBoolean("try"));
    }

    @Test
    void unsignedAcceptsInfAndRejectsText() {
        assertEquals(4, UcxNumbers.unsigned("4"));
        assertEquals(UcxNumbers.UINT_INF, UcxNumbers.unsigned("inf"));
        assertThrows(IllegalArgumentException.class, () -> UcxNumbers.unsigned("two"));
        assertThrows(IllegalArgumentException.class, () -> UcxNumbers.unsigned("-1"));
        assertThrows(IllegalArgumentException.class, () -> UcxNumbers.unsigned("4294967296"));
    }

    @Test
    void rndvSchemesAreUcxsNames() {
        assertEquals(RndvScheme.GET_PIPELINE, RndvScheme.parse("get_ppln"));
        assertEquals(RndvScheme.RKEY_PTR, RndvScheme.parse("RKEY_PTR"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RndvScheme.parse("zcopy"));
        assertEquals("one of auto, get_zcopy, put_zcopy, get_ppln, put_ppln, am, rkey_ptr", e.getMessage());
    }

    @Test
    void fragSizesOverrideOnlyListedMemoryTypes() {
        FragSizes f = FragSizes.parse("cuda:16M");
        assertEquals(16L << 20, f.bytesFor(MemoryType.CUDA));
        assertEquals(512L << 10, f.bytesFor(MemoryType.HOST));
        assertEquals(4L << 20, f.bytesFor(MemoryType.ROCM));
        assertThrows(IllegalArgumentException.class, () -> FragSizes.parse("gpu:4M"));
        assertThrows(IllegalArgumentException.class, () -> FragSizes.parse("cuda:inf"));
        assertThrows(IllegalArgumentException.class, () -> FragSizes.parse("4M"));
    }

    @Test
    void gdrLevelNamesAndOldNumbersMatchNcclPathsCc() {
        Map<String, NcclPathType> expected = Map.of("0", NcclPathType.LOC, "1", NcclPathType.PIX,
                "2", NcclPathType.PXB, "3", NcclPathType.PHB, "4", NcclPathType.SYS, "5", NcclPathType.SYS,
                "17", NcclPathType.SYS, "PIX", NcclPathType.PIX, "C2C", NcclPathType.C2C, "SYS", NcclPathType.SYS);
        expected.forEach((text, level) -> assertEquals(level, NcclPathType.parseLevel(text), text));
        assertNull(NcclPathType.parseLevel("pix"));
        assertNull(NcclPathType.parseLevel("NET"));
        assertEquals(true, NcclPathType.PIX.atMost(NcclPathType.PXB));
        assertEquals(false, NcclPathType.SYS.atMost(NcclPathType.PXB));
    }

    @Test
    void strtollReadsLikeC() {
        assertEquals(new NcclNumbers.Parsed(0, 0, false), NcclNumbers.strtoll("two"));
        assertEquals(4, NcclNumbers.strtoll("4abc").value());
        assertEquals(1, NcclNumbers.strtoll("4abc").consumed());
        assertEquals(255, NcclNumbers.strtoll("0xff").value());
        assertEquals(8, NcclNumbers.strtoll("010").value());
        assertEquals(-3, NcclNumbers.strtoll("-3").value());
        assertEquals(true, NcclNumbers.strtoll("99999999999999999999").overflow());
    }

    @Test
    void versionsCompareNumerically() {
        assertEquals(true, StackVersion.parse("1.21").atLeast(StackVersion.parse("1.9.9")));
        assertEquals(new StackVersion(1, 21, 0), StackVersion.parse("1.21.0-rc1"));
        assertThrows(IllegalArgumentException.class, () -> StackVersion.parse("latest"));
    }

    @Test
    void editDistanceIsLevenshtein() {
        assertEquals(1, KnownVariables.editDistance("UCX_MAX_RMA_RAIL", "UCX_MAX_RMA_RAILS"));
        assertEquals(3, KnownVariables.editDistance("kitten", "sitting"));
        assertEquals("UCX_MAX_RNDV_RAILS", KnownVariables.closest("UCX_MAX_RNDV_RAIL"));
    }
}
