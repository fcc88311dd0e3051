package org.rdmasim.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.rdmasim.report.Charts;
import org.rdmasim.report.ReceiverSummary;
import org.rdmasim.report.Provenance;
import org.rdmasim.report.ReportFolder;
import org.rdmasim.report.ReportWriter;
import org.rdmasim.run.RunChecks;
import org.rdmasim.scenario.Scenario;
import org.rdmasim.run.VariantRunner;
import org.rdmasim.scenario.VariantSpec;
import org.rdmasim.workload.VariantOutcome;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code rdmasim run SCENARIO.yaml [--out DIR]}. */
@Command(name = "run", mixinStandardHelpOptions = true,
        description = {"Run a scenario's variants and write its report.", "",
                "Writes summary.json, transfers.csv, resources.csv, charts (PNG and SVG), interactive.html "
                        + "(NIC timelines, per-receiver CDF and fan-out receiver timelines drawn by uPlot, "
                        + "copied into the folder: hover for values, drag to zoom, opens offline) and index.html.",
                "Exit codes: 0 all variants ran (or failed where the scenario says expect: failed), 1 a "
                        + "variant failed in simulation, 2 bad input, " + Main.INTERNAL_ERROR_WORDS + ", 130 interrupted (the previous report is "
                        + "left as it was)."})
public final class RunCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "SCENARIO.yaml", description = "the scenario file")
    Path scenarioFile;

    @Option(names = {"-o", "--out"}, paramLabel = "DIR",
            description = "report folder (default: reports/<scenario-name>/ in the current directory)")
    Path out;

    @Option(names = "--force", description = "write the report into DIR beside files rdmasim did not write (they are "
            + "kept; only the earlier report's own files are replaced)")
    boolean force;

    @Option(names = {"-q", "--quiet"}, description = "no progress line (the results are still printed)")
    boolean quiet;

    @Option(names = "--json", description = "print summary.json to standard output instead of the results table "
            + "(the report folder is written as always)")
    boolean json;

    @Option(names = ThreadsOption.NAME, paramLabel = ThreadsOption.LABEL, description = "threads for replications "
            + "and a refit's 'what would halve it' reruns" + ThreadsOption.RANGE + "; the output does not depend on it")
    Integer threads;

    @Option(names = "--check", description = "verify every event (no resource over capacity, max-min fair rates) and "
            + "each result (bytes conserved, every number finite); slow. A violation fails the variant (exit 1).")
    boolean check;

    @Option(names = "--skip-without", description = "do not rerun each variant without each calibrated or assumed "
            + "parameter its page lists under 'rests on', nor under the other UCX install when the scenario does "
            + "not state it (faster; the page then shows no answer without them; explain still does)")
    boolean skipWithout;

    @Mixin
    ScenarioFiles scenarioFiles = new ScenarioFiles();

    @Override
    public Integer call() throws IOException {
        PrintWriter o = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (!check) {
            ReportWriter.warmUp();
        }
        Scenario scenario = scenarioFiles.load(scenarioFile);
        Path dir = out != null ? out : Path.of("reports", scenario.name());
        int n = ThreadsOption.count(threads);
        return whileCtrlCStops(() -> check ? checked(scenario, dir, n, o, err)
                : runInto(scenario, dir, force, quiet, o, err, n, json, !skipWithout));
    }

    private int checked(Scenario scenario, Path dir, int n, PrintWriter o, PrintWriter err) throws IOException {
        try {
            return RunChecks.with(true, () -> {
                try {
                    return runInto(scenario, dir, force, quiet, o, err, n, json, !skipWithout);
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
        } catch (java.io.UncheckedIOException e) {
            throw e.getCause();
        }
    }

    /** A run whose output the process writes; Ctrl-C interrupts it so it can leave the previous report whole. */
    interface Body {
        int run() throws IOException;
    }

    /**
     * Runs {@code body} with a shutdown hook that interrupts it on Ctrl-C and waits a little for it to
     * remove its staging folder and say so; the previous report stays in place either way.
     */
    static int whileCtrlCStops(Body body) throws IOException {
        Thread worker = Thread.currentThread();
        java.util.concurrent.CountDownLatch finished = new java.util.concurrent.CountDownLatch(1);
        Thread hook = new Thread(() -> {
            if (finished.getCount() > 0) {
                worker.interrupt();
                try {
                    // Not a join: the worker goes on into System.exit, which waits for this hook.
                    finished.await(10, java.util.concurrent.TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }, "rdmasim-ctrl-c");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            return body.run();
        } finally {
            finished.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // The JVM is already shutting down: the hook is running and waits for this thread.
            }
        }
    }

    /** The scenario file's hash is taken before simulating, from the bytes the run was loaded from. */
    static Provenance provenance(Scenario scenario) throws IOException {
        Path file = Path.of(scenario.file());
        String hash = java.nio.file.Files.isRegularFile(file) ? Provenance.sha256(java.nio.file.Files.readAllBytes(file))
                : "unknown (scenario not read from a file)";
        boolean read = java.nio.file.Files.isRegularFile(file);
        return new Provenance(Main.version(), hash, scenario.seed(), read ? file.getFileName().toString() : "",
                read ? file : null);
    }

    /**
     * A report folder that holds the report of another scenario file with the same {@code name:} (a copy
     * made to try a change) is not replaced without {@code --force}: the two runs would share the default
     * folder and the first one's results would be gone. A rerun of the same file (edited or not) replaces it.
     * The folder's manifest names the file by its path relative to the folder, which tells a copy with the
     * same file name in another folder apart; where it does not (a report of an earlier rdmasim, or the file
     * it names is gone: moved with its reports, or renamed), summary.json's file name is compared; a report
     * that names neither is not checked.
     */
    static void refuseAnotherScenariosReport(Path dir, Scenario scenario, boolean force) throws IOException {
        Path summary = dir.resolve("summary.json");
        if (force || !java.nio.file.Files.isRegularFile(summary) || scenario.file() == null) {
            return;
        }
        Path mine = Path.of(scenario.file());
        java.util.Optional<Path> live = ReportFolder.liveSource(dir);
        if (live.isPresent()) {
            if (!ReportFolder.sameFile(live.get(), mine)) {
                throw anotherScenariosReport(dir, "the report of " + org.rdmasim.importers.InputLimits.fromHere(live.get()),
                        scenario);
            }
            return; // the manifest names this very file
        }
        String prior;
        try {
            com.fasterxml.jackson.databind.JsonNode p = org.rdmasim.report.SummaryJson.mapper().readTree(summary.toFile())
                    .path("provenance").path("scenarioFile");
            prior = p.isTextual() ? p.asText() : "";
        } catch (IOException e) {
            return;
        }
        Path name = mine.getFileName();
        if (!prior.isEmpty() && name != null && !prior.equals(name.toString())) {
            throw anotherScenariosReport(dir, "the report of " + prior, scenario);
        }
    }

    /** @param what what the folder holds, and of which file ("the report of a/x.yaml") */
    static BadInputException anotherScenariosReport(Path dir, String what, Scenario scenario) {
        return new BadInputException(dir + " holds " + what + ", another scenario named '"
                + scenario.name() + "'; choose another --out, or pass --force to replace it");
    }

    private static int interrupted(Scenario scenario, Path dir, PrintWriter err) {
        err.println("rdmasim: " + scenario.name() + ": interrupted; nothing written, "
                + (java.nio.file.Files.exists(dir) ? "the previous report in " + dir + " is as it was" : dir + " not created"));
        return Main.INTERRUPTED;
    }

    static int defaultThreads() {
        return Runtime.getRuntime().availableProcessors();
    }

    static int runInto(Scenario scenario, Path dir, boolean force, boolean quiet, PrintWriter o, PrintWriter err)
            throws IOException {
        return runInto(scenario, dir, force, quiet, o, err, defaultThreads(), false, true);
    }

    /** Runs every variant in order, shown to {@code watch} and (unless quiet) on the progress line. */
    static List<VariantOutcome> runVariants(Scenario scenario, int threads, boolean quiet, PrintWriter err,
            org.rdmasim.engine.RunWatch watch) {
        List<VariantOutcome> outcomes = new ArrayList<>();
        try (Progress progress = quiet ? Progress.silent() : Progress.open(err, watch)) {
            int i = 0;
            for (VariantSpec v : scenario.variants()) {
                if (Thread.currentThread().isInterrupted()) {
                    break; // the caller reports the interruption and leaves the previous report in place
                }
                i++;
                progress.update(scenario.name() + ": variant " + i + "/" + scenario.variants().size() + " '" + v.name() + "'");
                outcomes.add(VariantRunner.run(v, scenario.seed(), scenario.replications(), threads, watch));
            }
        }
        return outcomes;
    }

    /** The report folder: summary.json, CSV tables, charts and index.html. */
    /**
     * Each variant's platform (the host models it runs on, e.g. "GB200 tray"), when the variants span more
     * than one; empty otherwise, so the answer ranks all variants together.
     */
    static java.util.Map<String, String> platforms(Scenario scenario) {
        java.util.Map<String, String> of = new java.util.LinkedHashMap<>();
        for (VariantSpec v : scenario.variants()) {
            of.put(v.name(), String.join(" + ", new java.util.TreeSet<>(v.hosts().values().stream()
                    .map(h -> h.model()).toList())));
        }
        return new java.util.HashSet<>(of.values()).size() > 1 ? of : java.util.Map.of();
    }

    /**
     * Each pull or fan-out variant rerun without each calibrated or assumed parameter (with a "without" in its
     * profile file) of each profile the page lists under "rests on" (a profile some limit's number is); refits
     * are not rerun here (each rerun would cost a whole refit: {@code explain} reruns them). One rerun per
     * variant and parameter, shown on the progress line.
     */
    static List<org.rdmasim.report.WithoutAnswer> withoutReruns(Scenario scenario, List<VariantOutcome> outcomes,
            boolean quiet, PrintWriter err) {
        List<org.rdmasim.report.WithoutAnswer> out = new ArrayList<>();
        java.util.Set<String> profiles = org.rdmasim.report.ReportWriter.limitingProfiles(outcomes);
        if (profiles.isEmpty()) {
            return out;
        }
        java.util.Map<String, VariantOutcome> ran = new java.util.HashMap<>();
        outcomes.forEach(o -> ran.put(o.name(), o));
        record Rerun(String variant, String profile, String key, String means, VariantSpec spec) {
        }
        List<Rerun> reruns = new ArrayList<>();
        for (String profile : profiles) {
            for (var param : org.rdmasim.hardware.CalibrationProfile.named(profile).assumptions()) {
                if (param.without() == null) {
                    continue;
                }
                for (VariantSpec v : scenario.variants()) {
                    VariantOutcome own = ran.get(v.name());
                    if (v.isRefit() || own == null || own.status() != VariantOutcome.Status.OK) {
                        continue;
                    }
                    org.rdmasim.run.WithoutParameter.of(v, profile, param.key()).ifPresent(r -> reruns.add(
                            new Rerun(v.name(), profile, param.key(), param.without().means(), r.variant())));
                }
            }
        }
        for (int i = 0; i < reruns.size() && !Thread.currentThread().isInterrupted(); i++) {
            Rerun r = reruns.get(i);
            // one watch a rerun: the progress line's counts and ETA are this rerun's, as its label says
            org.rdmasim.engine.RunWatch watch = new org.rdmasim.engine.RunWatch();
            try (Progress progress = quiet ? Progress.silent() : Progress.open(err, watch)) {
                progress.update(scenario.name() + ": rerun " + (i + 1) + "/" + reruns.size() + ", variant '"
                        + r.variant() + "' without " + r.profile() + "." + r.key());
                out.add(new org.rdmasim.report.WithoutAnswer(r.variant(), r.profile(), r.key(), r.means(),
                        org.rdmasim.run.VariantRunner.run(r.spec(), scenario.seed(), 1, 1, watch)));
            }
        }
        return out;
    }

    /**
     * Each pull or fan-out variant whose UCX install the scenario does not state, and whose hosts read a ucx.conf
     * section under one install and not the other, rerun under the other install as explain reruns it
     * ({@link org.rdmasim.run.OtherInstall}); the Answer says the figure when it moves the headline.
     */
    static List<org.rdmasim.report.OtherInstallAnswer> otherInstallReruns(Scenario scenario,
            List<VariantOutcome> outcomes, boolean quiet, PrintWriter err) {
        List<org.rdmasim.report.OtherInstallAnswer> out = new ArrayList<>();
        java.util.Map<String, VariantOutcome> ran = new java.util.HashMap<>();
        outcomes.forEach(o -> ran.put(o.name(), o));
        List<VariantSpec> mattering = new ArrayList<>();
        for (VariantSpec v : scenario.variants()) {
            VariantOutcome own = ran.get(v.name());
            if (!v.isRefit() && own != null && own.status() == VariantOutcome.Status.OK
                    && org.rdmasim.run.OtherInstall.mattering(v).isPresent()) {
                mattering.add(v);
            }
        }
        for (int i = 0; i < mattering.size() && !Thread.currentThread().isInterrupted(); i++) {
            VariantSpec v = mattering.get(i);
            var other = org.rdmasim.run.OtherInstall.mattering(v).orElseThrow();
            org.rdmasim.engine.RunWatch watch = new org.rdmasim.engine.RunWatch();
            try (Progress progress = quiet ? Progress.silent() : Progress.open(err, watch)) {
                progress.update(scenario.name() + ": rerun " + (i + 1) + "/" + mattering.size() + ", variant '"
                        + v.name() + "' under ucxInstall: " + other.other().yamlName());
                out.add(new org.rdmasim.report.OtherInstallAnswer(v.name(), other.assumed().yamlName(),
                        other.otherWords(), org.rdmasim.run.VariantRunner.run(other.variant(), scenario.seed(), 1, 1,
                                watch)));
            }
        }
        return out;
    }

    static void writeReport(Path dir, Scenario scenario, List<VariantOutcome> outcomes) throws IOException {
        writeReport(dir, scenario, outcomes, List.of());
    }

    /** As above, with the variants rerun without a parameter the page lists ({@link #withoutReruns}). */
    static void writeReport(Path dir, Scenario scenario, List<VariantOutcome> outcomes,
            List<org.rdmasim.report.WithoutAnswer> withouts) throws IOException {
        writeReport(dir, scenario, outcomes, withouts, List.of());
    }

    /** As above, with the variants rerun under the other UCX install ({@link #otherInstallReruns}). */
    static void writeReport(Path dir, Scenario scenario, List<VariantOutcome> outcomes,
            List<org.rdmasim.report.WithoutAnswer> withouts, List<org.rdmasim.report.OtherInstallAnswer> others)
            throws IOException {
        List<Charts.Reference> refs = scenario.references().stream()
                .map(r -> new Charts.Reference(r.label(), r.gbps())).toList();
        ReportWriter.SweepChart sweep = scenario.sweep() == null ? null : new ReportWriter.SweepChart(
                scenario.sweep().series(), scenario.sweep().messageSizes(), Scenario.Sweep::variantName);
        java.util.Map<String, List<String>> environments = new java.util.HashMap<>();
        for (VariantSpec v : scenario.variants()) {
            environments.put(v.name(), v.transport().env().stream()
                    .map(e -> e.name() + "=" + org.rdmasim.transport.config.KnownVariables.shownValue(e.name(), e.value()) + "  (" + fileName(e.source()) + ":" + e.line() + ")").toList());
        }
        ReportWriter.write(dir, scenario.name(), scenario.description(), outcomes, refs, sweep, provenance(scenario),
                environments, new org.rdmasim.report.AnswerContext(scenario.question(), platforms(scenario), withouts, others));
    }

    /**
     * Each variant's warnings, each text once, naming every variant it concerns: a warning of the base
     * (an imported host's, a base env line's) that all variants share is one line for all of them, and
     * one a variant's own line causes names that variant, however many other variants warn of the same.
     */
    static void printWarnings(Scenario scenario, PrintWriter err) {
        java.util.Map<String, java.util.Set<String>> variantsOf = new java.util.LinkedHashMap<>();
        for (VariantSpec v : scenario.variants()) {
            for (String w : v.warnings()) {
                variantsOf.computeIfAbsent(w, k -> new java.util.LinkedHashSet<>()).add(v.name());
            }
        }
        int all = scenario.variants().size();
        variantsOf.forEach((w, names) -> err.println("rdmasim: warning: " + (names.size() == 1 ? "variant "
                + names.iterator().next() : names.size() == all ? "all " + all + " variants" : "variants "
                + String.join(", ", names)) + ": " + org.rdmasim.importers.PrintableText.escapedKeepingLines(w)));
    }

    /**
     * Runs the scenario into {@code dir}. {@code quiet} hides the progress line only; the results go to
     * {@code o} as a table, or as summary.json when {@code json}. With {@code without}, the variants are rerun
     * without the parameters the page lists ({@link #withoutReruns}) before the report is written.
     */
    static int runInto(Scenario scenario, Path dir, boolean force, boolean quiet, PrintWriter o, PrintWriter err,
            int threads, boolean json, boolean without) throws IOException {
        if (threads < 1) {
            throw new BadInputException("--threads must be at least 1, got " + threads);
        }
        refuseAnotherScenariosReport(dir, scenario, force);
        Path target = ReportFolder.claim(dir, inputs(scenario), force);
        printWarnings(scenario, err);
        List<VariantOutcome> outcomes;
        try {
            outcomes = runVariants(scenario, threads, quiet, err, new org.rdmasim.engine.RunWatch());
        } catch (RuntimeException e) {
            // Replications waited on by an interrupted thread end in an exception: a stop, not a failure.
            if (Thread.currentThread().isInterrupted()) {
                return interrupted(scenario, dir, err);
            }
            throw e;
        }
        if (Thread.currentThread().isInterrupted()) {
            return interrupted(scenario, dir, err);
        }
        boolean checkFailed = false;
        if (RunChecks.enabled()) {
            for (VariantOutcome v : outcomes) {
                if (v.result() == null) {
                    continue;
                }
                for (String problem : RunChecks.violations(v.result())) {
                    err.println("rdmasim: check: variant " + v.name() + ": " + problem);
                    checkFailed = true;
                }
            }
            if (!checkFailed) {
                (json ? err : o).println("check: every event and result of " + outcomes.size() + " variant(s) verified");
            }
        }
        List<org.rdmasim.report.WithoutAnswer> withouts = without ? withoutReruns(scenario, outcomes, quiet, err) : List.of();
        List<org.rdmasim.report.OtherInstallAnswer> others = without ? otherInstallReruns(scenario, outcomes, quiet, err)
                : List.of();
        if (Thread.currentThread().isInterrupted()) {
            return interrupted(scenario, dir, err);
        }
        try {
            writeReport(target, scenario, outcomes, withouts, others);
        } catch (java.io.InterruptedIOException e) {
            return interrupted(scenario, dir, err);
        }
        boolean failed = false;
        boolean table = !json;
        if (json) {
            o.print(java.nio.file.Files.readString(target.resolve("summary.json"), java.nio.charset.StandardCharsets.UTF_8));
            o.flush();
        }
        java.util.Set<String> refits = new java.util.HashSet<>();
        scenario.variants().stream().filter(VariantSpec::isRefit).forEach(v -> refits.add(v.name()));
        boolean anyRefit = outcomes.stream().anyMatch(v -> refits.contains(v.name()));
        boolean anyPull = outcomes.stream().anyMatch(v -> !refits.contains(v.name()));
        if (table) {
            o.printf(Locale.ROOT, "%s: %d variant(s) -> %s%n", scenario.name(), outcomes.size(), dir);
        }
        // the name column holds the longest name with its what-if mark, so the columns after it stay aligned
        int width = Math.max(34, outcomes.stream().mapToInt(v -> org.rdmasim.workload.WhatIf.marked(v.name(),
                v.audit() != null && v.audit().isWhatIf()).length()).max().orElse(0));
        // Two tables when a scenario runs both: a pull's columns (slowest receiver, rates) say nothing of a
        // refit, whose time is its cycle's (broadcasts post no transfer) and whose bound is its stage's.
        for (boolean refitTable : new boolean[] {false, true}) {
            if (refitTable ? !anyRefit : !anyPull) {
                continue;
            }
            if (table) {
                if (refitTable) {
                    o.printf(Locale.ROOT, "  %-" + width + "s %-7s %10s %10s %10s %11s  %s%n", "refit variant", "status", "first(s)",
                            "steady(s)", "all(s)", "wire(GB/cy)", "steady cycle bound by");
                } else {
                    o.printf(Locale.ROOT, "  %-" + width + "s %-7s %12s %12s %12s  %s%n", "variant", "status", "slowest(s)",
                            "aggr(Gbps)", "recv(Gbps)", "slowest receiver limited by");
                }
            }
            for (VariantOutcome v : outcomes) {
                if (refits.contains(v.name()) != refitTable) {
                    continue;
                }
                failed |= printRow(o, table, scenario, v, width);
            }
        }
        if (table) {
            calibratedLegend(o, outcomes);
        }
        if (table && scenario.sweep() != null) {
            PerftestTable.print(o, scenario.sweep(), outcomes);
        }
        return failed || checkFailed ? Main.VARIANT_FAILED : Main.OK;
    }

    /**
     * Under the table, each calibrated (or assumed) number that limits a variant's row, with the measurement it
     * was fitted to and the variants it limits, in the words of the charts' captions: the column says only
     * "calibrated to gb200-roce", which names a profile, not what was measured.
     */
    static void calibratedLegend(PrintWriter o, List<VariantOutcome> outcomes) {
        java.util.Map<org.rdmasim.report.CalibratedLimit, List<String>> limits = new java.util.LinkedHashMap<>();
        for (VariantOutcome v : outcomes) {
            org.rdmasim.report.CalibratedLimit.of(v)
                    .ifPresent(l -> limits.computeIfAbsent(l, k -> new ArrayList<>()).add(v.name()));
        }
        limits.forEach((l, names) -> o.printf(Locale.ROOT, "  %s; it limits %s.%n",
                l.sentence(), String.join(", ", names)));
    }

    /** One variant's row of the results table; true when it failed and was not expected to. */
    private static boolean printRow(PrintWriter o, boolean table, Scenario scenario, VariantOutcome v, int width) {
        if (v.status() == VariantOutcome.Status.FAILED) {
            boolean expected = scenario.failureExpected(v.name());
            if (table) {
                o.printf(Locale.ROOT, "  %-" + width + "s %-7s %s%n", org.rdmasim.workload.WhatIf.marked(v.name(), v.audit().isWhatIf()), expected ? "failed" : "FAILED",
                        (expected ? "(expected) " : "") + org.rdmasim.importers.PrintableText.escaped(
                                v.error().lines().findFirst().orElse("")));
                printFaultCost(o, v, width);
            }
            return !expected;
        }
        if (!table) {
            return false;
        }
        if (v.result() != null && v.result().refit() != null) {
            // the bound in words, which name a calibrated term as such (an id such as "GPU0 ipc calls" does not)
            var rf = v.result().refit();
            var last = rf.cycles().get(rf.cycles().size() - 1);
            o.printf(Locale.ROOT, "  %-" + width + "s %-7s %10.4f %10.4f %10.4f %11.2f  %s%n",
                    org.rdmasim.workload.WhatIf.marked(v.name(), v.audit().isWhatIf()), "ok",
                    rf.firstCycleSeconds(), rf.steadyCycleSeconds(), rf.wallSeconds(), last.wireBytes() / 1e9,
                    last.boundWords());
            return false;
        }
        ReceiverSummary s = ReceiverSummary.of(v.result());
        ReceiverSummary.Receiver slowest = null;
        for (ReceiverSummary.Receiver r : s.receivers()) {
            if (slowest == null || r.pullSeconds() > slowest.pullSeconds()) {
                slowest = r;
            }
        }
        o.printf(Locale.ROOT, "  %-" + width + "s %-7s %12s %12.1f %12.1f  %s%n",
                org.rdmasim.workload.WhatIf.marked(v.name(), v.audit().isWhatIf()), "ok",
                seconds(slowest == null ? 0 : slowest.pullSeconds()), s.aggregateGbps(), s.meanReceiverGbps(),
                slowest == null ? "" : slowest.bottleneck().id());
        if (v.claim() != null && slowest != null) {
            o.printf(Locale.ROOT, "  %-" + width + "s claim %s: %s%n", "", v.claim().source(), v.claim().verdict(slowest.pullSeconds()));
        }
        printFaultCost(o, v, width);
        return false;
    }

    /**
     * A pull time for the table: four decimals, or four significant digits under 10 ms, where four decimals
     * printed every message of a size sweep from 4 B to 4 KiB as 0.0002 s.
     */
    static String seconds(double s) {
        return s > 0 && s < 0.01 ? String.format(Locale.ROOT, "%.3e", s) : String.format(Locale.ROOT, "%.4f", s);
    }

    private static void printFaultCost(PrintWriter o, VariantOutcome v, int width) {
        if (v.faultCost() != null) {
            var c = v.faultCost();
            o.printf(Locale.ROOT, "  %-" + width + "s faults: makespan %s s (%s s without), %d attempt(s) failed, %d gave up%n",
                    "", org.rdmasim.hardware.Units.number(c.makespanWith()),
                    org.rdmasim.hardware.Units.number(c.makespanWithout()), c.failedAttempts(), c.gaveUp());
        }
    }

    /** The files a run of {@code scenario} read: its report may not be written over them. */
    static List<Path> inputs(Scenario scenario) {
        List<Path> files = new ArrayList<>();
        files.add(Path.of(scenario.file()));
        for (VariantSpec v : scenario.variants()) {
            for (var e : v.transport().env()) {
                if (e.source() != null && !e.source().isEmpty()) {
                    try {
                        files.add(Path.of(e.source()));
                    } catch (java.nio.file.InvalidPathException notAFile) {
                        // a source that names no file (an env block's label) cannot be overwritten
                    }
                }
            }
        }
        return files.stream().distinct().toList();
    }

    /** A source's file name without its folder, so reports read the same on every machine. */
    private static String fileName(String source) {
        Path p = Path.of(source).getFileName();
        return p == null ? source : p.toString();
    }
}
