package org.rdmasim.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rdmasim.hardware.Bottleneck;
import org.rdmasim.transport.DataPath;
import org.rdmasim.transport.Endpoint;
import org.rdmasim.transport.LaneResult;
import org.rdmasim.transport.Operation;
import org.rdmasim.transport.TransferResult;
import org.rdmasim.transport.TransferSpec;
import org.rdmasim.workload.RefitSummary;
import org.rdmasim.workload.RunResult;

/**
 * The transfers whose lanes a page and its summary.json show: a run's first eight in the order given; a refit's last
 * eight to finish, latest first (a refit keeps its transfers in the order they finished), so the one its last cycle
 * waited for leads.
 */
class ShownTransfersTest {
    private static final Bottleneck RX = new Bottleneck.NicWire("dst", "mlx5_0", Bottleneck.Side.RX, null);

    private static List<TransferResult> finishedInOrder(int n) {
        List<TransferResult> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            TransferSpec spec = new TransferSpec("t" + i, new Endpoint("src", "GPU0"), new Endpoint("dst", "GPU0"), 1000,
                    Operation.READ, 1, DataPath.GPUDIRECT, DataPath.GPUDIRECT, false, 0);
            out.add(new TransferResult(spec, 0, i + 1, List.of(new LaneResult("mlx5_0", "mlx5_0", 1000, 0, i + 1, RX)), RX));
        }
        return out;
    }

    private static List<String> ids(List<TransferResult> shown) {
        return shown.stream().map(t -> t.spec().id()).toList();
    }

    @Test
    void aRunShowsItsFirstEightAndARefitItsLastEightLatestFirst() {
        List<TransferResult> twelve = finishedInOrder(12);
        RunResult run = new RunResult(twelve, List.of(), List.of(), List.of(), 24, 12);
        assertEquals(List.of("t0", "t1", "t2", "t3", "t4", "t5", "t6", "t7"), ids(IndexHtml.shownTransfers(run)));
        RefitSummary refit = new RefitSummary("rdma-pull", "m", 12000, 1, 1, 1, 1, List.of(), List.of(), List.of(),
                List.of(), true);
        RunResult refitRun = new RunResult(twelve, List.of(), List.of(), List.of(), 24, 12, null, List.of(), refit);
        assertEquals(List.of("t11", "t10", "t9", "t8", "t7", "t6", "t5", "t4"), ids(IndexHtml.shownTransfers(refitRun)));
        assertEquals(List.of("t2", "t1", "t0"), ids(IndexHtml.shownTransfers(new RunResult(finishedInOrder(3), List.of(),
                List.of(), List.of(), 6, 3, null, List.of(), refit))));
    }
}
