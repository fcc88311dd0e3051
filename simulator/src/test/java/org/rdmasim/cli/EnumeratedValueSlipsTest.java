package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A word of an enumerated field written another way ({@code leastloaded}, {@code Least_Loaded}, {@code ful-mesh})
 * is refused at its file:line with the field, the words it takes, and the nearest of them ("did you mean"), the
 * one suggestion the scenario reader gives for misspelt field names too; a word near none of them gets no guess.
 */
class EnumeratedValueSlipsTest {
    @TempDir
    Path dir;

    private static final String FANOUT = """
            name: slips
            hosts:
              receivers: {preset: dgx-h100, count: 2, prefix: r}
              sources: {preset: dgx-h100, count: 1, prefix: s}
            transport: {operation: read}
            fabric: {kind: non-blocking}
            workload:
              fanout:
                receivers: receivers
                sources: sources
                model: 1 GB
                layout: whole
                assignment: least-loaded
                arrival: {kind: waves, size: 1}
            """;

    private CliTestSupport.Outcome run(String text) throws IOException {
        Path f = dir.resolve("s.yaml");
        Files.writeString(f, text);
        return CliTestSupport.run("run", f.toString(), "-q", "--out", dir.resolve("out").toString());
    }

    private void refused(String from, String to, String location, String... fragments) throws IOException {
        assertTrue(FANOUT.contains(from), from);
        CliTestSupport.Outcome o = run(FANOUT.replace(from, to));
        assertEquals(2, o.code(), o.out() + o.err());
        assertTrue(o.err().contains("s.yaml:" + location), "s.yaml:" + location + " in: " + o.err());
        for (String f : fragments) {
            assertTrue(o.err().contains(f), "'" + f + "' in: " + o.err());
        }
        assertFalse(o.err().contains("Exception") || o.err().contains("\tat "), o.err());
    }

    @Test
    void theScenarioAsWrittenRuns() throws IOException {
        assertEquals(0, run(FANOUT).code());
    }

    @Test
    void aWordWithoutItsHyphenOrInAnotherCaseGetsTheWordItMeant() throws IOException {
        refused("assignment: least-loaded", "assignment: leastloaded", "13:", "workload.fanout.assignment",
                "expected round-robin or least-loaded, got 'leastloaded' (did you mean 'least-loaded'?)");
        refused("assignment: least-loaded", "assignment: Least_Loaded", "13:", "(did you mean 'least-loaded'?)");
        refused("assignment: least-loaded", "assignment: roundrobin", "13:", "(did you mean 'round-robin'?)");
        refused("layout: whole", "layout: shraded", "12:", "workload.fanout.layout", "(did you mean 'sharded'?)");
        refused("kind: waves", "kind: wave", "14:", "workload.fanout.arrival.kind", "(did you mean 'waves'?)");
        refused("kind: non-blocking", "kind: Non_Blocking", "6:", "fabric.kind", "(did you mean 'non-blocking'?)");
        refused("kind: non-blocking", "kind: railoptimized", "6:", "(did you mean 'rail-optimized'?)");
        refused("operation: read", "operation: raed", "5:", "transport.operation", "(did you mean 'read'?)");
        refused("{preset: dgx-h100, count: 1, prefix: s}", "{preset: dgx-h100, count: 1, prefix: s, nicModel: efa-v3}",
                "4:", "nicModel", "(did you mean 'efa3'?)");
        // a declared parameter written as one of its words (parameters lists capScope as hca|vf|host|vm)
        refused("arrival: {kind: waves, size: 1}\n", "arrival: {kind: waves, size: 1}\nregistration: {firmwarePageCap: "
                + "64 GiB, capScope: hots}\n", "15:", "registration.capScope", "(did you mean 'host'?)");
    }

    @Test
    void aWordNearNoneGetsNoGuess() throws IOException {
        refused("assignment: least-loaded", "assignment: random", "13:", "expected round-robin or least-loaded, "
                + "got 'random'");
        CliTestSupport.Outcome o = run(FANOUT.replace("assignment: least-loaded", "assignment: random"));
        assertFalse(o.err().contains("did you mean"), o.err());
    }
}
