package org.rdmasim.hardware;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.rdmasim.engine.SimulationClock;
import org.rdmasim.fluid.FluidNetwork;
import org.rdmasim.fluid.Limit;
import org.rdmasim.fluid.Resource;

/**
 * Each kind of bottleneck keeps the id reports have always written (transfers.csv, summary.json are
 * checked byte for byte against reports/), and the words the report's old text parser made of that id.
 */
class BottleneckTest {
    private static void reads(Bottleneck b, String id, String words) {
        assertEquals(id, b.id(), "id");
        assertEquals(words, b.words(), "words of " + id);
    }

    @Test
    void nicWireInBothDirections() {
        reads(new Bottleneck.NicWire("h0", "mlx5_0", Bottleneck.Side.TX, null), "h0:mlx5_0 tx",
                "NIC mlx5_0's transmit line rate on h0");
        reads(new Bottleneck.NicWire("h0", "mlx5_1", Bottleneck.Side.RX, null), "h0:mlx5_1 rx",
                "NIC mlx5_1's receive line rate on h0");
    }

    @Test
    void anEfaWireRateSaysItRestsOnTheAssumedSrdEfficiency() {
        Bottleneck b = new Bottleneck.NicWire("a", "rdmap79s0", Bottleneck.Side.RX, "aws-efa");
        reads(b, "a:rdmap79s0 rx, SRD efficiency assumed in aws-efa",
                "NIC rdmap79s0's receive line rate on a (its SRD framing efficiency ASSUMED: 0.978 of line rate, profile aws-efa)");
        assertEquals(Optional.of("aws-efa"), b.profile());
    }

    @Test
    void pcieAndC2cLinks() {
        reads(new Bottleneck.Link("h0", "GPU0", LinkSpec.LinkType.PCIE, Bottleneck.Direction.UP), "h0:GPU0 PCIe up",
                "GPU0's PCIe link on h0 (towards the CPU)");
        reads(new Bottleneck.Link("h0", "GPU3", LinkSpec.LinkType.PCIE, Bottleneck.Direction.DOWN), "h0:GPU3 PCIe down",
                "GPU3's PCIe link on h0 (from the CPU)");
        reads(new Bottleneck.Link("gb", "GPU0", LinkSpec.LinkType.C2C, Bottleneck.Direction.UP), "gb:GPU0 C2C up",
                "GPU0's NVLink-C2C link on gb (towards the CPU)");
        reads(new Bottleneck.Link("gb", "GPU1", LinkSpec.LinkType.C2C, Bottleneck.Direction.DOWN), "gb:GPU1 C2C down",
                "GPU1's NVLink-C2C link on gb (from the CPU)");
    }

    @Test
    void hostMemorySocketLinkAndFabricLeaf() {
        reads(new Bottleneck.HostMemory("h0", 0), "h0:CPU0 memory", "host memory bandwidth of CPU0 on h0");
        reads(new Bottleneck.SocketLink("h0", 0, 1), "h0:CPU0->CPU1", "the socket link CPU0 to CPU1 on h0");
        // a Grace-Grace link's figure is gb200-roce's assumed graceToGrace: its limit says so, as a profile's limit does
        reads(new Bottleneck.SocketLink("h0", 0, 1, "gb200-roce", ProfileKey.GRACE_TO_GRACE),
                "h0:CPU0->CPU1, assumed in gb200-roce",
                "the socket link CPU0 to CPU1 on h0, ASSUMED (100 GB/s, graceToGrace of profile gb200-roce)");
        reads(new Bottleneck.FabricLeaf("leaf0", Bottleneck.Direction.UP), "leaf0 uplink", "the fabric: leaf leaf0's uplink");
        reads(new Bottleneck.FabricLeaf("rail1-leaf2", Bottleneck.Direction.DOWN), "rail1-leaf2 downlink",
                "the fabric: leaf rail1-leaf2's downlink");
    }

    @Test
    void calibratedNicReadRateQuotesItsProfile() {
        reads(new Bottleneck.NicReadCalibrated("receiver", "mlx5_0", "gb200-roce"), "receiver:mlx5_0 READ, calibrated to gb200-roce",
                "NIC mlx5_0's delivered RDMA READ rate on receiver, CALIBRATED (308 Gbps, profile gb200-roce)");
    }

    @Test
    void strictOrderWritesQuoteTheirProfileAndTheSettingThatDecidesThem() {
        Bottleneck b = new Bottleneck.StrictOrderWrite("b", "mlx5_0", "emr-connectx");
        reads(b, "b:mlx5_0 strict-order writes into GPU memory, calibrated to emr-connectx",
                "NIC mlx5_0's writes into GPU memory without PCIe relaxed ordering on b, CALIBRATED (128 Gbps, profile "
                        + "emr-connectx; UCX_IB_PCI_RELAXED_ORDERING decides it)");
        assertEquals(Optional.of("emr-connectx"), b.profile());
    }

    @Test
    void perQpReadRateSaysWhetherItIsCalibratedOrAssumed() {
        reads(new Bottleneck.QpReadRate("b", "mlx5_0", "connectx7", false), "b:mlx5_0 READ rate of one QP, calibrated to connectx7",
                "one QP's RDMA READ rate on b:mlx5_0, CALIBRATED (320 Gbps, profile connectx7)");
    }

    @Test
    void laneCapsOfTheTransport() {
        reads(new Bottleneck.OutstandingReads("b", "mlx5_0"), "b:mlx5_0 outstanding READs per QP",
                "RDMA READs in flight per QP (max_qp_rd_atom) on b:mlx5_0");
        reads(new Bottleneck.PostingRate("dst:GPU0"), "descriptor posting rate (dst:GPU0)",
                "the CPU's descriptor posting rate (dst:GPU0) (its per-descriptor cost is ASSUMED unless the scenario's protocol sets it)");
        reads(Bottleneck.Plain.MESSAGE_RATE, "NIC message rate",
                "the NIC's message rate (its per-work-request cost is ASSUMED unless the scenario's protocol sets it)");
        reads(Bottleneck.Plain.IOMMU, "IOMMU translation (not passthrough)",
                "IOMMU translation (not in passthrough; the scenario's ASSUMED penalty)");
    }

    @Test
    void ownCapNothingAndFailure() {
        reads(Bottleneck.Plain.FLOW_CAP, "flow-cap", "flow-cap");
        reads(Bottleneck.Plain.NONE, "none", "nothing (no bytes)");
        reads(new Bottleneck.Failed(null), "failed", "failed");
        reads(new Bottleneck.Failed("NIXL_ERR_BACKEND: x"), "failed: NIXL_ERR_BACKEND: x", "failed: NIXL_ERR_BACKEND: x");
    }

    @Test
    void onlyCalibratedOrAssumedNumbersNameAProfile() {
        assertEquals(Optional.of("gb200-roce"), new Bottleneck.NicReadCalibrated("r", "mlx5_0", "gb200-roce").profile());
        assertEquals(Optional.of("gb300-ib"), new Bottleneck.QpReadRate("b", "mlx5_0", "gb300-ib", true).profile());
        assertEquals(Optional.of("connectx7"), new Bottleneck.QpReadRate("b", "mlx5_0", "connectx7", false).profile());
        for (Bottleneck b : new Bottleneck[] {new Bottleneck.NicWire("s", "mlx5_0", Bottleneck.Side.TX, null),
                new Bottleneck.Link("h", "GPU0", LinkSpec.LinkType.PCIE, Bottleneck.Direction.UP), new Bottleneck.HostMemory("h", 0),
                new Bottleneck.SocketLink("h", 1, 0), new Bottleneck.FabricLeaf("leaf0", Bottleneck.Direction.UP),
                new Bottleneck.OutstandingReads("b", "mlx5_0"), new Bottleneck.PostingRate("a:GPU0"), Bottleneck.Plain.MESSAGE_RATE,
                Bottleneck.Plain.IOMMU, Bottleneck.Plain.FLOW_CAP, Bottleneck.Plain.NONE, new Bottleneck.Failed("x")}) {
            assertEquals(Optional.empty(), b.profile(), b.id());
        }
    }

    @Test
    void aFluidLimitMapsToItsBottleneckAndANameOnlyResourceIsRefused() {
        Bottleneck wire = new Bottleneck.NicWire("h0", "mlx5_0", Bottleneck.Side.TX, null);
        assertSame(wire, Bottleneck.of(wire));
        assertEquals(Bottleneck.Plain.NONE, Bottleneck.of(Limit.NONE));
        assertEquals(Bottleneck.Plain.FLOW_CAP, Bottleneck.of(Limit.OWN_CAP));
        assertThrows(IllegalArgumentException.class, () -> Bottleneck.of(Limit.named("h0 tx")));
    }

    @Test
    void everyResourceOfAClusterCarriesItsBottleneckNamedByItsId() {
        // a GB200 tray (calibrated READ rate, C2C links, two sockets) and a p5 (EFA: assumed SRD
        // efficiency), one host per leaf so that the fabric's leaf links exist too
        Cluster c = new Cluster(List.of(new Host("gb", Presets.get("gb200-tray")), new Host("p5", Presets.get("p5.48xlarge"))),
                new FabricSpec(FabricSpec.Kind.LEAF_SPINE, 1, 2.0, FabricSpec.DEFAULT_HOP_LATENCY),
                new FluidNetwork(new SimulationClock()));
        Set<Class<?>> kinds = new HashSet<>();
        for (Resource r : c.allResources()) {
            Bottleneck b = assertInstanceOf(Bottleneck.class, r.limit(), r.name());
            assertEquals(r.name(), b.id());
            kinds.add(b.getClass());
        }
        assertEquals(Set.of(Bottleneck.NicWire.class, Bottleneck.Link.class, Bottleneck.HostMemory.class,
                Bottleneck.SocketLink.class, Bottleneck.FabricLeaf.class, Bottleneck.NicReadCalibrated.class), kinds);
        Host gb = c.host("gb");
        assertEquals(new Bottleneck.NicReadCalibrated("gb", "mlx5_0", "gb200-roce"),
                c.nicReadCalibrated(gb.nic("mlx5_0")).limit());
        // the calibration a report cites is read from the value, not from its text
        assertEquals(Optional.of("gb200-roce"), ((Bottleneck) c.nicReadCalibrated(gb.nic("mlx5_0")).limit()).profile());
        Host p5 = c.host("p5");
        TopologyNode efa = p5.nics().get(0);
        assertEquals(Optional.of("aws-efa"), ((Bottleneck) c.nicTx(efa).limit()).profile());
    }
}
