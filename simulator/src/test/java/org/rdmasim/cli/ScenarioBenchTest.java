package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.rdmasim.crosscheck.SimgridPeer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScenarioBenchTest {
    @TempDir
    Path dir;

    /**
     * dgx-h100-nic-pin-vs-stripe lists one 16 GB transfer in each of three variants, with 1, 2 and 4
     * explicit lanes: 3 posts, 3 notices, 5 lane-start events (lanes of one transfer whose first
     * fragments leave at the same instant start in one event: 7 lanes, 5 distinct start instants).
     */
    @Test
    void countsTheModelsEventsByKindAndWritesTheReport() throws Exception {
        Path scenario = CliTestSupport.repo().resolve("scenarios/dgx-h100-nic-pin-vs-stripe.yaml");
        CliTestSupport.Outcome o = CliTestSupport.run("bench", "--scenario", scenario.toString(), "-o", dir.toString(), "-q");
        assertEquals(0, o.code(), o.err());
        assertTrue(o.out().matches("(?s).*\\n  TransferPost +3\\n.*"), o.out());
        assertTrue(o.out().matches("(?s).*\\n  TransferNotice +3\\n.*"), o.out());
        assertTrue(o.out().matches("(?s).*\\n  LaneStart +5\\n.*"), o.out());
        assertTrue(o.out().matches("(?s).*\\n  FlowCompletion +4\\n.*"), o.out());
        assertTrue(o.out().matches("(?s).*\\n  GroupCompletion +1\\n.*"), o.out());
        // Each lane-start event and each flow or group completion re-solves rates at least once: 5 lane
        // starts, 4 FlowCompletion and 1 GroupCompletion events (lanes held at one bottleneck end as a group).
        Matcher solves = Pattern.compile("\\n  ([\\d,]+) rate solves took in ([\\d,]+) flows").matcher(o.out());
        assertTrue(solves.find(), o.out());
        long n = Long.parseLong(solves.group(1).replace(",", ""));
        assertTrue(n >= 5 + 4 + 1, "rate solves " + n + " in\n" + o.out());
        assertTrue(Long.parseLong(solves.group(2).replace(",", "")) >= n, "each solve takes in at least one flow: " + o.out());
        for (String phase : new String[] {"load", "build", "simulate", "reports"}) {
            assertTrue(o.out().contains("\n  " + phase + " ("), phase + " missing in\n" + o.out());
        }
        // The loops' own CPU: some, and no more than the whole process spent (which includes it), over
        // the same events.
        Matcher cpu = Pattern.compile("\\n  simulate CPU ([\\d.]+) s on the simulating thread\\(s\\) \\+ ([\\d.]+) s (?:on the collector's "
                + "threads|of collection pauses) \\((\\d+) collections, ([\\d.]+) s of pauses\\): (\\d+) events per CPU "
                + "second").matcher(o.out());
        assertTrue(cpu.find(), o.out());
        Matcher process = Pattern.compile("\\n  process CPU time ([\\d.]+) s").matcher(o.out());
        assertTrue(process.find(), o.out());
        double loopCpu = Double.parseDouble(cpu.group(1));
        assertTrue(loopCpu > 0 && loopCpu <= Double.parseDouble(process.group(1)), o.out());
        assertTrue(Long.parseLong(cpu.group(5)) > 0, o.out());
        assertTrue(Files.exists(dir.resolve("summary.json")));
        assertTrue(o.err().isEmpty(), "--quiet prints no progress: " + o.err());
        assertFalse(o.out().contains("what would halve it"), "no refit, no reruns: " + o.out());
    }

    /**
     * A refit's "what would halve it" reruns are whole refits of their own: bench times them as a phase of
     * their own (they were counted as the variant's build), and the phases still add up to the total.
     */
    @Test
    void timesARefitsRerunsAsAPhaseOfTheirOwn() {
        Path scenario = CliTestSupport.repo().resolve("scenarios/refit-qwen3-4b-gb200.yaml");
        CliTestSupport.Outcome o = CliTestSupport.run("bench", "--scenario", scenario.toString(), "-q");
        assertEquals(0, o.code(), o.err());
        Matcher phase = Pattern.compile("\\n  (JVM start[^\\n]*?|load|build|simulate|what would halve it|reports|total)"
                + "[^\\n]*? +([0-9.]+) +[0-9.]+%").matcher(o.out());
        java.util.Map<String, Double> seconds = new java.util.LinkedHashMap<>();
        while (phase.find()) {
            seconds.put(phase.group(1).startsWith("JVM") ? "jvm" : phase.group(1), Double.parseDouble(phase.group(2)));
        }
        assertTrue(seconds.containsKey("what would halve it"), o.out());
        assertTrue(seconds.get("what would halve it") > 0, o.out());
        double parts = seconds.entrySet().stream().filter(e -> !e.getKey().equals("total"))
                .mapToDouble(java.util.Map.Entry::getValue).sum();
        assertEquals(seconds.get("total"), parts, 0.006, "phases add up: " + o.out());
        // the refit's own run counts its rate solves as a workload run does (the reruns' are not in them)
        Matcher solves = Pattern.compile("\\n  ([\\d,]+) rate solves took in ([\\d,]+) flows").matcher(o.out());
        assertTrue(solves.find(), o.out());
        long n = Long.parseLong(solves.group(1).replace(",", ""));
        long flows = Long.parseLong(solves.group(2).replace(",", ""));
        assertTrue(n > 0 && flows >= n, "solves " + n + ", flows " + flows + " in\n" + o.out());
        // its events are counted by what they are (a GPU stage's end, a chain's end), not as a class's lambdas
        assertTrue(o.out().contains("GpuStageEnd"), o.out());
        assertFalse(o.out().contains("(unnamed)"), o.out());
    }

    /** Without --out the report is written only to time it: its scratch folder is gone when bench returns. */
    @Test
    void leavesNoScratchFolderBehindWithoutOut() throws Exception {
        Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
        java.util.Set<Path> before = scratchFolders(tmp);
        Path scenario = CliTestSupport.repo().resolve("scenarios/dgx-h100-nic-pin-vs-stripe.yaml");
        CliTestSupport.Outcome o = CliTestSupport.run("bench", "--scenario", scenario.toString(), "-q");
        assertEquals(0, o.code(), o.err());
        assertTrue(o.out().contains("reports written to a scratch folder and removed (--out DIR keeps them)"), o.out());
        java.util.Set<Path> left = scratchFolders(tmp);
        left.removeAll(before);
        assertTrue(left.isEmpty(), "bench left " + left);
    }

    private static java.util.Set<Path> scratchFolders(Path tmp) throws java.io.IOException {
        try (java.util.stream.Stream<Path> s = Files.list(tmp)) {
            return s.filter(p -> p.getFileName().toString().startsWith("rdmasim-bench-"))
                    .collect(java.util.stream.Collectors.toCollection(java.util.HashSet::new));
        }
    }

    @Test
    void refusesThePeerOnAScenarioWithFaultsWithExitCode2() {
        Path scenario = CliTestSupport.repo().resolve("scenarios/faults-nic-down.yaml");
        CliTestSupport.Outcome o = CliTestSupport.run("bench", "--scenario", scenario.toString(), "--peer", "simgrid", "-q");
        assertEquals(2, o.code(), o.out() + o.err());
        assertTrue(o.err().contains("schedules faults"), o.err());
    }

    /**
     * The scenario's own flow problem (three variants of one 16 GB transfer over 1, 2 and 4 lanes, each
     * lane's path and READ cap) posed to SimGrid: one row per variant, finish times within 1e-9.
     */
    @Test
    void posesEachVariantsFlowsToSimgridAndAgrees() {
        SimgridPeer peer = new SimgridPeer(CliTestSupport.repo());
        peer.unavailable().ifPresent(why -> {
            System.out.println("NOTICE: ScenarioBenchTest's SimGrid case skipped: " + why);
            org.junit.jupiter.api.Assumptions.assumeTrue(false, "SimGrid cross-check cannot run: " + why);
        });
        Path scenario = CliTestSupport.repo().resolve("scenarios/dgx-h100-nic-pin-vs-stripe.yaml");
        CliTestSupport.Outcome o = CliTestSupport.run("bench", "--scenario", scenario.toString(), "--peer", "simgrid",
                "-o", dir.toString(), "-q");
        assertEquals(0, o.code(), o.err());
        Matcher rows = Pattern.compile("(?m)^  \\S.*? +1 +(\\d+) +\\d+ +[\\d.]+ +[\\d.]+ +[\\d.]+ +[\\d.]+x +(\\S+)$").matcher(o.out());
        int flows = 0;
        int variants = 0;
        while (rows.find()) {
            variants++;
            flows += Integer.parseInt(rows.group(1));
            assertTrue(Double.parseDouble(rows.group(2)) < 1e-9, "finish times differ by " + rows.group(2) + " in\n" + o.out());
        }
        assertEquals(3, variants, o.out());
        assertEquals(7, flows, "one flow per lane: " + o.out());
    }

    /**
     * --repeats with --scenario: the scenario runs that many times in one JVM (the phase table once, one line per
     * later run), then its cold and warm events per CPU second and the bare loop at the list sizes the run kept,
     * each with its ratio. What is checked is the shape and the counts, not any speed.
     */
    @Test
    void repeatsAScenarioAndSetsItBesideTheBareLoop() {
        Path scenario = CliTestSupport.repo().resolve("scenarios/dgx-h100-nic-pin-vs-stripe.yaml");
        CliTestSupport.Outcome o = CliTestSupport.run("bench", "--scenario", scenario.toString(), "--repeats", "3",
                "--events", "20000", "-q");
        assertEquals(0, o.code(), o.err());
        assertEquals(1, o.out().split("events by kind", -1).length - 1, "one phase table: " + o.out());
        assertTrue(o.out().contains("run 2 of 3 in this JVM:") && o.out().contains("run 3 of 3 in this JVM:"), o.out());
        // every run fires the same events (the run is deterministic): 16 by the first test's counts
        Matcher later = Pattern.compile("\\n  ([\\d,]+) events, simulate [\\d.]+ s wall").matcher(o.out());
        int laterRuns = 0;
        while (later.find()) {
            laterRuns++;
            assertEquals("16", later.group(1), o.out());
        }
        assertEquals(2, laterRuns, o.out());
        assertTrue(o.out().contains("3 run(s) in one JVM") && o.out().contains("16 events each"), o.out());
        assertTrue(o.out().contains("run 1 (cold: the JVM's first scenario)"), o.out());
        assertTrue(o.out().matches("(?s).*best of runs 2-3 \\(warm\\) +[\\d,]+ +\\(runs 2-3: [\\d,]+ / [\\d,]+; median [\\d,]+\\).*"),
                o.out());
        Matcher mean = Pattern.compile("at ([\\d,]+) pending \\(the run's mean list size, ([\\d.]+)\\) +[\\d,]+ +run 1 is "
                + "[\\d.]+x below it, warm [\\d.]+x \\(median [\\d.]+x\\)").matcher(o.out());
        assertTrue(mean.find(), o.out());
        Matcher peak = Pattern.compile("\\n  at most ([\\d,]+) events pending at once; ([\\d.]+) on average").matcher(o.out());
        assertTrue(peak.find(), o.out());
        assertEquals(Double.parseDouble(peak.group(2)), Double.parseDouble(mean.group(2)), 0.051, o.out());
        assertTrue(Double.parseDouble(mean.group(2)) >= 1 && Double.parseDouble(mean.group(2))
                <= Integer.parseInt(peak.group(1).replace(",", "")), o.out());
        assertTrue(o.out().contains("(the run's peak)") || peak.group(1).equals(mean.group(1)), o.out());
    }

    /** Without --repeats a scenario runs once and no bare loop is timed beside it. */
    @Test
    void runsOnceWithoutRepeats() {
        Path scenario = CliTestSupport.repo().resolve("scenarios/dgx-h100-nic-pin-vs-stripe.yaml");
        CliTestSupport.Outcome o = CliTestSupport.run("bench", "--scenario", scenario.toString(), "-q");
        assertEquals(0, o.code(), o.err());
        assertFalse(o.out().contains("in this JVM") || o.out().contains("bare loop"), o.out());
    }

    @Test
    void refusesRepeatsOutOfRangeWithExitCode2NamingTheOption() {
        Path scenario = CliTestSupport.repo().resolve("scenarios/dgx-h100-nic-pin-vs-stripe.yaml");
        for (String bad : new String[] {"0", "-1", "101"}) {
            CliTestSupport.Outcome o = CliTestSupport.run("bench", "--scenario", scenario.toString(), "--repeats", bad, "-q");
            assertEquals(2, o.code(), bad + ": " + o.out() + o.err());
            assertTrue(o.err().contains("--repeats must be 1 to 100 with --scenario") && o.err().contains("got " + bad),
                    o.err());
            assertFalse(o.out().contains("events by kind"), "refused before any run: " + o.out());
        }
        CliTestSupport.Outcome words = CliTestSupport.run("bench", "--scenario", scenario.toString(), "--repeats", "two");
        assertEquals(2, words.code(), words.err());
        assertTrue(words.err().contains("--repeats"), words.err());
        CliTestSupport.Outcome events = CliTestSupport.run("bench", "--scenario", scenario.toString(), "--repeats", "2",
                "--events", "0", "-q");
        assertEquals(2, events.code(), events.err());
        assertTrue(events.err().contains("--events must be 1 to"), events.err());
    }
}
