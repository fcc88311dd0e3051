package org.rdmasim.sweep;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.rdmasim.hardware.CalibrationProfile;
import org.rdmasim.hardware.ProfileParameter;
import org.rdmasim.report.ReceiverSummary;
import org.rdmasim.run.VariantRunner;
import org.rdmasim.scenario.Scenario;
import org.rdmasim.scenario.ScenarioException;
import org.rdmasim.scenario.VariantSpec;
import org.rdmasim.workload.RunResult;
import org.rdmasim.workload.VariantOutcome;

/**
 * Computes the rows of a study not yet in its table, one task (point, replication) per thread at a
 * time on a fixed pool. A replication's random streams depend only on the seed and its index, so a row
 * is the same whichever thread, shard or run computes it. Each finished row goes into the table and,
 * at once, onto the journal in the output folder, so a run stopped at any moment keeps its rows.
 */
public final class StudyRunner {
    /** Told of each finished row, from the worker thread that computed it. */
    public interface Listener {
        void finished(ResultRow row, long nanos);
    }

    private final StudyPlan plan;
    private final ResultTable table;
    private final Path dir;
    private final int threads;
    private final Map<Integer, Scenario> loaded = new ConcurrentHashMap<>();
    private final Map<Integer, AtomicInteger> pending = new ConcurrentHashMap<>();
    private volatile ExecutorService pool;

    public StudyRunner(StudyPlan plan, ResultTable table, Path dir, int threads) {
        this.plan = plan;
        this.table = table;
        this.dir = dir;
        this.threads = threads;
    }

    /** The tasks of {@code shard} whose rows the table does not hold yet. */
    public List<StudyPlan.Task> remaining(StudyPlan.Shard shard) {
        List<StudyPlan.Task> out = new ArrayList<>();
        for (StudyPlan.Task t : plan.tasks(shard)) {
            if (!table.has(t.point().index(), t.replication())) {
                out.add(t);
            }
        }
        return out;
    }

    /**
     * Runs {@code tasks} and returns true when every one finished, false when {@link #stop()} cut the
     * run short (the rows finished so far are in the table and the journal).
     */
    public boolean run(List<StudyPlan.Task> tasks, Listener listener) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        for (StudyPlan.Task t : tasks) {
            pending.computeIfAbsent(t.point().index(), p -> new AtomicInteger()).incrementAndGet();
        }
        ExecutorService p = Executors.newFixedThreadPool(Math.max(1, threads), r -> {
            Thread t = new Thread(r, "rdmasim-sweep");
            t.setDaemon(true);
            return t;
        });
        pool = p;
        AtomicInteger done = new AtomicInteger();
        // what a row's run threw that is no failure of its variant (a fault of rdmasim's): the run stops and it is
        // rethrown to the command, which reports it as any internal error, never as a trace from the pool's thread
        java.util.concurrent.atomic.AtomicReference<RuntimeException> fault = new java.util.concurrent.atomic.AtomicReference<>();
        try (BufferedWriter journal = Files.newBufferedWriter(dir.resolve(ResultTable.JOURNAL), StandardCharsets.UTF_8,
                StandardOpenOption.CREATE, StandardOpenOption.APPEND)) {
            for (StudyPlan.Task t : tasks) {
                p.execute(() -> {
                    if (Thread.currentThread().isInterrupted()) {
                        return;
                    }
                    long start = System.nanoTime();
                    ResultRow row;
                    try {
                        row = compute(t);
                    } catch (org.rdmasim.engine.SimulationInterrupted e) {
                        return; // stop() cut this row short: not kept, as a row never started
                    } catch (RuntimeException e) {
                        if (fault.compareAndSet(null, e)) {
                            p.shutdownNow();
                        }
                        return;
                    }
                    table.add(row);
                    synchronized (journal) {
                        try {
                            journal.write(table.journalLine(row));
                            journal.newLine();
                            journal.flush();
                        } catch (IOException e) {
                            // the row is still in the table, which is written at the end
                        }
                    }
                    done.incrementAndGet();
                    listener.finished(row, System.nanoTime() - start);
                });
            }
            p.shutdown();
            while (!p.awaitTermination(1, TimeUnit.SECONDS)) {
                if (Thread.currentThread().isInterrupted()) {
                    throw new InterruptedException();
                }
            }
        }
        if (fault.get() != null) {
            throw fault.get();
        }
        return done.get() == tasks.size();
    }

    /** Stops starting tasks and interrupts the running ones; their rows are not kept. */
    public void stop() {
        ExecutorService p = pool;
        if (p != null) {
            p.shutdownNow();
        }
    }

    private ResultRow compute(StudyPlan.Task t) {
        StudyPlan.Point point = t.point();
        List<String> values = plan.values(point);
        Scenario s;
        try {
            s = loaded.computeIfAbsent(point.index(), i -> plan.study().scenarioAt(point.choice()));
        } catch (ScenarioException | IllegalArgumentException e) {
            // each value passed alone when the study was read; this combination of them did not
            return failed(t, values, "this combination of values is refused: " + e.getMessage());
        } finally {
            AtomicInteger left = pending.get(point.index());
            if (left != null && left.decrementAndGet() == 0) {
                loaded.remove(point.index()); // its last replication: the scenario is no longer needed
            }
        }
        VariantSpec v = plan.study().variantOf(s, null);
        VariantOutcome o;
        try {
            o = VariantRunner.runReplication(v, s.seed(), t.replication());
        } catch (ScenarioException e) {
            // a value refused only once the point runs (a refit picks its lanes as it runs: UCX_MAX_RMA_RAILS=0)
            return failed(t, values, "this point's values are refused: " + e.getMessage());
        }
        if (o.status() != VariantOutcome.Status.OK) {
            return failed(t, values, o.error());
        }
        RunResult r = o.result();
        List<Figure> figures = plan.study().figures();
        double[] f = new double[figures.size()];
        for (int i = 0; i < f.length; i++) {
            f[i] = figures.get(i).of(r);
        }
        return new ResultRow(point.index(), t.replication(), values, true, f, limiter(r), limitNumbers(r), "");
    }

    private static ResultRow failed(StudyPlan.Task t, List<String> values, String error) {
        return new ResultRow(t.point().index(), t.replication(), values, false, new double[0], "", error);
    }

    /**
     * The calibrated or assumed parameters {@link #limiter}'s limit is a number of, as {@code key (kind)}: for a
     * refit the stage parameters its steady cycle's bound is a cost of, kept when the run's evidence for them is
     * not a derivation; for a fan-out the profile parameters of the slowest receiver's bottleneck.
     */
    static List<String> limitNumbers(RunResult r) {
        List<String> out = new ArrayList<>();
        if (r.refit() != null) {
            var cycles = r.refit().cycles();
            if (cycles.isEmpty()) {
                return out;
            }
            List<String> bounding = cycles.get(cycles.size() - 1).bound().parameters();
            for (var p : r.refit().restsOn()) {
                if (bounding.contains(p.key()) && p.evidence().kind() != CalibrationProfile.Kind.DERIVED) {
                    out.add(p.key() + " (" + p.evidence().kind().word() + ")");
                }
            }
            return out;
        }
        ReceiverSummary.Receiver slowest = slowest(r);
        if (slowest != null) {
            for (ProfileParameter p : slowest.bottleneck().parameters()) {
                p.lookup().filter(x -> x.kind() != CalibrationProfile.Kind.DERIVED)
                        .ifPresent(x -> out.add(x.key() + " in " + p.profile() + " (" + x.kind().word() + ")"));
            }
        }
        return out.stream().distinct().toList();
    }

    private static ReceiverSummary.Receiver slowest(RunResult r) {
        ReceiverSummary.Receiver slowest = null;
        for (ReceiverSummary.Receiver x : ReceiverSummary.of(r).receivers()) {
            if (slowest == null || x.pullSeconds() > slowest.pullSeconds()) {
                slowest = x;
            }
        }
        return slowest;
    }

    /**
     * What held the slowest receiver back, in words (the run report's "limited by"); for a refit, which
     * lists no receivers, what bound its steady cycle, as summary.json's limitedBy says.
     */
    static String limiter(RunResult r) {
        if (r.refit() != null) {
            var cycles = r.refit().cycles();
            return cycles.isEmpty() ? "" : cycles.get(cycles.size() - 1).boundWords();
        }
        ReceiverSummary.Receiver slowest = slowest(r);
        return slowest == null ? "" : slowest.bottleneck().words();
    }
}
