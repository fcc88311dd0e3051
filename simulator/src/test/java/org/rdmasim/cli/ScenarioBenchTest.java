package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScenarioBenchTest {
    @TempDir
    Path dir;

    /**
     * dgx-h100-nic-pin-vs-stripe lists one 16 GB transfer in each of three variants, with 1, 2 and 4
     * explicit lanes: 3 posts, 3 notices, 7 lane starts.
     */
    @Test
    void countsTheModelsEventsByKindAndWritesTheReport() throws Exception {
        Path scenario = CliTestSupport.repo().resolve("scenarios/dgx-h100-nic-pin-vs-stripe.yaml");
        CliTestSupport.Outcome o = CliTestSupport.run("bench", "--scenario", scenario.toString(), "-o", dir.toString(), "-q");
        assertEquals(0, o.code(), o.err());
        assertTrue(o.out().matches("(?s).*\\n  TransferPost +3\\n.*"), o.out());
        assertTrue(o.out().matches("(?s).*\\n  TransferNotice +3\\n.*"), o.out());
        assertTrue(o.out().matches("(?s).*\\n  LaneStart +7\\n.*"), o.out());
        for (String phase : new String[] {"load", "build", "simulate", "reports"}) {
            assertTrue(o.out().contains("\n  " + phase + " ("), phase + " missing in\n" + o.out());
        }
        assertTrue(Files.exists(dir.resolve("summary.json")));
        assertTrue(o.err().isEmpty(), "--quiet prints no progress: " + o.err());
    }

    @Test
    void refusesThePeerOnAScenarioWithExitCode2() {
        Path scenario = CliTestSupport.repo().resolve("scenarios/dgx-h100-nic-pin-vs-stripe.yaml");
        CliTestSupport.Outcome o = CliTestSupport.run("bench", "--scenario", scenario.toString(), "--peer", "simgrid");
        assertEquals(2, o.code());
        assertTrue(o.err().contains("not built yet"), o.err());
    }
}
