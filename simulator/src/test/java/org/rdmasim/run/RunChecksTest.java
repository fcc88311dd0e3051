package org.rdmasim.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.rdmasim.hardware.Bottleneck;
import org.rdmasim.transport.DataPath;
import org.rdmasim.transport.Endpoint;
import org.rdmasim.transport.LaneResult;
import org.rdmasim.transport.Operation;
import org.rdmasim.transport.TransferResult;
import org.rdmasim.transport.TransferSpec;
import org.rdmasim.workload.RunResult;

/** The result checks of run --check name each broken conservation or non-finite number. */
class RunChecksTest {
    private static TransferSpec spec(long bytes) {
        return new TransferSpec("t0", new Endpoint("a", "GPU0"), new Endpoint("b", "GPU0"), bytes, Operation.READ, 1,
                DataPath.GPUDIRECT, DataPath.GPUDIRECT, false, 0);
    }

    /** What held the lanes: irrelevant to the checks. */
    private static final Bottleneck HELD = new Bottleneck.NicWire("a", "mlx5_0", Bottleneck.Side.TX, null);

    @Test
    void aConservingResultHasNoViolation() {
        RunResult r = new RunResult(List.of(new TransferResult(spec(1000), 0, 1, List.of(
                new LaneResult("a:mlx5_0", "b:mlx5_0", 600, 0, 1, HELD), new LaneResult("a:mlx5_1", "b:mlx5_1", 400, 0, 1, HELD)), HELD)),
                List.of(new RunResult.NicTraffic("a", "mlx5_0", 1000, 0), new RunResult.NicTraffic("b", "mlx5_0", 0, 1000)),
                List.of(new RunResult.ResourceUsage(org.rdmasim.fluid.Limit.named("a:mlx5_0 tx"), "nic", 5e10, 1000, 1.0, 0.5)), List.of(), 4, 2);
        assertEquals(List.of(), RunChecks.violations(r));
    }

    @Test
    void lostBytesOverloadAndNaNAreEachNamed() {
        RunResult r = new RunResult(List.of(new TransferResult(spec(1000), 0, Double.NaN, List.of(
                new LaneResult("a:mlx5_0", "b:mlx5_0", 600, 0, 1, HELD)), HELD)),
                List.of(new RunResult.NicTraffic("a", "mlx5_0", 600, 0), new RunResult.NicTraffic("b", "mlx5_0", 0, 500)),
                List.of(new RunResult.ResourceUsage(org.rdmasim.fluid.Limit.named("a:mlx5_0 tx"), "nic", 5e10, 600, 1.01, 0.5)), List.of(), 4, 2);
        assertEquals(List.of(
                "transfer t0 moved 600 bytes over its lanes but is 1000",
                "transfer t0 finish is NaN",
                "NICs sent 600 bytes but received 500",
                "NICs sent 600 bytes but the transfers moved 1000",
                "a:mlx5_0 tx peaked at 1.01 of its capacity"), RunChecks.violations(r));
    }
}
