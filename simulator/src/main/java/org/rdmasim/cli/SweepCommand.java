package org.rdmasim.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.rdmasim.report.ReportWriter;
import org.rdmasim.sweep.ClusterJobs;
import org.rdmasim.sweep.ResultTable;
import org.rdmasim.sweep.Study;
import org.rdmasim.sweep.StudyPage;
import org.rdmasim.sweep.StudyPlan;
import org.rdmasim.sweep.StudyReader;
import org.rdmasim.sweep.StudyRunner;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code rdmasim sweep STUDY.yaml}: every point of a study, locally, as one shard, or as cluster jobs. */
@Command(name = "sweep", mixinStandardHelpOptions = true,
        description = {
                "Run a study: a base scenario with knobs varied over a grid or a seeded sample.",
                "",
                "Each knob is any scenario field by its path, with a list or a range of values; each point "
                        + "runs for its replications. Writes results.csv and results.json (one row per point "
                        + "and replication: knob values, figures, limiter), a chart of each figure against each "
                        + "knob and index.html. The rows do not depend on --threads or on how the study is split "
                        + "into shards.",
                "",
                "--shard I/N runs the points whose number is I-1 modulo N; `rdmasim merge` joins the shards' "
                        + "folders into the table a whole run writes, byte for byte. --resume DIR runs only the "
                        + "rows DIR does not hold yet. Ctrl-C keeps the finished rows (table marked incomplete). "
                        + "--slurm writes a job array and a merge job (afterok); --k8s an Indexed Job and a "
                        + "merge Job.",
                "Exit codes: 0 every row ran, 1 some point's variant failed (rows marked failed), 2 bad input, " + Main.INTERNAL_ERROR_WORDS + ", "
                        + "130 interrupted (finished rows written)."})
public final class SweepCommand implements java.util.concurrent.Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "STUDY.yaml", description = "the study")
    Path studyFile;

    @Option(names = {"-o", "--out"}, paramLabel = "DIR", description = "output folder (default: reports/<study>/, "
            + "reports/<study>/shard-I/ for a shard)")
    Path out;

    @Option(names = {"-q", "--quiet"}, description = "no progress line (the rows and the summary are still written)")
    boolean quiet;

    @Option(names = "--shard", paramLabel = "I/N", description = "run shard I of N (1-based)")
    String shardText;

    @Option(names = "--resume", paramLabel = "DIR", description = "continue the run whose folder is DIR")
    Path resume;

    @Option(names = "--slurm", description = "write a Slurm job array (one task per shard) and a merge job; run nothing")
    boolean slurm;

    @Option(names = "--k8s", description = "write a Kubernetes Indexed Job (one pod per shard) and a merge Job; run nothing")
    boolean k8s;

    @Option(names = "--shards", paramLabel = "N", description = "shards for --slurm or --k8s (default: ${DEFAULT-VALUE})",
            defaultValue = "4")
    int shards;

    @Option(names = "--cpus", paramLabel = "N", description = "cores per shard for --slurm or --k8s (default: ${DEFAULT-VALUE})",
            defaultValue = "2")
    int cpus;

    @Option(names = "--memory", paramLabel = "SIZE", description = "memory per shard for --slurm (e.g. 4G) or --k8s "
            + "(e.g. 4Gi) (default: 4G for Slurm, 4Gi for Kubernetes)")
    String memory;

    @Option(names = "--time", paramLabel = "D-HH:MM:SS", description = "Slurm time limit per task (default: ${DEFAULT-VALUE})",
            defaultValue = "01:00:00")
    String time;

    @Option(names = "--partition", paramLabel = "NAME", description = "Slurm partition (default: the cluster's)")
    String partition;

    @Option(names = "--launcher", paramLabel = "COMMAND", description = "how a job starts rdmasim (default: this "
            + "launcher's absolute path for Slurm, 'rdmasim' for Kubernetes)")
    String launcher;

    @Option(names = "--image", paramLabel = "IMAGE", description = "container image for --k8s (holds rdmasim on its PATH)")
    String image;

    @Option(names = "--volume-claim", paramLabel = "NAME", description = "PersistentVolumeClaim for --k8s holding the "
            + "working folder (study, scenarios, output)")
    String volumeClaim;

    @Option(names = "--mount", paramLabel = "PATH", description = "where --k8s pods mount the claim and work "
            + "(default: ${DEFAULT-VALUE})", defaultValue = "/work")
    String mount;

    @Option(names = "--parallelism", paramLabel = "N", description = "pods at once for --k8s (default: every shard)")
    Integer parallelism;

    @Option(names = ThreadsOption.NAME, paramLabel = ThreadsOption.LABEL, description = "rows (a point's "
            + "replication, each on one thread) run at once" + ThreadsOption.RANGE + "; the rows do not depend on it. "
            + "A --slurm or --k8s job runs each shard on --cpus threads")
    Integer threads;

    @Option(names = "--allow-outside", description = "read files the study or scenario names even outside their folder")
    boolean allowOutside;

    /** Options that shape the jobs --slurm or --k8s write, by the mode they belong to. */
    private static final List<String> JOB_OPTIONS = List.of("--shards", "--cpus", "--memory", "--launcher");
    private static final List<String> SLURM_OPTIONS = List.of("--time", "--partition");
    private static final List<String> K8S_OPTIONS = List.of("--image", "--volume-claim", "--mount", "--parallelism");

    /**
     * A job option given where no job of its kind is written would be dropped without a word (an --image with no
     * --k8s runs the study here, on this machine): refused, naming the option and the mode it belongs to.
     */
    private void jobOptionsFitTheMode() {
        picocli.CommandLine.ParseResult given = spec.commandLine().getParseResult();
        List<String> all = new java.util.ArrayList<>(JOB_OPTIONS);
        all.addAll(SLURM_OPTIONS);
        all.addAll(K8S_OPTIONS);
        for (String name : all) {
            if (!given.hasMatchedOption(name)) {
                continue;
            }
            String mode = SLURM_OPTIONS.contains(name) ? "--slurm" : K8S_OPTIONS.contains(name) ? "--k8s"
                    : "--slurm or --k8s";
            if (!slurm && !k8s) {
                throw new BadInputException(name + " shapes the jobs " + mode + " writes; without " + mode
                        + " the study runs here and " + name + " would be ignored: add " + mode + " or leave " + name
                        + " out");
            }
            if (slurm && K8S_OPTIONS.contains(name) || k8s && SLURM_OPTIONS.contains(name)) {
                throw new BadInputException(name + " is for " + mode + ", not " + (slurm ? "--slurm" : "--k8s")
                        + ": leave it out");
            }
        }
    }

    @Override
    public Integer call() throws IOException {
        PrintWriter o = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        StudyPlan.Shard shard;
        try {
            shard = shardText == null ? StudyPlan.Shard.ALL : StudyPlan.Shard.parse(shardText);
        } catch (IllegalArgumentException e) {
            throw new BadInputException("--shard: " + e.getMessage());
        }
        if (slurm && k8s) {
            throw new BadInputException("--slurm and --k8s: choose one");
        }
        if ((slurm || k8s) && (shardText != null || resume != null)) {
            throw new BadInputException("--slurm and --k8s write jobs for every shard; --shard and --resume are for a run");
        }
        jobOptionsFitTheMode();
        int workers = ThreadsOption.count(threads);
        Study study = StudyReader.read(studyFile, allowOutside);
        StudyPlan plan = new StudyPlan(study);
        if (slurm || k8s) {
            return writeJobs(study, plan, o);
        }
        Path dir;
        ResultTable table;
        ResultTable.Meta meta = ResultTable.Meta.of(plan, shard);
        if (resume != null) {
            if (out != null && !out.toAbsolutePath().normalize().equals(resume.toAbsolutePath().normalize())) {
                throw new BadInputException("--resume " + resume + " writes into that folder; leave out --out " + out);
            }
            dir = resume;
            if (!Files.isRegularFile(dir.resolve(ResultTable.JSON))) {
                throw new BadInputException("--resume " + dir + ": no " + ResultTable.JSON + " there to resume");
            }
            ResultTable before = ResultTable.read(dir);
            if (!before.meta().fingerprint().equals(meta.fingerprint())) {
                throw new BadInputException(dir.resolve(ResultTable.JSON) + ": fingerprint " + before.meta().fingerprint()
                        + " is of another study (or the study or its scenario changed since); this study's is "
                        + meta.fingerprint());
            }
            if (shardText == null && before.meta().shard() != null) {
                shard = before.meta().shard();
                meta = ResultTable.Meta.of(plan, shard);
            } else if (!java.util.Objects.equals(before.meta().shard(), meta.shard())) {
                throw new BadInputException("--resume " + dir + " holds " + (before.meta().shard() == null ? "a whole run"
                        : "shard " + before.meta().shard()) + ", not " + (meta.shard() == null ? "a whole run" : "shard "
                        + meta.shard()));
            }
            table = new ResultTable(meta);
            before.rows().forEach(table::add);
        } else {
            dir = out != null ? out : shard.isAll() ? Path.of("reports", study.name())
                    : Path.of("reports", study.name(), "shard-" + shard.index());
            claimStudyFolder(dir, study);
            if (out == null && !shard.isAll() && ReportWriter.safeToWrite(dir.getParent())) {
                // reports/<study>/ holds the shards, and `merge` writes the whole table there
                Files.createDirectories(dir.getParent());
                org.rdmasim.report.ReportFolder.addWritten(dir.getParent(), List.of());
            }
            Files.createDirectories(dir);
            Files.deleteIfExists(dir.resolve(ResultTable.JOURNAL));
            table = new ResultTable(meta);
        }
        // the table is on disk from the start, so --resume and merge find the folder even after a kill
        table.write(dir);
        org.rdmasim.report.ReportFolder.addWritten(dir, List.of(ResultTable.CSV, ResultTable.JSON), study.file());
        StudyRunner runner = new StudyRunner(plan, table, dir, workers);
        List<StudyPlan.Task> tasks = runner.remaining(shard);
        int before = table.rows().size();
        Output output = new Output(table, dir, o, err);
        Thread main = Thread.currentThread();
        Thread hook = new Thread(() -> {
            runner.stop();
            main.interrupt();
            output.fromHook(5000);
        }, "rdmasim-sweep-ctrl-c");
        Runtime.getRuntime().addShutdownHook(hook);
        AtomicInteger done = new AtomicInteger();
        AtomicInteger failed = new AtomicInteger();
        AtomicLong busyNanos = new AtomicLong();
        long start = System.nanoTime();
        boolean finished;
        try (Progress progress = quiet ? Progress.silent() : new Progress(err)) {
            String label = study.name() + (shard.isAll() ? "" : " shard " + shard);
            progress.update(String.format(Locale.ROOT, "%s: %d row(s) to run on %d thread(s)", label, tasks.size(), workers));
            try {
                finished = runner.run(tasks, (row, nanos) -> {
                    int d = done.incrementAndGet();
                    if (!row.ok()) {
                        failed.incrementAndGet();
                    }
                    busyNanos.addAndGet(nanos);
                    double elapsed = (System.nanoTime() - start) / 1e9;
                    double eta = elapsed / d * (tasks.size() - d);
                    progress.update(String.format(Locale.ROOT, "%s: %d of %d row(s) done%s, %.1f s per row on one thread, "
                            + "%.0f s elapsed, about %.0f s left", label, d, tasks.size(),
                            failed.get() > 0 ? " (" + failed.get() + " failed)" : "", busyNanos.get() / 1e9 / d, elapsed, eta));
                });
            } catch (InterruptedException e) {
                finished = false;
            } catch (RuntimeException e) {
                // a fault of a row's run (StudyRunner rethrows it): reported as such, not as an interruption; the
                // finished rows stay in the journal for --resume
                try {
                    Runtime.getRuntime().removeShutdownHook(hook);
                } catch (IllegalStateException shuttingDown) {
                    // the hook runs anyway
                }
                throw e;
            }
        }
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // the JVM is shutting down: the hook writes or waits for the rows
        }
        if (!output.claim()) {
            output.awaitHook();
            return Main.INTERRUPTED;
        }
        output.write(finished && table.complete(), before);
        if (!finished || !table.complete()) {
            return Main.INTERRUPTED;
        }
        return table.rows().stream().anyMatch(r -> !r.ok()) ? Main.VARIANT_FAILED : Main.OK;
    }

    /** The file by which another command's report is known, and that command. */
    private static final java.util.Map<String, String> OTHER_REPORTS = new java.util.LinkedHashMap<>(
            java.util.Map.of("summary.json", "run", "sizing.json", "size", "validation.json", "validate"));

    /**
     * Refuses, before any simulation, an output folder a study must not write into, saying what is in the
     * way as {@code run} does: a file, entries rdmasim did not write (named), or another command's report
     * (a study's index.html would replace that report's, and its files would be left mixed with the study's).
     */
    /**
     * As below, and a folder whose manifest names another study file (a copy of the study, its {@code name:}
     * the same, so the same default folder) is refused: its results would be replaced.
     */
    static void claimStudyFolder(Path dir, Study study) throws IOException {
        claimStudyFolder(dir);
        if (Files.isDirectory(dir)) {
            java.util.Optional<Path> other = org.rdmasim.report.ReportFolder.anotherSource(dir, study.file());
            if (other.isPresent()) {
                throw new BadInputException(dir + " holds the study of " + org.rdmasim.importers.InputLimits.fromHere(other.get())
                        + ", another study named '" + study.name() + "'; choose another --out");
            }
        }
    }

    static void claimStudyFolder(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            // a file on the way to it (--out FILE/sub) said as `run` says it, not as "Not a directory"
            org.rdmasim.report.ReportFolder.checkWritable(dir);
            return;
        }
        if (!Files.isDirectory(dir)) {
            throw new BadInputException("will not write a study at " + dir + ": it is a file, and a study's output is "
                    + "a folder; choose another --out");
        }
        List<String> foreign = org.rdmasim.report.ReportFolder.foreignEntries(dir, java.util.Set.of());
        if (!foreign.isEmpty()) {
            throw new BadInputException(dir + " holds " + org.rdmasim.report.ReportFolder.named(foreign)
                    + " that rdmasim did not write (or that changed since it wrote them); choose another --out");
        }
        for (var report : OTHER_REPORTS.entrySet()) {
            if (Files.isRegularFile(dir.resolve(report.getKey()))) {
                throw new BadInputException(dir + " holds the report of `rdmasim " + report.getValue() + "` ("
                        + report.getKey() + "); a study would replace its index.html and mix its files with that "
                        + "report's: choose another --out");
            }
        }
    }

    private int writeJobs(Study study, StudyPlan plan, PrintWriter o) throws IOException {
        if (shards < 1 || shards > Math.max(1, plan.points().size())) {
            throw new BadInputException("--shards must be 1 to the study's " + plan.points().size() + " point(s), got " + shards);
        }
        if (cpus < 1 || cpus > ThreadsOption.MAX_THREADS) {
            throw new BadInputException("--cpus must be 1 to " + ThreadsOption.MAX_THREADS + ", got " + cpus);
        }
        Path dir = out != null ? out : Path.of("reports", study.name());
        claimStudyFolder(dir, study);
        ClusterJobs jobs;
        try {
            jobs = new ClusterJobs(study, shards, cpus, dir, allowOutside);
            if (slurm) {
                String home = System.getProperty("rdmasim.home");
                String l = launcher != null ? launcher
                        : home != null ? Path.of(home, "rdmasim").toAbsolutePath().normalize().toString() : "rdmasim";
                List<Path> written = jobs.writeSlurm(l, memory != null ? memory : "4G", time, partition);
                o.println("Slurm job array of " + shards + " task(s) and merge job written: " + written);
                o.println("submit with: sh " + written.get(written.size() - 1));
            } else {
                if (image == null || volumeClaim == null) {
                    throw new BadInputException("--k8s needs --image (with rdmasim on its PATH) and --volume-claim (the "
                            + "volume holding this folder: study, scenarios and output)");
                }
                List<Path> written = jobs.writeKubernetes(launcher != null ? launcher : "rdmasim", image, volumeClaim, mount,
                        memory != null ? memory : "4Gi", parallelism == null ? shards : parallelism);
                o.println("Kubernetes Indexed Job of " + shards + " pod(s) and merge Job written: " + written);
                o.println("submit with: sh " + written.get(written.size() - 1));
            }
        } catch (IllegalArgumentException e) {
            throw new BadInputException(e.getMessage());
        }
        org.rdmasim.report.ReportFolder.addWritten(dir, List.of(), study.file());
        return Main.OK;
    }

    /** Who writes the final table: the main thread when the run ends, or the Ctrl-C hook. */
    private static final class Output {
        private final ResultTable table;
        private final Path dir;
        private final PrintWriter o;
        private final PrintWriter err;
        private final AtomicBoolean claimed = new AtomicBoolean();
        private final CountDownLatch written = new CountDownLatch(1);

        Output(ResultTable table, Path dir, PrintWriter o, PrintWriter err) {
            this.table = table;
            this.dir = dir;
            this.o = o;
            this.err = err;
        }

        boolean claim() {
            return claimed.compareAndSet(false, true);
        }

        void awaitHook() {
            try {
                written.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        void fromHook(long waitMillis) {
            try {
                if (written.await(waitMillis, TimeUnit.MILLISECONDS)) {
                    return;
                }
                if (claim()) {
                    write(false, 0);
                } else {
                    written.await(10, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (IOException e) {
                err.println("rdmasim: I/O error writing the rows so far: " + e.getMessage());
            }
        }

        void write(boolean complete, int before) throws IOException {
            try {
                StudyPage.write(table, dir, complete);
                if (complete) {
                    Files.deleteIfExists(dir.resolve(ResultTable.JOURNAL));
                }
                List<org.rdmasim.sweep.ResultRow> rows = table.rows();
                long failed = rows.stream().filter(r -> !r.ok()).count();
                o.printf(Locale.ROOT, "%s: %d of %d row(s) (%d point(s) x %d replication(s)%s)%s%s; written to %s%n",
                        table.meta().study(), rows.size(), table.meta().expectedRows(), table.meta().points(),
                        table.meta().replications(), table.meta().shard() == null ? "" : ", shard " + table.meta().shard(),
                        before > 0 ? ", " + before + " from before" : "", failed > 0 ? ", " + failed + " FAILED" : "", dir);
                o.flush();
                if (!complete) {
                    err.println("rdmasim: " + table.meta().study() + ": interrupted; the " + rows.size() + " finished row(s) "
                            + "are kept in " + dir + " (marked incomplete); continue with --resume " + dir);
                    err.flush();
                }
            } finally {
                written.countDown();
            }
        }
    }
}
