package org.rdmasim.importers.host;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.rdmasim.engine.SimulationClock;
import org.rdmasim.fluid.FluidNetwork;
import org.rdmasim.fluid.Resource;
import org.rdmasim.hardware.Cluster;
import org.rdmasim.hardware.FabricSpec;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.HostSpec;
import org.rdmasim.hardware.Presets;
import org.rdmasim.importers.ImportOptions;
import org.rdmasim.importers.nccl.NcclTopologyReader;
import org.rdmasim.importers.smi.SmiTopologyReader;

/**
 * Single-NIC GPUDirect on an imported DGX-like host is bounded by the same resources as on the
 * preset: the GPU -> PIX NIC path crosses links of the same capacities, and the NIC's wire is the same.
 */
class ImportedPathCapacityTest {

    private static List<Double> gpuToPixNic(HostSpec spec) {
        Host h = new Host("h", spec);
        Cluster c = new Cluster(List.of(h), FabricSpec.nonBlocking(), new FluidNetwork(new SimulationClock()));
        List<Double> caps = new java.util.ArrayList<>(
                c.within(h, h.gpu("GPU0"), h.nic("mlx5_0"), false).stream().map(Resource::capacity).toList());
        caps.add(c.nicTx(h.nic("mlx5_0")).capacity());
        return caps;
    }

    private static String resource(String name) {
        try (var in = ImportedPathCapacityTest.class.getResourceAsStream("/importers/" + name)) {
            return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void nvidiaSmiImportCrossesTheSameCapacitiesAsThePreset() {
        HostSpec imported = SmiTopologyReader.read(resource("h100-dgx-topo.txt"), "dgx.txt", ImportOptions.defaults());
        assertEquals(gpuToPixNic(Presets.get("dgx-h100")), gpuToPixNic(imported));
    }

    @Test
    void ncclDumpImportCrossesTheSameCapacitiesAsThePreset() {
        HostSpec imported = NcclTopologyReader.read(resource("dgx-h100-dump.xml"), "dgx.xml", ImportOptions.defaults());
        List<Double> preset = gpuToPixNic(Presets.get("dgx-h100"));
        assertEquals(preset, gpuToPixNic(imported));
        assertEquals(3, preset.size()); // GPU up, NIC down, NIC wire: the switch is shared, the CPU not crossed
    }
}
