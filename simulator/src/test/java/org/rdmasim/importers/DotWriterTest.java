package org.rdmasim.importers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.rdmasim.hardware.CpuFamily;
import org.rdmasim.hardware.GpuModel;
import org.rdmasim.hardware.HostSpec;
import org.rdmasim.hardware.LinkLayer;
import org.rdmasim.hardware.LinkSpec;
import org.rdmasim.hardware.NicModel;
import org.rdmasim.hardware.PcieGen;
import org.rdmasim.hardware.Presets;

class DotWriterTest {

    @Test
    void edgesCarryTheLinkType() {
        String dot = DotWriter.write(Presets.get("dgx-h100"));
        assertTrue(dot.startsWith("graph \"DGX H100\" {\n"), dot);
        assertTrue(dot.contains("\"CPU0\" -- \"pcie-switch0\" [label=\"PCIe Gen5 x16\"];"), dot);
        assertTrue(dot.contains("\"pcie-switch0\" -- \"mlx5_0\" [label=\"PCIe Gen5 x16\"];"), dot);
        assertTrue(dot.contains("\"CPU0\" -- \"CPU1\" [style=dashed, label=\"inter-socket 1024 Gbps (128 GB/s)\"];"), dot);
        assertTrue(dot.trim().endsWith("}"));
        String gb = DotWriter.write(Presets.get("gb200-tray"));
        assertTrue(gb.contains("\"CPU0\" -- \"GPU0\" [label=\"C2C 3600 Gbps (450 GB/s)\"];"), gb);
    }

    /**
     * Every kind of node once, written out by hand: a host bridge above a switch, a GPU without and one
     * with NVLinks, an InfiniBand and a RoCE port, a socket without a CPU list and one without devices,
     * and three sockets, so each pair gets one dashed edge and no socket is paired with itself.
     */
    @Test
    void aSmallHostIsDrawnExactly() {
        HostSpec.DeviceSpec gpu0 = new HostSpec.GpuSpec("GPU0", GpuModel.H100, LinkSpec.pcie(PcieGen.GEN5, 16), 0, 0, 0);
        HostSpec.DeviceSpec ib = new HostSpec.NicSpec("mlx5_0", NicModel.CX7, LinkLayer.INFINIBAND,
                LinkSpec.pcie(PcieGen.GEN5, 16), 1, 400, true);
        HostSpec.DeviceSpec sw = new HostSpec.SwitchSpec("sw0", LinkSpec.pcie(PcieGen.GEN4, 8), List.of(gpu0, ib));
        HostSpec.DeviceSpec bridge = new HostSpec.HostBridgeSpec("hb0", List.of(sw));
        HostSpec.DeviceSpec gpu1 = new HostSpec.GpuSpec("GPU1", GpuModel.H100, LinkSpec.pcie(PcieGen.GEN5, 16), 0, 0, 18);
        HostSpec.DeviceSpec roce = new HostSpec.NicSpec("mlx5_1", NicModel.CX6, LinkLayer.ROCE,
                LinkSpec.pcie(PcieGen.GEN4, 16), 1, 200, true);
        HostSpec host = new HostSpec("lab box", CpuFamily.INTEL_OTHER, 64e9, List.of(
                new HostSpec.SocketSpec(0, 1e11, 1L << 30, "0-7", List.of(bridge)),
                new HostSpec.SocketSpec(1, 1e11, 1L << 30, "", List.of(gpu1, roce)),
                new HostSpec.SocketSpec(2, 1e11, 1L << 30, "", List.of())), "test");
        String expected = """
                graph "lab box" {
                  node [fontname="Helvetica", fontsize=10];
                  edge [fontname="Helvetica", fontsize=9];
                  "CPU0" [label="CPU0\\nNUMA 0\\nCPUs 0-7", shape=box3d, style=filled, fillcolor="#dddddd"];
                  "hb0" [label="hb0", shape=box, style=filled, fillcolor="#eeeeee"];
                  "CPU0" -- "hb0" [label="root complex"];
                  "sw0" [label="sw0", shape=diamond, style=filled, fillcolor="#ffffff"];
                  "hb0" -- "sw0" [label="PCIe Gen4 x8"];
                  "GPU0" [label="GPU0\\nH100-SXM5-80GB", shape=box, style=filled, fillcolor="#c6e5b3"];
                  "sw0" -- "GPU0" [label="PCIe Gen5 x16"];
                  "mlx5_0" [label="mlx5_0\\nConnectX-7 400 Gbps IB", shape=ellipse, style=filled, fillcolor="#b3cde5"];
                  "sw0" -- "mlx5_0" [label="PCIe Gen5 x16"];
                  "CPU1" [label="CPU1\\nNUMA 1", shape=box3d, style=filled, fillcolor="#dddddd"];
                  "GPU1" [label="GPU1\\nH100-SXM5-80GB\\nNV18", shape=box, style=filled, fillcolor="#c6e5b3"];
                  "CPU1" -- "GPU1" [label="PCIe Gen5 x16"];
                  "mlx5_1" [label="mlx5_1\\nConnectX-6 200 Gbps RoCE", shape=ellipse, style=filled, fillcolor="#b3cde5"];
                  "CPU1" -- "mlx5_1" [label="PCIe Gen4 x16"];
                  "CPU2" [label="CPU2\\nNUMA 2", shape=box3d, style=filled, fillcolor="#dddddd"];
                  "CPU0" -- "CPU1" [style=dashed, label="inter-socket 512 Gbps (64 GB/s)"];
                  "CPU0" -- "CPU2" [style=dashed, label="inter-socket 512 Gbps (64 GB/s)"];
                  "CPU1" -- "CPU2" [style=dashed, label="inter-socket 512 Gbps (64 GB/s)"];
                }
                """;
        assertEquals(expected, DotWriter.write(host));
    }
}
