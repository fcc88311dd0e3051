package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The same scenario and seed give byte-identical summary.json and CSVs. */
class DeterminismTest {
    @TempDir
    Path dir;

    @Test
    void twoRunsWriteTheSameBytes() throws IOException {
        Path scenario = CliTestSupport.repo().resolve("scenarios/seed003-nic-pin-vs-stripe.yaml");
        assertEquals(0, CliTestSupport.run("run", scenario.toString(), "--out", dir.resolve("a").toString(), "-q").code());
        assertEquals(0, CliTestSupport.run("run", scenario.toString(), "--out", dir.resolve("b").toString(), "-q").code());
        for (String f : new String[] {"summary.json", "transfers.csv", "resources.csv", "index.html",
                "pull-time.svg"}) {
            assertArrayEquals(Files.readAllBytes(dir.resolve("a").resolve(f)), Files.readAllBytes(dir.resolve("b").resolve(f)), f);
        }
    }
}
