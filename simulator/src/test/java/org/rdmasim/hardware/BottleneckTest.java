package org.rdmasim.hardware;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
                "NIC rdmap79s0's receive line rate on a (its SRD framing efficiency ASSUMED: 0.9804 of line rate, profile aws-efa)");
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
        reads(new Bottleneck.NicReadCalibrated("receiver", "mlx5_0", "gb200-roce"), "receiver:mlx5_0 READ, calibrated to gb200-roce (ai-dynamo/modelexpress #449)",
                "NIC mlx5_0's delivered RDMA READ rate on receiver, CALIBRATED (308 Gbps, profile gb200-roce)");
    }

    @Test
    void strictOrderWritesQuoteTheirProfileAndTheSettingThatDecidesThem() {
        Bottleneck b = new Bottleneck.StrictOrderWrite("b", "mlx5_0", "emr-connectx");
        reads(b, "b:mlx5_0 strict-order writes into GPU memory, calibrated to emr-connectx (openucx/ucx PR #10955)",
                "NIC mlx5_0's writes into GPU memory without PCIe relaxed ordering on b, CALIBRATED (128 Gbps, profile "
                        + "emr-connectx; UCX_IB_PCI_RELAXED_ORDERING decides it)");
        assertEquals(Optional.of("emr-connectx"), b.profile());
    }

    @Test
    void perQpReadRateSaysWhetherItIsCalibratedOrAssumed() {
        reads(new Bottleneck.QpReadRate("b", "mlx5_0", "connectx7"), "b:mlx5_0 READ rate of one QP, calibrated to connectx7 (novitalabs/pegaflow #291)",
                "one QP's RDMA READ rate on b:mlx5_0, CALIBRATED (320 Gbps, profile connectx7)");
        // gb200-roce takes connectx7's fitted figure over (extends=connectx7): still calibrated
        reads(new Bottleneck.QpReadRate("r", "mlx5_1", "gb200-roce"), "r:mlx5_1 READ rate of one QP, calibrated to gb200-roce (novitalabs/pegaflow #291)",
                "one QP's RDMA READ rate on r:mlx5_1, CALIBRATED (320 Gbps, profile gb200-roce)");
    }

    @Test
    void aParameterSaysHowItsProfileObtainedItAndAMissingOneIsRefusedNotLabelled() {
        ProfileParameter assumed = new ProfileParameter("gb200-roce", ProfileKey.GRACE_TO_GRACE);
        assertTrue(assumed.assumed());
        assertEquals("ASSUMED", assumed.kindWord());
        assertEquals("100 GB/s", assumed.valueText());
        ProfileParameter fitted = new ProfileParameter("connectx7", ProfileKey.QP_READ_RATE);
        assertEquals(false, fitted.assumed());
        assertEquals("CALIBRATED", fitted.kindWord());
        // gb300-ib holds no per-QP READ rate: a limit on it would have no kind and no value to say
        Bottleneck missing = new Bottleneck.QpReadRate("b", "mlx5_0", "gb300-ib");
        for (org.junit.jupiter.api.function.Executable said : List.<org.junit.jupiter.api.function.Executable>of(
                missing::words, missing::id)) {
            IllegalStateException e = assertThrows(IllegalStateException.class, said);
            assertTrue(e.getMessage().contains("'gb300-ib'") && e.getMessage().contains("'qpReadRate'"), e.getMessage());
        }
        // an unknown profile name is no better
        assertThrows(IllegalStateException.class, () -> new ProfileParameter("no-such-profile", ProfileKey.QP_READ_RATE)
                .kindWord());
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
        assertEquals(Optional.of("gb300-ib"), new Bottleneck.QpReadRate("b", "mlx5_0", "gb300-ib").profile());
        assertEquals(Optional.of("connectx7"), new Bottleneck.QpReadRate("b", "mlx5_0", "connectx7").profile());
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

    /** One limit of each kind; a kind added to the sealed interface without one here fails the test below. */
    private static final List<Bottleneck> ONE_OF_EACH = List.of(
            new Bottleneck.NicWire("a", "rdmap79s0", Bottleneck.Side.RX, "aws-efa"),
            new Bottleneck.Link("h", "GPU0", LinkSpec.LinkType.PCIE, Bottleneck.Direction.UP),
            new Bottleneck.HostMemory("h", 0),
            new Bottleneck.SocketLink("t0", 0, 1, "gb200-roce", ProfileKey.GRACE_TO_GRACE),
            new Bottleneck.FabricLeaf("leaf0", Bottleneck.Direction.UP),
            new Bottleneck.NicReadCalibrated("r", "mlx5_0", "gb200-roce"),
            new Bottleneck.StrictOrderWrite("b", "mlx5_0", "emr-connectx"),
            new Bottleneck.QpReadRate("b", "mlx5_0", "connectx7"),
            new Bottleneck.OutstandingReads("b", "mlx5_0"),
            new Bottleneck.SendQueue("b", "mlx5_0"),
            new Bottleneck.PostingRate("a:GPU0"),
            new Bottleneck.SliceThread("a:mlx5_0", "calibrated on MC-VLLM-KV-MARGIN"),
            new Bottleneck.RmaEmulation("a:GPU0", "put/am/bcopy", "device-to-host", 8192),
            new Bottleneck.PortStall("b:mlx5_0", 0.001, 0.002, 0.5),
            new Bottleneck.Degraded(new Bottleneck.NicReadCalibrated("r", "mlx5_0", "gb200-roce"), 0.5, 0, 1),
            new Bottleneck.Tie(List.of(new Bottleneck.NicWire("s", "mlx5_0", Bottleneck.Side.TX, null),
                    new Bottleneck.QpReadRate("b", "mlx5_0", "connectx7"))),
            Bottleneck.Plain.MESSAGE_RATE,
            new Bottleneck.Failed("x"));

    @Test
    void everyKindThatIsAProfileParameterNamesAKeyItsProfileHas() {
        Set<Class<?>> kinds = new HashSet<>();
        for (Bottleneck b : ONE_OF_EACH) {
            kinds.add(b.getClass());
        }
        assertEquals(Set.of(Bottleneck.class.getPermittedSubclasses()), kinds, "one limit of each kind");
        // the kinds whose rate a profile fits or assumes, each with the one key it is
        java.util.Map<Class<?>, ProfileKey> keys = java.util.Map.of(Bottleneck.NicWire.class, ProfileKey.EFA_WIRE_EFFICIENCY,
                Bottleneck.SocketLink.class, ProfileKey.GRACE_TO_GRACE,
                Bottleneck.NicReadCalibrated.class, ProfileKey.NIC_READ_RATE,
                Bottleneck.StrictOrderWrite.class, ProfileKey.STRICT_ORDER_GPU_WRITE_RATE,
                Bottleneck.QpReadRate.class, ProfileKey.QP_READ_RATE);
        for (Bottleneck b : ONE_OF_EACH) {
            if (b instanceof Bottleneck.Degraded || b instanceof Bottleneck.Tie) {
                continue;
            }
            List<ProfileParameter> on = b.parameters();
            if (!keys.containsKey(b.getClass())) {
                assertEquals(List.of(), on, b.id() + " is a mechanism, no profile's number");
                continue;
            }
            assertEquals(1, on.size(), b.id());
            assertEquals(keys.get(b.getClass()), on.get(0).key(), b.id());
            CalibrationProfile.Parameter p = on.get(0).lookup().orElseThrow(() -> new AssertionError(
                    b.id() + ": profile " + on.get(0).profile() + " has no " + on.get(0).key().key()));
            assertEquals(on.get(0).key().key(), p.key());
            assertEquals(Optional.of(on.get(0).profile()), b.profile());
            // the words quote the very value the profile holds
            assertTrue(b.words().contains(Units.number(p.value()) + " " + p.unit()), b.words());
        }
        // without a profile's figure, a wire rate and a socket link stand on nothing
        assertEquals(List.of(), new Bottleneck.NicWire("s", "mlx5_0", Bottleneck.Side.TX, null).parameters());
        assertEquals(List.of(), new Bottleneck.SocketLink("h", 0, 1).parameters());
        // half a profile's figure is refused: its words would name no key
        assertThrows(IllegalArgumentException.class, () -> new Bottleneck.SocketLink("h", 0, 1, "gb200-roce", null));
    }

    @Test
    void aDegradedLimitStandsOnItsNominalsParameterAndATieOnEachOfItsLimits() {
        Bottleneck read = new Bottleneck.NicReadCalibrated("r", "mlx5_0", "gb200-roce");
        Bottleneck efa = new Bottleneck.NicWire("a", "rdmap79s0", Bottleneck.Side.RX, "aws-efa");
        Bottleneck datasheet = new Bottleneck.NicWire("s", "mlx5_0", Bottleneck.Side.TX, null);
        assertEquals(read.parameters(), new Bottleneck.Degraded(read, 0.25, 0.001, Double.POSITIVE_INFINITY).parameters());
        assertEquals(List.of(), new Bottleneck.Degraded(datasheet, 0.25, 0.001, 0.002).parameters());
        Bottleneck tie = new Bottleneck.Tie(List.of(datasheet, efa, read));
        assertEquals(List.of(new ProfileParameter("aws-efa", ProfileKey.EFA_WIRE_EFFICIENCY),
                new ProfileParameter("gb200-roce", ProfileKey.NIC_READ_RATE)), tie.parameters());
        // a tie names the profile of its first limit that has one, as it always has
        assertEquals(Optional.of("aws-efa"), tie.profile());
        assertEquals(Optional.empty(), new Bottleneck.Tie(List.of(datasheet, new Bottleneck.HostMemory("h", 0))).profile());
    }

    @Test
    void theLimitsAClusterBuildsStandOnParametersTheirHostsProfilesHave() {
        // GB200 (calibrated READ, assumed Grace-Grace), a DGX B200 (calibrated strict-order writes), a p5 (EFA)
        Cluster c = new Cluster(List.of(new Host("gb", Presets.get("gb200-tray")), new Host("b2", Presets.get("dgx-b200")),
                new Host("p5", Presets.get("p5.48xlarge"))),
                new FabricSpec(FabricSpec.Kind.LEAF_SPINE, 1, 2.0, FabricSpec.DEFAULT_HOP_LATENCY),
                new FluidNetwork(new SimulationClock()));
        Set<ProfileKey> met = new HashSet<>();
        for (Resource r : c.allResources()) {
            Bottleneck b = (Bottleneck) r.limit();
            for (ProfileParameter p : b.parameters()) {
                assertTrue(p.lookup().isPresent(), b.id() + ": " + p);
                met.add(p.key());
            }
        }
        assertEquals(Set.of(ProfileKey.NIC_READ_RATE, ProfileKey.GRACE_TO_GRACE, ProfileKey.STRICT_ORDER_GPU_WRITE_RATE,
                ProfileKey.EFA_WIRE_EFFICIENCY, ProfileKey.INTER_SOCKET), met);
    }

    @Test
    void aTieOfManyUnlikeGroupsSaysTheFirstFewAndHowManyMore() {
        // six hosts, two NICs each, NIC names differing per host: six groups of unlike limits
        java.util.List<String> words = new java.util.ArrayList<>();
        for (int h = 0; h < 6; h++) {
            for (int n = 0; n < 2; n++) {
                words.add("NIC mlx5_" + (h + n * 7) + "'s receive line rate on host" + h);
            }
        }
        String said = Bottleneck.Tie.wordsOf(words);
        assertTrue(said.startsWith("a tie, 12 limits each holding it for the same time: "), said);
        assertTrue(said.endsWith("; and " + (6 - (Bottleneck.Tie.MOST_GROUPS_SAID - 1)) + " more groups of the same kinds"),
                said);
        assertEquals(Bottleneck.Tie.MOST_GROUPS_SAID - 1, said.split("; ").length - 1, said);
    }
}
