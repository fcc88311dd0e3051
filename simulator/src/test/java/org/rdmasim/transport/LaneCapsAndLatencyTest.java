package org.rdmasim.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rdmasim.engine.SimulationClock;
import org.rdmasim.fluid.FluidNetwork;
import org.rdmasim.fluid.Resource;
import org.rdmasim.fluid.ResourceKind;
import org.rdmasim.hardware.Bottleneck;
import org.rdmasim.hardware.Cluster;
import org.rdmasim.hardware.FabricSpec;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.PathType;
import org.rdmasim.hardware.Presets;

/**
 * A lane's latency and its own caps, each against a literal worked out from the protocol
 * parameters: hop counts by PCIe relation and ACS, the posting, message-rate and IOMMU caps each
 * made the binding one in turn, and the PCIe links of both ends on the path when the two hosts differ.
 */
class LaneCapsAndLatencyTest {
    private static final ProtocolParameters P = new ProtocolParameters(0.5e-6, 110e-9, 1e-6, 50e-9, 16, 8e-6);

    private static TransferEngine engine(String srcPreset, String dstPreset, ProtocolParameters p) {
        Cluster c = new Cluster(List.of(new Host("src", Presets.get(srcPreset)), new Host("dst", Presets.get(dstPreset))),
                new FabricSpec(FabricSpec.Kind.NON_BLOCKING, 1, 1.0, 130e-9), new FluidNetwork(new SimulationClock()));
        return new TransferEngine(c, p);
    }

    private static TransferSpec spec(Operation op, long bytes, int descriptors, boolean acs, double iommu) {
        return new TransferSpec("t", new Endpoint("src", "GPU0"), new Endpoint("dst", "GPU0"), bytes, op, descriptors,
                DataPath.GPUDIRECT, DataPath.GPUDIRECT, acs, iommu);
    }

    @Test
    void oneWayLatencyAddsBothNicsOneSwitchHopAndThePcieHopsOfEachEnd() {
        TransferEngine e = engine("dgx-h100", "dgx-h100", P);
        Host h = e.cluster().host("src");
        assertEquals(PathType.PIX, h.relation(h.gpu("GPU0"), h.nic("mlx5_0")), "the DGX H100 preset's GPU0 NIC");
        Lane pix = new Lane("mlx5_0", "mlx5_0", 1000, 0);
        // 2 x 0.5 us + 130 ns + one PCIe switch hop at each end (110 ns each)
        assertEquals(1.0e-6 + 130e-9 + 220e-9, e.oneWayLatency(spec(Operation.READ, 1000, 1, false, 0), pix), 1e-15);
        // ACS sends a peer request up to the root complex and back: three traversals at each end
        assertEquals(1.0e-6 + 130e-9 + 660e-9, e.oneWayLatency(spec(Operation.READ, 1000, 1, true, 0), pix), 1e-15);
        String far = null;
        for (var n : h.nics()) {
            if (h.relation(h.gpu("GPU0"), n) != PathType.PIX) {
                far = n.name();
                break;
            }
        }
        // a NIC under another switch: two traversals at each end
        Lane other = new Lane(far, far, 1000, 0);
        assertEquals(1.0e-6 + 130e-9 + 440e-9, e.oneWayLatency(spec(Operation.READ, 1000, 1, false, 0), other), 1e-15);
    }

    @Test
    void eachOfThePostingMessageRateAndIommuCapsBindsWhenItIsTheLowest() {
        // WRITE, so no READ limit applies. 1 MB per descriptor.
        Lane lane = new Lane("mlx5_0", "mlx5_0", 1_000_000, 0);
        // posting 1 us per descriptor: 1e6 B / 1e-6 s = 1e12 B/s; message rate 50 ns: 2e13 B/s
        TransferEngine e = engine("dgx-h100", "dgx-h100", P);
        assertEquals(1e12, e.laneCap(spec(Operation.WRITE, 1_000_000, 1, false, 0), lane), 1);
        assertEquals(new Bottleneck.PostingRate("src:GPU0"), e.capName(spec(Operation.WRITE, 1_000_000, 1, false, 0), lane));
        // posting free, message rate 1 us per work request: 1e12 B/s
        TransferEngine m = engine("dgx-h100", "dgx-h100", new ProtocolParameters(0.5e-6, 110e-9, 0, 1e-6, 16, 8e-6));
        assertEquals(1e12, m.laneCap(spec(Operation.WRITE, 1_000_000, 1, false, 0), lane), 1);
        assertEquals(Bottleneck.Plain.MESSAGE_RATE, m.capName(spec(Operation.WRITE, 1_000_000, 1, false, 0), lane));
        // IOMMU translation takes 60% of the 400G wire: 40% of the NIC's transmit capacity
        TransferEngine i = engine("dgx-h100", "dgx-h100", new ProtocolParameters(0.5e-6, 110e-9, 0, 0, 16, 8e-6));
        double wire = i.cluster().nicTx(i.cluster().host("src").nic("mlx5_0")).capacity();
        assertEquals(0.4 * wire, i.laneCap(spec(Operation.WRITE, 1_000_000, 1, false, 0.6), lane), 1e-3);
        assertEquals(Bottleneck.Plain.IOMMU, i.capName(spec(Operation.WRITE, 1_000_000, 1, false, 0.6), lane));
    }

    @Test
    void outstandingReadsCapAReadLaneAtReadsTimesMessageOverTheRoundTrip() {
        TransferEngine e = engine("dgx-h100", "dgx-h100", new ProtocolParameters(0.5e-6, 110e-9, 0, 0, 16, 8e-6));
        // 4 KiB messages: 16 x 4096 B per round trip of 2 x 1.35 us
        Lane lane = new Lane("mlx5_0", "mlx5_0", 4096L * 1000, 0);
        TransferSpec s = spec(Operation.READ, 4096L * 1000, 1000, false, 0);
        double rtt = 2 * (1.0e-6 + 130e-9 + 220e-9);
        assertEquals(16 * 4096 / rtt, e.laneCap(s, lane), 1e-3);
        assertTrue(e.capName(s, lane) instanceof Bottleneck.OutstandingReads, e.capName(s, lane).id());
    }

    @Test
    void theDefaultWindowAndMessageRateAreThoseOfPerftestAndTheConnectX7Datasheet() {
        ProtocolParameters d = ProtocolParameters.defaults();
        // linux-rdma/perftest v4.5-0.20 src/perftest_parameters.h:111: #define DEF_TX_BW (128)
        assertEquals(128, d.sendQueueDepth());
        // NVIDIA ConnectX-7 NDR datasheet: "330-370 million messages per second"; the low end
        assertEquals(330e6, d.nicMessageRate());
        assertThrows(IllegalArgumentException.class, () -> new ProtocolParameters(0.5e-6, 110e-9, 0, 0, 16, 8e-6, 0, 330e6));
        assertThrows(IllegalArgumentException.class, () -> new ProtocolParameters(0.5e-6, 110e-9, 0, 0, 16, 8e-6, 128, 0));
    }

    @Test
    void aSmallWriteIsHeldByTheWorkRequestsInFlightPerRoundTrip() {
        // no posting or per-QP cost: 128 WRITEs of 512 B per round trip of 2 x 1.35 us = 24.3 GB/s, under
        // the NIC's 330 M messages/s x 512 B = 169 GB/s and the 400G wire
        TransferEngine e = engine("dgx-h100", "dgx-h100", new ProtocolParameters(0.5e-6, 110e-9, 0, 0, 16, 8e-6, 128, 330e6));
        Lane lane = new Lane("mlx5_0", "mlx5_0", 512L * 1000, 0);
        TransferSpec s = spec(Operation.WRITE, 512L * 1000, 1000, false, 0);
        double rtt = 2 * (1.0e-6 + 130e-9 + 220e-9);
        assertEquals(128 * 512 / rtt, e.laneCap(s, lane), 1e-3);
        assertEquals(new Bottleneck.SendQueue("src", "mlx5_0"), e.capName(s, lane));
        // twice the depth, twice the cap
        TransferEngine deep = engine("dgx-h100", "dgx-h100", new ProtocolParameters(0.5e-6, 110e-9, 0, 0, 16, 8e-6, 256, 330e6));
        assertEquals(2 * 128 * 512 / rtt, deep.laneCap(s, lane), 1e-3);
        // a READ is held by its outstanding READs, never by the send queue
        TransferSpec read = spec(Operation.READ, 512L * 1000, 1000, false, 0);
        assertEquals(16 * 512 / rtt, e.laneCap(read, lane), 1e-3);
    }

    @Test
    void tinyMessagesAreHeldByTheNicsMessageRateWhenTheQueueIsDeep() {
        // 64 B at 330 M messages/s = 21.1 GB/s; 65536 WRITEs per round trip would allow 1.5 TB/s
        TransferEngine e = engine("dgx-h100", "dgx-h100", new ProtocolParameters(0.5e-6, 110e-9, 0, 0, 16, 8e-6, 65536, 330e6));
        Lane lane = new Lane("mlx5_0", "mlx5_0", 64L * 1000, 0);
        TransferSpec s = spec(Operation.WRITE, 64L * 1000, 1000, false, 0);
        assertEquals(64 * 330e6, e.laneCap(s, lane), 1e-3);
        assertEquals(Bottleneck.Plain.NIC_MESSAGE_RATE, e.capName(s, lane));
        // at 16 KiB the same rate allows 5.4 TB/s: the wire binds, not this cap
        Lane big = new Lane("mlx5_0", "mlx5_0", 16384L * 1000, 0);
        assertTrue(e.laneCap(spec(Operation.WRITE, 16384L * 1000, 1000, false, 0), big) > 1e12);
    }

    @Test
    void aLanesPathHoldsThePcieLinksOfBothEndsWhenTheHostsDiffer() {
        TransferEngine e = engine("dgx-h100", "gb200-tray", P);
        Lane lane = new Lane("mlx5_0", "mlx5_0", 1000, 0);
        List<Double> usage = new ArrayList<>();
        List<Resource> path = e.lanePath(spec(Operation.WRITE, 1000, 1, false, 0), lane, usage);
        long srcPcie = path.stream().filter(r -> r.name().startsWith("src:") && r.kind() != ResourceKind.NIC_TX).count();
        long dstPcie = path.stream().filter(r -> r.name().startsWith("dst:") && r.kind() != ResourceKind.NIC_RX).count();
        assertTrue(srcPcie >= 1, "source side links: " + path);
        assertTrue(dstPcie >= 1, "sink side links: " + path);
        assertEquals(path.size(), usage.size());
    }

    @Test
    void lanesThatDoNotAddUpToTheTransferAreRefused() {
        TransferEngine e = engine("dgx-h100", "dgx-h100", P);
        IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
                () -> e.post(spec(Operation.WRITE, 1000, 1, false, 0), List.of(new Lane("mlx5_0", "mlx5_0", 999, 0)),
                        r -> { }));
        assertTrue(ex.getMessage().contains("999"), ex.getMessage());
    }
}
