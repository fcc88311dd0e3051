package org.rdmasim.importers;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.rdmasim.hardware.Presets;

class DotWriterTest {

    @Test
    void edgesCarryTheLinkType() {
        String dot = DotWriter.write(Presets.get("dgx-h100"));
        assertTrue(dot.startsWith("graph \"DGX H100\" {\n"), dot);
        assertTrue(dot.contains("\"CPU0\" -- \"pcie-switch0\" [label=\"PCIe Gen5 x16\"];"), dot);
        assertTrue(dot.contains("\"pcie-switch0\" -- \"mlx5_0\" [label=\"PCIe Gen5 x16\"];"), dot);
        assertTrue(dot.contains("\"CPU0\" -- \"CPU1\" [style=dashed, label=\"inter-socket 128 GB/s\"];"), dot);
        assertTrue(dot.trim().endsWith("}"));
        String gb = DotWriter.write(Presets.get("gb200-tray"));
        assertTrue(gb.contains("\"CPU0\" -- \"GPU0\" [label=\"C2C 450 GB/s\"];"), gb);
    }
}
