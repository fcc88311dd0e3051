package org.rdmasim.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rdmasim.engine.SimulationClock;
import org.rdmasim.fluid.FluidNetwork;
import org.rdmasim.hardware.Bottleneck;
import org.rdmasim.hardware.Cluster;
import org.rdmasim.hardware.CpuFamily;
import org.rdmasim.hardware.FabricSpec;
import org.rdmasim.hardware.GpuModel;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.HostSpec;
import org.rdmasim.hardware.LinkLayer;
import org.rdmasim.hardware.LinkSpec;
import org.rdmasim.hardware.NicModel;
import org.rdmasim.hardware.TopologyNode;

/**
 * A NIC port going down under a running two-lane WRITE, on a host whose lanes are independent (links far
 * wider than the NICs). The QP timer is UCX's default: 4.096 us x 2^18 = 1.073741824 s a period, seven
 * retries, so the error comes 8 periods after the stall (QpRetry, from UCX ib_device.c and rc_iface.c).
 */
class PortFaultTest {
    private static final long SIZE = 8_000_000_000L;
    private static final double TICK = 4.096e-6 * (1 << 18);

    private static HostSpec twoNicHost() {
        List<HostSpec.DeviceSpec> devices = new ArrayList<>();
        devices.add(new HostSpec.GpuSpec("GPU0", GpuModel.B200, LinkSpec.c2c(10e12), GpuModel.B200.hbmBytes(),
                GpuModel.B200.bar1Bytes(), 0));
        for (int i = 0; i < 2; i++) {
            devices.add(new HostSpec.NicSpec("mlx5_" + i, NicModel.CX7, LinkLayer.INFINIBAND, LinkSpec.c2c(10e12), 1,
                    400, true));
        }
        return new HostSpec("wide", CpuFamily.OTHER, 0, List.of(new HostSpec.SocketSpec(0, 10e12, 1L << 40, "", devices)),
                "test");
    }

    /** The engine and its clock; {@link #post} posts the two-lane WRITE and collects its result. */
    private static final class Rig {
        final SimulationClock clock = new SimulationClock();
        final Host src = new Host("src", twoNicHost());
        final TransferEngine engine;
        final List<TransferResult> out = new ArrayList<>();
        TransferEngine.Posted posted;

        Rig(boolean watch) {
            Cluster cluster = new Cluster(List.of(src, new Host("dst", twoNicHost())), FabricSpec.nonBlocking(),
                    new FluidNetwork(clock).verifying(true));
            engine = new TransferEngine(cluster, ProtocolParameters.defaults());
            if (watch) {
                engine.watchPorts();
            }
        }

        Rig post() {
            TransferSpec spec = new TransferSpec("t", new Endpoint("src", "GPU0"), new Endpoint("dst", "GPU0"), SIZE,
                    Operation.WRITE, 1, DataPath.GPUDIRECT, DataPath.GPUDIRECT, false, 0);
            List<Lane> lanes = LaneSplit.split(SIZE, List.of(new LaneSplit.Candidate("mlx5_0", "mlx5_0", 1),
                    new LaneSplit.Candidate("mlx5_1", "mlx5_1", 1)), LaneSplit.MinChunk.rma(8192));
            posted = engine.post(spec, lanes, out::add);
            return this;
        }

        TopologyNode nic(int i) {
            return src.nic("mlx5_" + i);
        }

        TransferResult result() {
            assertEquals(1, out.size(), "one result per transfer");
            return out.get(0);
        }
    }

    private static Rig faultFree() {
        Rig r = new Rig(true).post();
        r.clock.run();
        return r;
    }

    @Test
    void aPortDownForLessThanATimerPeriodDelaysItsLaneToTheFirstRetransmission() {
        Rig clean = faultFree();
        Rig r = new Rig(true).post();
        r.clock.scheduleAt(0.05, () -> r.engine.portDown(r.src, r.nic(0)));
        r.clock.scheduleAt(0.06, () -> r.engine.portDown(r.src, r.nic(0)));
        r.clock.scheduleAt(0.5, () -> {
            assertTrue(r.engine.isDown(r.nic(0)));
            assertFalse(r.engine.isDown(r.nic(1)));
            r.engine.portUp(r.src, r.nic(0));
            r.engine.portUp(r.src, r.nic(0));
        });
        r.clock.run();
        TransferResult t = r.result();
        assertFalse(t.failed());
        LaneResult lane0 = t.lanes().get(0);
        LaneResult lane1 = t.lanes().get(1);
        // Lane 0 moves nothing from 0.05 s to the retransmission one timer period after the stall.
        assertEquals(clean.result().lanes().get(0).finishSeconds() + TICK, lane0.finishSeconds(), 1e-9);
        assertEquals(clean.result().lanes().get(1).finishSeconds(), lane1.finishSeconds(), 1e-12);
        assertEquals(SIZE, lane0.bytes() + lane1.bytes());
        assertFalse(r.engine.isDown(r.nic(0)));
        // the wait is the fault's by name: the port's window and one timer period, from the stall to the retransmission
        Bottleneck stall = new Bottleneck.PortStall("src:mlx5_0", 0.05, 0.5, TICK);
        assertEquals("port src:mlx5_0 down 50-500 ms: RC retransmit wait", stall.id());
        double waited = lane0.heldOverTime().stream().filter(h -> h.limit().equals(stall))
                .mapToDouble(LaneResult.Held::seconds).sum();
        assertEquals(TICK, waited, 1e-9);
        // before the stall and after it the lane ran under its NIC: one entry, and every second of the lane is held by something
        assertEquals(2, lane0.heldOverTime().size(), lane0.heldOverTime().toString());
        assertEquals(lane0.finishSeconds() - lane0.startSeconds(),
                lane0.heldOverTime().stream().mapToDouble(LaneResult.Held::seconds).sum(), 1e-9);
        // the wait is longer than the lane's whole clean run: the stall bounds the lane and the transfer
        assertEquals(stall, lane0.limiter());
        assertEquals(stall, t.bottleneck());
    }

    @Test
    void aPortThatNeverAnswersFailsTheTransferAfterTheLastRetry() {
        Rig clean = faultFree();
        Rig r = new Rig(true).post();
        r.clock.scheduleAt(0.05, () -> r.engine.portDown(r.src, r.nic(0)));
        r.clock.run();
        TransferResult t = r.result();
        assertTrue(t.failed());
        assertEquals(0.05 + 8 * TICK, t.finishSeconds(), 1e-9);
        assertTrue(t.failure().startsWith("NIXL_ERR_REMOTE_DISCONNECT: UCS_ERR_ENDPOINT_TIMEOUT"), t.failure());
        assertTrue(t.failure().contains("src:mlx5_0") && t.failure().contains("8 x "), t.failure());
        assertEquals(new Bottleneck.Failed(t.failure()), t.bottleneck());
        LaneResult lane0 = t.lanes().get(0);
        LaneResult lane1 = t.lanes().get(1);
        // Lane 1 had finished normally; lane 0 delivered what it moved before the port went down.
        assertEquals(clean.result().lanes().get(1).finishSeconds(), lane1.finishSeconds(), 1e-12);
        assertEquals(new Bottleneck.Failed(null), lane0.limiter());
        double rate = clean.result().lanes().get(0).bytes()
                / (clean.result().lanes().get(0).finishSeconds() - clean.result().lanes().get(0).startSeconds());
        assertEquals(rate * (0.05 - lane0.startSeconds()), lane0.bytes(), 2.0);
    }

    @Test
    void aLaneStartingOnADownPortStallsAtOnceAndResumesAtTheFirstRetransmission() {
        Rig clean = faultFree();
        Rig r = new Rig(true);
        r.engine.portDown(r.src, r.nic(1));
        r.post();
        r.clock.scheduleAt(0.2, () -> r.engine.portUp(r.src, r.nic(1)));
        r.clock.run();
        TransferResult t = r.result();
        assertFalse(t.failed());
        LaneResult lane1 = t.lanes().get(1);
        LaneResult cleanLane1 = clean.result().lanes().get(1);
        // Stalled from its start; data moves one timer period later for the whole lane.
        assertEquals(cleanLane1.startSeconds(), lane1.startSeconds(), 1e-15);
        assertEquals(cleanLane1.finishSeconds() + TICK, lane1.finishSeconds(), 1e-9);
    }

    @Test
    void anInitiatorGivingUpFailsTheTransferWithTheBytesEachLaneDelivered() {
        Rig r = new Rig(false).post();
        r.clock.scheduleAt(0.05, () -> r.posted.fail("NIXL_ERR_TIMEOUT: the application gave up"));
        r.clock.run();
        TransferResult t = r.result();
        assertTrue(t.failed());
        assertEquals(0.05, t.finishSeconds(), 1e-12);
        assertEquals("NIXL_ERR_TIMEOUT: the application gave up", t.failure());
        long delivered = t.lanes().get(0).bytes() + t.lanes().get(1).bytes();
        assertTrue(delivered > 0 && delivered < SIZE, "delivered " + delivered);
        // A second failure of an ended transfer changes nothing.
        r.posted.fail("again");
        assertEquals(1, r.out.size());
    }

    @Test
    void portsMustBeWatchedBeforeTheyCanFail() {
        Rig r = new Rig(false).post();
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> r.engine.portDown(r.src, r.nic(0)));
        assertTrue(e.getMessage().contains("watchPorts"), e.getMessage());
        assertThrows(IllegalStateException.class, () -> r.engine.portUp(r.src, r.nic(0)));
        assertEquals("NIXL_ERR_BACKEND: port down", TransferEngine.failureText("NIXL_ERR_BACKEND", "port down"));
    }
}
