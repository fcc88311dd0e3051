package org.rdmasim.transport.libfabric;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.rdmasim.hardware.CpuFamily;
import org.rdmasim.hardware.GpuModel;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.HostSpec;
import org.rdmasim.hardware.LinkLayer;
import org.rdmasim.hardware.LinkSpec;
import org.rdmasim.hardware.NicModel;
import org.rdmasim.hardware.PathType;
import org.rdmasim.hardware.PcieGen;
import org.rdmasim.hardware.Presets;
import org.rdmasim.hardware.TopologyNode;

/** NIXL's GPU-to-EFA grouping (groupNicsWithAccel) on presets and on hand-made trees. */
class EfaGroupsTest {
    @Test
    void eachP5GpuGetsItsOwnFourEfaDevices() {
        Host h = new Host("p5", Presets.get("p5.48xlarge"));
        EfaGroups groups = EfaGroups.of(h, List.of());
        Set<String> seen = new HashSet<>();
        for (TopologyNode gpu : h.gpus()) {
            EfaGroups.Group g = groups.of(gpu.name());
            assertEquals(4, g.rails().size(), gpu.name());
            assertFalse(g.fallback());
            for (String rail : g.rails()) {
                assertEquals(PathType.PIX, h.relation(gpu, h.nic(rail)), gpu.name() + " " + rail);
                assertTrue(seen.add(rail), rail + " given to two GPUs");
            }
        }
        assertEquals(32, seen.size());
        assertEquals(List.of("rdmap79s0", "rdmap80s0", "rdmap81s0", "rdmap82s0"), groups.of("GPU0").rails());
        assertEquals(List.of("rdmap198s0", "rdmap199s0", "rdmap200s0", "rdmap201s0"), groups.of("GPU7").rails());
    }

    /** p5en: two GPUs and four EFA devices per switch, two each; p6-b200: two and two, one each. */
    @Test
    void laterGenerationsSplitASwitchBetweenItsTwoGpus() {
        assertSplit("p5en.48xlarge", 2, List.of("rdmap85s0", "rdmap86s0"), List.of("rdmap87s0", "rdmap88s0"));
        assertSplit("p6-b200.48xlarge", 1, List.of("rdmap79s0"), List.of("rdmap80s0"));
    }

    private static void assertSplit(String preset, int perGpu, List<String> gpu0, List<String> gpu1) {
        Host h = new Host(preset, Presets.get(preset));
        EfaGroups groups = EfaGroups.of(h, List.of());
        Set<String> seen = new HashSet<>();
        for (TopologyNode gpu : h.gpus()) {
            EfaGroups.Group g = groups.of(gpu.name());
            assertEquals(perGpu, g.rails().size(), preset + " " + gpu.name());
            assertEquals(2, g.gpusSharing());
            g.rails().forEach(r -> assertTrue(seen.add(r), r + " given to two GPUs"));
        }
        assertEquals(h.nics().size(), seen.size());
        assertEquals(gpu0, groups.of("GPU0").rails());
        assertEquals(gpu1, groups.of("GPU1").rails());
    }

    @Test
    void visibleDevicesAreTheOnlyOnesGrouped() {
        Host h = new Host("p5", Presets.get("p5.48xlarge"));
        EfaGroups groups = EfaGroups.of(h, List.of("rdmap80s0", "rdmap96s0"));
        assertEquals(List.of("rdmap80s0"), groups.of("GPU0").rails());
        assertEquals(List.of("rdmap96s0"), groups.of("GPU1").rails());
        // GPU2's switch has no visible device: walking up, GPU2 counts at the socket, where no device
        // is left to split, so it falls back to every visible device (getEfaDevicesForPci)
        EfaGroups.Group g2 = groups.of("GPU2");
        assertTrue(g2.fallback());
        assertEquals(List.of("rdmap80s0", "rdmap96s0"), g2.rails());
        assertTrue(EfaGroups.of(h, List.of("mlx5_0")).isEmpty());
    }

    @Test
    void gb200SplitsEachGraceNicsBetweenItsGpus() {
        Host h = new Host("t", Presets.get("gb200-tray"));
        EfaGroups groups = EfaGroups.of(h, List.of());
        for (int g = 0; g < 4; g++) {
            EfaGroups.Group group = groups.of("GPU" + g);
            assertEquals(List.of("mlx5_" + g), group.rails());
            assertEquals(2, group.gpusSharing());
        }
    }

    /** Three NICs over two GPUs at one node: the first group gets the extra one; one NIC over two: shared. */
    @Test
    void unevenAndScarceSplits() {
        Host three = new Host("h", host(2, 3));
        EfaGroups g = EfaGroups.of(three, List.of());
        assertEquals(List.of("efa0", "efa1"), g.of("GPU0").rails());
        assertEquals(List.of("efa2"), g.of("GPU1").rails());
        Host one = new Host("h", host(2, 1));
        EfaGroups s = EfaGroups.of(one, List.of());
        assertEquals(List.of("efa0"), s.of("GPU0").rails());
        assertEquals(List.of("efa0"), s.of("GPU1").rails());
    }

    /**
     * Two GPUs and one device on one switch, a second device on a switch without GPUs: from 0.9.0 both
     * GPUs share their switch's device; before, the second GPU gets no group and so every device.
     */
    @Test
    void scarceDevicesByRelease() {
        HostSpec base = host(2, 1);
        HostSpec.SwitchSpec lone = new HostSpec.SwitchSpec("sw2", LinkSpec.pcie(PcieGen.GEN5, 16),
                List.of(HostSpec.NicSpec.of("efa9", NicModel.EFA2, LinkLayer.EFA)));
        List<HostSpec.DeviceSpec> devices = new java.util.ArrayList<>(base.sockets().get(0).devices());
        devices.add(lone);
        HostSpec.SocketSpec s0 = base.sockets().get(0);
        Host h = new Host("h", new HostSpec("test", CpuFamily.AMD_ZEN, 64e9, List.of(new HostSpec.SocketSpec(0,
                s0.memoryBandwidth(), s0.memoryBytes(), s0.cpuAffinity(), devices)), "test host"));
        EfaGroups now = EfaGroups.of(h, List.of(), EfaGroups.ScarceDevices.of(java.util.Optional.of(
                org.rdmasim.transport.config.StackVersion.parse("1.4.0"))));
        assertEquals(List.of("efa0"), now.of("GPU1").rails());
        EfaGroups before = EfaGroups.of(h, List.of(), EfaGroups.ScarceDevices.of(java.util.Optional.of(
                org.rdmasim.transport.config.StackVersion.parse("0.8.0"))));
        assertEquals(List.of("efa0"), before.of("GPU0").rails());
        assertTrue(before.of("GPU1").fallback());
        assertEquals(List.of("efa0", "efa9"), before.of("GPU1").rails());
    }

    /** {@code gpus} GPUs and {@code nics} EFA devices under one PCIe switch of one socket. */
    static HostSpec host(int gpus, int nics) {
        List<HostSpec.DeviceSpec> under = new java.util.ArrayList<>();
        for (int i = 0; i < gpus; i++) {
            under.add(new HostSpec.GpuSpec("GPU" + i, GpuModel.H100, GpuModel.H100.hostLink(), GpuModel.H100.hbmBytes(),
                    GpuModel.H100.bar1Bytes(), 0));
        }
        for (int i = 0; i < nics; i++) {
            under.add(HostSpec.NicSpec.of("efa" + i, NicModel.EFA2, LinkLayer.EFA));
        }
        HostSpec.SwitchSpec sw = new HostSpec.SwitchSpec("sw", LinkSpec.pcie(PcieGen.GEN5, 16), under);
        return new HostSpec("test", CpuFamily.AMD_ZEN, 64e9,
                List.of(new HostSpec.SocketSpec(0, 200e9, 1L << 40, "0-47", List.of(sw))), "test host");
    }
}
