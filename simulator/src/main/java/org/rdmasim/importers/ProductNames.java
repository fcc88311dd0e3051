package org.rdmasim.importers;

import java.util.Locale;
import java.util.Optional;
import org.rdmasim.hardware.GpuModel;

/** The simulator's GPU model for a product name as nvidia-smi prints it ("NVIDIA H100 80GB HBM3"). */
public final class ProductNames {
    private ProductNames() {
    }

    /** Empty when the product is not one the simulator models (V100, RTX 6000 Ada, L40S...). */
    public static Optional<GpuModel> gpuModel(String product) {
        String p = product.toUpperCase(Locale.ROOT);
        if (p.contains("GB300") || p.contains("B300")) {
            return Optional.of(GpuModel.GB300);
        }
        if (p.contains("B200")) {
            return Optional.of(GpuModel.B200);
        }
        if (p.contains("H200")) {
            return Optional.of(GpuModel.H200);
        }
        if (p.contains("H100") || p.contains("H800")) {
            return Optional.of(GpuModel.H100);
        }
        if (p.contains("A100") || p.contains("A800")) {
            return Optional.of(GpuModel.A100);
        }
        if (p.matches(".*\\bT4\\b.*")) {
            return Optional.of(GpuModel.T4);
        }
        return Optional.empty();
    }
}
