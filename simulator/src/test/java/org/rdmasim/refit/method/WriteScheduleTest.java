package org.rdmasim.refit.method;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rdmasim.refit.method.RefitFixture.GB;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.rdmasim.hardware.FabricSpec;
import org.rdmasim.hardware.Host;
import org.rdmasim.refit.layout.SliceRoute;
import org.rdmasim.transport.Operation;
import org.rdmasim.transport.TransferResult;

class WriteScheduleTest {
    @Test
    void everyRouteIsWrittenInPiecesAndLandsWhole() {
        RefitPlan plan = RefitPlan.of(RefitFixture.twoByTwo(GB), RefitFixture::trainer, RefitFixture::inference,
                new WriteSchedule(GB / 4, 2));
        RefitResult r = RefitRun.run(RefitFixture.twoHosts(), FabricSpec.nonBlocking(), plan, RefitFixture.nearestNic());
        RefitResult.Cycle c = r.cycles().get(0);
        assertEquals(2 * GB, c.received().get(0));
        assertEquals(2 * GB, c.received().get(1));
        assertEquals(r.minimumBytes(), c.wireBytes());
        assertEquals(16, r.transfers().size());
        assertTrue(r.transfers().stream().allMatch(t -> t.spec().operation() == Operation.WRITE));
        assertTrue(r.transfers().stream().allMatch(t -> t.spec().descriptors() == 1), "4 runs over 4 pieces");
    }

    /**
     * One sender writes 4 pieces, each prepared on its GPU in half a piece's wire time. One staging buffer:
     * prepare, write, prepare, write. Two: the next piece is prepared while this one is written, and the
     * sender's NIC never idles after the first piece is ready. Microseconds of latency per WRITE aside.
     */
    @Test
    void pipeliningHidesPreparationUnderTheWrites() {
        List<Host> hosts = RefitFixture.twoHosts();
        double rate = RefitFixture.wireRate(hosts, RefitFixture.trainer(0), RefitFixture.inference(0));
        double w = GB / rate;
        double readPerByte = RefitFixture.hbm() / (2 * rate);
        double f = w / 2;
        double[] seconds = new double[2];
        for (int inFlight = 1; inFlight <= 2; inFlight++) {
            RefitPlan plan = RefitPlan.of(List.of(new SliceRoute(0, 0, 4 * GB, 4, 4)), RefitFixture::trainer,
                    RefitFixture::inference, new WriteSchedule(GB, inFlight))
                    .withPreparation(new Preparation(1, readPerByte, 0));
            seconds[inFlight - 1] = RefitRun.run(hosts, FabricSpec.nonBlocking(), plan, RefitFixture.nearestNic())
                    .firstCycleSeconds();
        }
        assertEquals(4 * (f + w), seconds[0], 4 * (f + w) * 1e-4);
        assertEquals(f + 4 * w, seconds[1], (f + 4 * w) * 1e-4);
    }

    @Test
    void aSendersPiecesFollowTheScheduleOrder() {
        RefitPlan plan = RefitPlan.of(List.of(new SliceRoute(0, 1, GB, 1, 1), new SliceRoute(0, 0, GB, 1, 1)),
                RefitFixture::trainer, RefitFixture::inference, new WriteSchedule(GB, 1));
        RefitResult r = RefitRun.run(RefitFixture.twoHosts(), FabricSpec.nonBlocking(), plan, RefitFixture.nearestNic());
        List<String> order = r.transfers().stream().sorted(java.util.Comparator.comparingDouble(
                TransferResult::startSeconds)).map(t -> t.spec().id()).toList();
        assertEquals(List.of("c0/write/t0-i1/0", "c0/write/t0-i0/0"), order);
    }

    /**
     * Two senders, each owing 1 GB to each of two receivers. In the slice map's order both write to receiver 0
     * first, so its NIC carries 2 GB while receiver 1 idles, then the same on receiver 1: 4 GB at one NIC's rate.
     * Staggered, sender 1 starts at receiver 1: the two writes of each step land on different NICs, 2 GB at
     * that rate, and each receiver still gets its 2 GB.
     */
    @Test
    void staggeredSendersDoNotMeetOnOneReceiver() {
        List<Host> hosts = RefitFixture.twoHosts();
        double w = GB / RefitFixture.wireRate(hosts, RefitFixture.trainer(0), RefitFixture.inference(0));
        double[] seconds = new double[2];
        RefitResult staggered = null;
        for (WriteSchedule.Order order : WriteSchedule.Order.values()) {
            RefitPlan plan = RefitPlan.of(RefitFixture.twoByTwo(GB), RefitFixture::trainer, RefitFixture::inference,
                    new WriteSchedule(GB, 1, order));
            RefitResult r = RefitRun.run(hosts, FabricSpec.nonBlocking(), plan, RefitFixture.nearestNic());
            seconds[order.ordinal()] = r.firstCycleSeconds();
            assertEquals(2 * GB, r.cycles().get(0).received().get(0));
            assertEquals(2 * GB, r.cycles().get(0).received().get(1));
            staggered = r;
        }
        assertEquals(4 * w, seconds[WriteSchedule.Order.SLICE_MAP.ordinal()], 4 * w * 1e-3);
        assertEquals(2 * w, seconds[WriteSchedule.Order.RECEIVER_STAGGERED.ordinal()], 2 * w * 1e-3);
        List<String> first = staggered.transfers().stream()
                .filter(t -> t.startSeconds() == 0 || t.startSeconds() < w / 2).map(t -> t.spec().id()).sorted()
                .toList();
        assertEquals(List.of("c0/write/t0-i0/0", "c0/write/t1-i1/0"), first);
    }
}
