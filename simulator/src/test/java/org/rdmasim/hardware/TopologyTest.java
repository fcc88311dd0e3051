package org.rdmasim.hardware;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class TopologyTest {
    @Test
    void dgxH100PairsEachGpuWithOnePixNic() {
        Host h = new Host("h", Presets.get("dgx-h100"));
        assertEquals(8, h.gpus().size());
        assertEquals(12, h.nics().size());
        assertEquals(8, h.computeNics().size());
        for (int g = 0; g < 8; g++) {
            for (int n = 0; n < 8; n++) {
                PathType expected = g == n ? PathType.PIX : (g / 4 == n / 4 ? PathType.NODE : PathType.SYS);
                TopologyNode nic = h.computeNics().get(n);
                assertEquals(expected, h.relation(h.gpus().get(g), nic), "GPU" + g + " " + nic.name());
            }
        }
        assertEquals(PathType.NV, h.relation(h.gpus().get(0), h.gpus().get(5)));
        assertEquals("mlx5_5", h.nearestNic(h.gpu("GPU3")).name());
    }

    @Test
    void gb200TrayHasOnlyNodeAndSysRelations() {
        Host h = new Host("h", Presets.get("gb200-tray"));
        for (TopologyNode g : h.gpus()) {
            for (TopologyNode n : h.nics()) {
                PathType t = h.relation(g, n);
                assertTrue(t == PathType.NODE || t == PathType.SYS, g + "-" + n + " " + t);
                assertEquals(g.socket() == n.socket() ? PathType.NODE : PathType.SYS, t);
            }
        }
    }

    @Test
    void genericHostPlacesNicsAsAsked() {
        for (PathType rel : new PathType[] {PathType.PIX, PathType.PXB, PathType.PHB, PathType.NODE}) {
            Presets.GenericHost d = Presets.GenericHost.defaults();
            HostSpec spec = Presets.generic(new Presets.GenericHost(2, 2, 1, d.gpu(), d.nic(), d.linkLayer(), rel, d.cpu(),
                    d.memoryBandwidth(), d.interSocket()));
            Host h = new Host("h", spec);
            assertEquals(rel, h.relation(h.gpu("GPU0"), h.nic("mlx5_0")));
            assertEquals(PathType.SYS, h.relation(h.gpu("GPU0"), h.nic("mlx5_3")));
        }
    }

    @Test
    void matrixPrintsLikeNvidiaSmi() {
        String m = TopoMatrix.render(new Host("h", Presets.get("dgx-h100")));
        String[] lines = m.split("\n");
        assertTrue(lines[0].trim().startsWith("GPU0"));
        assertTrue(lines[1].startsWith("GPU0"));
        assertTrue(lines[1].contains("NV18"));
        assertTrue(m.contains("NIC0: mlx5_0"));
    }

    @Test
    void pcieBandwidthMatchesUcxModel() {
        // [ucx-src] ucs_topo_get_pci_bw: Gen4 x16 ~28.2 GB/s, Gen5 x16 ~56.4 GB/s after TLP overhead.
        assertEquals(28.2e9, PcieGen.GEN4.payloadBytesPerSecond(16), 0.1e9);
        assertEquals(56.4e9, PcieGen.GEN5.payloadBytesPerSecond(16), 0.1e9);
    }

    /**
     * A host built like another shares its shape (places, names) but has its own nodes, each of which
     * walks up its own host's tree, and a cluster gives the two hosts' NICs their own resources, built
     * only when first asked for, named after each host.
     */
    @Test
    void aHostBuiltLikeAnotherHasItsOwnNodesAndResources() {
        Host a = new Host("a", Presets.get("gb200-tray"));
        Host b = Host.like("b", a);
        assertTrue(a.shape() == b.shape(), "one shape");
        assertEquals(a.nics().size(), b.nics().size());
        for (int k = 0; k < a.nics().size(); k++) {
            TopologyNode na = a.nics().get(k);
            TopologyNode nb = b.nic(na.name());
            assertTrue(na != nb, "own nodes");
            assertTrue(na.place() == nb.place(), "one place");
            assertEquals(na.ordinal(), nb.ordinal());
            for (TopologyNode n = nb; n != null; n = n.parent()) {
                TopologyNode up = n;
                assertTrue(up.host() == b, up + " belongs to b");
                assertTrue(up.children().stream().allMatch(c -> c.host() == b && c.parent() == up), up + "'s children");
            }
        }
        assertTrue(b.commonAncestor(b.nics().get(0), b.gpus().get(0)).host() == b);
        org.rdmasim.fluid.FluidNetwork net = new org.rdmasim.fluid.FluidNetwork(new org.rdmasim.engine.SimulationClock());
        Cluster c = new Cluster(java.util.List.of(a, b), FabricSpec.nonBlocking(), net);
        assertEquals(0, net.resources().size(), "nothing built before it is asked for");
        TopologyNode nic = b.nics().get(1);
        assertEquals("b:" + nic.name() + " tx", c.nicTx(nic).name());
        assertEquals(c.nicTx(nic), c.nicTxIfBuilt(nic));
        assertEquals(null, c.nicTxIfBuilt(a.nics().get(1)));
        assertTrue(c.nicTx(a.nics().get(1)).index() < c.nicTx(nic).index(), "indices in host order, as built eagerly");
        assertEquals(c.allResources().size(), c.allResources().stream().map(org.rdmasim.fluid.Resource::name).distinct().count());
    }
    /** Hosts of one spec instance share one shape; another spec instance, even an equal one, gets its own. */
    @Test
    void hostsOfOneSpecShareOneShape() {
        HostSpec tray = Presets.get("gb200-tray");
        HostSpec other = Presets.get("gb200-tray");
        java.util.Map<String, HostSpec> specs = new java.util.LinkedHashMap<>();
        specs.put("r0", tray);
        specs.put("s0", other);
        specs.put("r1", tray);
        java.util.List<Host> hosts = Host.all(specs);
        assertEquals(java.util.List.of("r0", "s0", "r1"), hosts.stream().map(Host::name).toList());
        assertTrue(hosts.get(0).shape() == hosts.get(2).shape(), "r0 and r1 share");
        assertEquals(tray == other, hosts.get(0).shape() == hosts.get(1).shape());
        assertTrue(hosts.get(0).gpu("GPU0") != hosts.get(2).gpu("GPU0"), "each host its own nodes");
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> hosts.get(2).nic("GPU0"));
        assertTrue(e.getMessage().startsWith("host r1 has no NIC named GPU0"), e.getMessage());
    }
}
