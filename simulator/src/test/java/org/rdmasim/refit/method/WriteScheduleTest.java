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
}
