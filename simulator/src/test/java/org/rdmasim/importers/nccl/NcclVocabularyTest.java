package org.rdmasim.importers.nccl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.rdmasim.hardware.NicModel;
import org.rdmasim.hardware.PcieGen;

/** NCCL's words for devices, one value at a time, at the edges of each rule. */
class NcclVocabularyTest {

    @Test
    void cpuMasksAreThirtyTwoBitWordsMostSignificantFirst() {
        assertEquals(Optional.of("00000008"), NcclVocabulary.cpuMask("3"));
        assertEquals(Optional.of("000000ff"), NcclVocabulary.cpuMask("0-7"));
        // CPU 32 needs a second word: nine hex digits round up to two words of eight
        assertEquals(Optional.of("00000001,00000001"), NcclVocabulary.cpuMask("0,32"));
        assertEquals("0,32", NcclVocabulary.cpuList("00000001,00000001"));
        assertEquals(Optional.empty(), NcclVocabulary.cpuMask(""));
        assertEquals(Optional.empty(), NcclVocabulary.cpuMask("0-7,x"));
    }

    @Test
    void aCpuListOfExactlyTenThousandCharactersIsStillRead() {
        String list = "10" + ",0".repeat(4999);
        assertEquals(10_000, list.length());
        assertEquals(Optional.of("00000401"), NcclVocabulary.cpuMask(list));
        assertEquals(Optional.empty(), NcclVocabulary.cpuMask(list + ",0"));
    }

    @Test
    void linkSpeedsBelowGen3AreNotAGeneration() {
        assertEquals(Optional.empty(), NcclVocabulary.generation("5.0 GT/s PCIe"));
        assertEquals(Optional.of(PcieGen.GEN3), NcclVocabulary.generation("8 GT/s"));
        // 7.5 is the cut: from it on the speed must be a real generation, and 7.5 is none
        assertEquals("no PCIe generation runs at 7.5 GT/s (expected 8, 16, 32 or 64)", org.junit.jupiter.api.Assertions
                .assertThrows(IllegalArgumentException.class, () -> NcclVocabulary.generation("7.5 GT/s PCIe")).getMessage());
        assertEquals("32.0 GT/s PCIe", NcclVocabulary.linkSpeed(PcieGen.GEN5));
        assertEquals("8.0 GT/s PCIe", NcclVocabulary.linkSpeed(PcieGen.GEN3));
    }

    @Test
    void theSlowestConnectXThatReachesAPortSpeed() {
        assertEquals(NicModel.CX5, NcclVocabulary.nicModel(100));
        assertEquals(NicModel.CX6, NcclVocabulary.nicModel(100.5));
        assertEquals(NicModel.CX6, NcclVocabulary.nicModel(200));
        assertEquals(NicModel.CX7, NcclVocabulary.nicModel(200.5));
        assertEquals(NicModel.CX7, NcclVocabulary.nicModel(400));
        assertEquals(NicModel.CX8, NcclVocabulary.nicModel(400.5));
        assertEquals(NicModel.CX8, NcclVocabulary.nicModel(800));
    }

    @Test
    void productsMapToModelsAndEfaPicksByLineRate() {
        assertEquals(Optional.of(NicModel.CX7), NcclVocabulary.nicModelFor("cx7", 0));
        assertEquals(Optional.of(NicModel.EFA3), NcclVocabulary.nicModelFor("EFA3", 100));
        // the first-generation EFA is not modelled: the generation whose line rate matches, else the first EFA
        assertEquals(Optional.of(NicModel.EFA3), NcclVocabulary.nicModelFor("EFA", 200));
        assertEquals(Optional.of(NicModel.EFA4), NcclVocabulary.nicModelFor("EFA", 400));
        assertEquals(Optional.of(NicModel.EFA2), NcclVocabulary.nicModelFor("EFA", 0));
        assertEquals(Optional.of(NicModel.EFA2), NcclVocabulary.nicModelFor("EFA", 300));
        assertEquals(Optional.empty(), NcclVocabulary.nicModelFor("BlueField-3", 400));
    }

    @Test
    void everyProductAPciIdNamesHasAModel() {
        // The reader relies on it (NcclTopologyReader.modelFromFile): a named product never falls back.
        for (String vendor : new String[] {NcclVocabulary.MELLANOX_VENDOR, NcclVocabulary.AMAZON_VENDOR}) {
            for (int id = 0x1000; id <= 0x1030; id++) {
                checkHasModel(vendor, String.format("0x%04x", id));
            }
            for (int id = 0xefa0; id <= 0xefaf; id++) {
                checkHasModel(vendor, String.format("0x%04x", id));
            }
        }
        assertEquals(Optional.of("CX6"), NcclVocabulary.nicProduct("0x15b3", "0x101d"));
        assertEquals(Optional.of("EFA"), NcclVocabulary.nicProduct("0x1d0f", "0xefa0"));
    }

    private static void checkHasModel(String vendor, String device) {
        Optional<String> product = NcclVocabulary.nicProduct(vendor, device);
        for (double gbps : new double[] {0, 100, 200, 400, 800}) {
            product.ifPresent(p -> assertTrue(NcclVocabulary.nicModelFor(p, gbps).isPresent(), p + " at " + gbps));
        }
    }

    @Test
    void nicProductsComeFromVendorAndDevice() {
        assertEquals(Optional.of("CX7"), NcclVocabulary.nicProduct("0x15b3", "0x1021"));
        assertEquals(Optional.of("CX6"), NcclVocabulary.nicProduct(" 0x15B3 ", "0x101d"));
        assertEquals(Optional.empty(), NcclVocabulary.nicProduct("0x15b3", "0x9999"));
        // an Intel function with a ConnectX device number is not a ConnectX
        assertEquals(Optional.empty(), NcclVocabulary.nicProduct("0x8086", "0x1021"));
        assertEquals(Optional.of("EFA2"), NcclVocabulary.nicProduct("0x1d0f", "0xefa1"));
    }

    @Test
    void pciClassesGiveRoles() {
        assertEquals(NcclVocabulary.PciRole.NVSWITCH, NcclVocabulary.role("0x068000"));
        assertEquals(NcclVocabulary.PciRole.NVSWITCH, NcclVocabulary.role("0x068001"));
        assertEquals(NcclVocabulary.PciRole.HOST_BRIDGE, NcclVocabulary.role("0x060000"));
        assertEquals(NcclVocabulary.PciRole.BRIDGE, NcclVocabulary.role("0x060400"));
        assertEquals(NcclVocabulary.PciRole.OTHER, NcclVocabulary.role("0x010802"));
    }
}
