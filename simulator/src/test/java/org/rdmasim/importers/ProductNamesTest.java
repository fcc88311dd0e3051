package org.rdmasim.importers;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.rdmasim.hardware.GpuModel;

/** Product strings as nvidia-smi prints them in the public dumps and vendor pages. */
class ProductNamesTest {

    @Test
    void eachModelledProductIsRecognised() {
        assertEquals(Optional.of(GpuModel.GB300), ProductNames.gpuModel("NVIDIA GB300"));
        assertEquals(Optional.of(GpuModel.GB300), ProductNames.gpuModel("NVIDIA B300 SXM6 AC"));
        assertEquals(Optional.of(GpuModel.B200), ProductNames.gpuModel("NVIDIA B200"));
        assertEquals(Optional.of(GpuModel.H200), ProductNames.gpuModel("NVIDIA H200"));
        assertEquals(Optional.of(GpuModel.H100), ProductNames.gpuModel("NVIDIA H100 80GB HBM3"));
        assertEquals(Optional.of(GpuModel.H100), ProductNames.gpuModel("NVIDIA H800"));
        assertEquals(Optional.of(GpuModel.A100), ProductNames.gpuModel("NVIDIA A100-SXM4-80GB"));
        assertEquals(Optional.of(GpuModel.A100), ProductNames.gpuModel("nvidia a800 80gb pcie"));
        assertEquals(Optional.of(GpuModel.T4), ProductNames.gpuModel("Tesla T4"));
    }

    @Test
    void otherProductsAreNotGuessed() {
        assertEquals(Optional.empty(), ProductNames.gpuModel("Tesla V100-SXM2-32GB"));
        assertEquals(Optional.empty(), ProductNames.gpuModel("NVIDIA L40S"));
        assertEquals(Optional.empty(), ProductNames.gpuModel("NVIDIA RTX 6000 Ada Generation"));
        // T4 only as a word: "T40" is not a T4
        assertEquals(Optional.empty(), ProductNames.gpuModel("Quadro RTX T400"));
    }
}
