package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The fault scenarios as a user runs them: explain states the reaction and its parameters, run the cost. */
class FaultCommandsTest {
    @Test
    void explainStatesTheQpTimerTheRetriesAndWhatIsAssumed() {
        Path scenario = CliTestSupport.repo().resolve("scenarios/faults-nic-down.yaml");
        var r = CliTestSupport.run("explain", scenario.toString(), "--variant", "port-down-short-rc-timeout");
        assertEquals(0, r.code(), r.err());
        // UCX_RC_TIMEOUT=100ms: log2(0.1 s / 4.096 us) = 14.6 -> 15, a 0.1342 s timer; 2 retries: 3 timers
        assertTrue(r.out().contains("UCX_RC_TIMEOUT=0.1 s -> 4.096 us x 2^15 = 0.1342 s; UCX_RC_RETRY_COUNT=2"), r.out());
        assertTrue(r.out().contains("the QP fails 0.4027 s after the stall"), r.out());
        assertTrue(r.out().contains("ASSUMED: 0 s between an error and the next attempt"), r.out());
        assertTrue(r.out().contains("cost: makespan"), r.out());
    }

    @Test
    void runPrintsEachFaultedVariantsCostAndWritesItsTimeline(@TempDir Path out) throws Exception {
        Path scenario = CliTestSupport.repo().resolve("scenarios/faults-nic-down.yaml");
        var r = CliTestSupport.run("run", scenario.toString(), "--out", out.resolve("r").toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("faults: makespan 1.282 s (0.2078 s without)"), r.out());
        String html = Files.readString(out.resolve("r/index.html"));
        assertTrue(html.contains("Faults and what they cost"));
        assertTrue(html.contains("receiver:mlx5_1 port down"));
    }
}
