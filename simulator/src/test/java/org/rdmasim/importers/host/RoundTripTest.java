package org.rdmasim.importers.host;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.rdmasim.hardware.GpuModel;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.HostSpec;
import org.rdmasim.hardware.LinkLayer;
import org.rdmasim.hardware.NicModel;
import org.rdmasim.hardware.PathType;
import org.rdmasim.hardware.Presets;
import org.rdmasim.hardware.TopoMatrix;
import org.rdmasim.importers.ImportOptions;
import org.rdmasim.importers.nccl.NcclTopologyReader;
import org.rdmasim.importers.nccl.NcclXmlWriter;
import org.rdmasim.importers.smi.SmiTopologyReader;

/** Every preset survives the trip out through each format and back: the same matrix, to the character. */
class RoundTripTest {

    static Stream<HostSpec> hosts() {
        Stream<HostSpec> presets = Presets.names().stream().map(Presets::get);
        Presets.GenericHost d = Presets.GenericHost.defaults();
        Stream<HostSpec> generic = Stream.of(PathType.PIX, PathType.PXB, PathType.PHB, PathType.NODE).map(r ->
                Presets.generic(new Presets.GenericHost(2, 4, 2, GpuModel.A100, NicModel.CX6, LinkLayer.INFINIBAND, r,
                        d.cpu(), d.memoryBandwidth(), d.interSocket())));
        return Stream.concat(presets, generic);
    }

    @ParameterizedTest
    @MethodSource("hosts")
    void ncclXmlKeepsTheMatrix(HostSpec preset) {
        String xml = NcclXmlWriter.write(preset);
        HostSpec back = NcclTopologyReader.read(xml, "preset.xml", ImportOptions.defaults());
        assertEquals(matrix(preset), matrix(back), xml);
    }

    @ParameterizedTest
    @MethodSource("hosts")
    void matrixTextKeepsTheMatrix(HostSpec preset) {
        String text = matrix(preset);
        HostSpec back = SmiTopologyReader.read(text, "preset.txt", ImportOptions.defaults());
        // every pair of devices, by name, keeps its relation; the NIC columns may come back in the inferred
        // tree's order (a DGX H100's storage card sits between GPU0's and GPU1's ports in PCI order)
        assertEquals(relationsByName(preset), relationsByName(back));
        // and which ports are storage survives where the cells can show it: the import takes a port PIX or PXB
        // to no GPU as storage when other ports are. On a Grace tray every port is NODE or SYS, so the matrix
        // cannot tell dgx-gb200-tray's BlueField-3 ports from its compute ports (--nic-model NAME=storage can)
        Host original = new Host("p", preset);
        boolean cellsShowIt = original.nics().stream().anyMatch(n -> original.gpus().stream()
                .map(g -> original.relation(g, n)).anyMatch(r -> r == PathType.PIX || r == PathType.PXB));
        assertEquals(cellsShowIt ? original.listedOnlyNics() : java.util.Set.of(), new Host("b", back).listedOnlyNics());
    }

    @ParameterizedTest
    @MethodSource("hosts")
    void ncclXmlKeepsModelsAndLinks(HostSpec preset) {
        HostSpec back = NcclTopologyReader.read(NcclXmlWriter.write(preset), "preset.xml", ImportOptions.defaults());
        Host a = new Host("a", preset);
        Host b = new Host("b", back);
        assertEquals(a.gpus().stream().map(g -> List.of(g.gpu().model(), g.gpu().link(), g.gpu().nvlinks())).toList(),
                b.gpus().stream().map(g -> List.of(g.gpu().model(), g.gpu().link(), g.gpu().nvlinks())).toList());
        assertEquals(a.nics().stream().map(n -> List.of(n.nic().model(), n.nic().link(), n.nic().lineRateGbps())).toList(),
                b.nics().stream().map(n -> List.of(n.nic().model(), n.nic().link(), n.nic().lineRateGbps())).toList());
        assertEquals(preset.cpuFamily(), back.cpuFamily());
    }

    private static java.util.Map<String, String> relationsByName(HostSpec spec) {
        Host h = new Host("h", spec);
        java.util.List<org.rdmasim.hardware.TopologyNode> all = new java.util.ArrayList<>(h.gpus());
        all.addAll(h.nics());
        java.util.Map<String, String> out = new java.util.TreeMap<>();
        for (var a : all) {
            for (var b : all) {
                if (a != b) {
                    PathType t = h.relation(a, b);
                    out.put(a.name() + "|" + b.name(), t == PathType.NV ? "NV" + h.nvlinkCount(a, b) : t.name());
                }
            }
        }
        return out;
    }

    private static String matrix(HostSpec spec) {
        return TopoMatrix.render(new Host("h", spec));
    }
}
