package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * bench runs one of three things (the engine's own run, --peer's fan-out, a --scenario); an option of another was
 * dropped without a word (--receivers without --peer ran the engine bench, exit 0). Each is refused, exit 2, naming
 * the option and the run it belongs to, before anything runs.
 */
class BenchOptionModesTest {
    @TempDir
    Path dir;

    @Test
    void anOptionOfAnotherRunIsRefusedNotIgnored() {
        String scenario = CliTestSupport.repo().resolve("scenarios/gpudirect-vs-staging.yaml").toString();
        Path out = dir.resolve("out");
        record Case(List<String> args, String says) {
        }
        List<Case> cases = List.of(
                new Case(List.of("--receivers", "10"), "--receivers shapes --peer's own fan-out"),
                new Case(List.of("--model-gb", "8"), "without --peer it would be ignored"),
                new Case(List.of("--scenario", scenario, "--flows", "10"), "--flows sizes the engine's own run"),
                new Case(List.of("--scenario", scenario, "--pattern", "random"), "with --scenario it would be ignored"),
                new Case(List.of("--peer", "simgrid", "--hosts", "4"), "with --peer it would be ignored"),
                new Case(List.of("--out", out.toString()), "--out is for bench --scenario FILE"),
                // accepted and ignored before: the scenario keeps its own seed, and --events sizes only the bare loop
                // --scenario runs with --repeats
                new Case(List.of("--scenario", scenario, "--seed", "3"), "--seed draws the engine's and --peer's own "
                        + "runs; --scenario runs each scenario with its own seed"),
                new Case(List.of("--scenario", scenario, "--events", "20000"), "--events sizes the bare loop that "
                        + "--scenario runs only with --repeats N"));
        for (Case c : cases) {
            List<String> args = new java.util.ArrayList<>(List.of("bench", "-q"));
            args.addAll(c.args());
            CliTestSupport.Outcome o = CliTestSupport.run(args.toArray(String[]::new));
            assertEquals(2, o.code(), c + ": " + o.err());
            assertTrue(o.err().contains(c.says()), c + ": " + o.err());
            assertFalse(o.err().contains("Exception"), o.err());
        }
        assertFalse(out.toFile().exists(), "nothing written");
    }
}
