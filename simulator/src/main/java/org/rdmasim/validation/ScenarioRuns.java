package org.rdmasim.validation;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import org.rdmasim.report.ReceiverSummary;
import org.rdmasim.scenario.Scenario;
import org.rdmasim.scenario.ScenarioLoader;
import org.rdmasim.run.VariantRunner;
import org.rdmasim.scenario.VariantSpec;
import org.rdmasim.workload.VariantOutcome;

/**
 * Runs scenario variants for validation rows, each once, from the repository's scenarios folder. Rows are
 * judged on several threads ({@link Validation#run}), and several rows read one variant: the first to ask runs
 * it, the others wait for that run, so each variant still runs once and every row reads the same outcome.
 */
public final class ScenarioRuns {
    private final Path scenarios;
    private final ConcurrentHashMap<String, FutureTask<Scenario>> loaded = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, FutureTask<VariantOutcome>> outcomes = new ConcurrentHashMap<>();

    public ScenarioRuns(Path scenarios) {
        this.scenarios = scenarios;
    }

    /** The outcome of {@code variant} of {@code file} (relative to the scenarios folder). */
    public VariantOutcome outcome(String file, String variant) throws IOException {
        return once(outcomes, file + "#" + variant, () -> {
            Scenario s = once(loaded, file, () -> ScenarioLoader.load(scenarios.resolve(file)));
            for (VariantSpec v : s.variants()) {
                if (v.name().equals(variant)) {
                    return v.isRefit() ? VariantRunner.runRefitOnly(v) : VariantRunner.run(v, s.seed());
                }
            }
            throw new org.rdmasim.scenario.ScenarioException(scenarios.resolve(file).toString(), 0, 0,
                    "no variant '" + variant + "', which a validation row reads");
        });
    }

    /**
     * The value {@code make} gives for {@code key}, made by the first thread to ask and read by every later one
     * (a thread asking while it is being made waits for it); what it threw is thrown to each asker alike.
     */
    static <T> T once(ConcurrentHashMap<String, FutureTask<T>> made, String key, Callable<T> make)
            throws IOException {
        FutureTask<T> mine = new FutureTask<>(make);
        FutureTask<T> task = made.putIfAbsent(key, mine);
        if (task == null) {
            task = mine;
            mine.run();
        }
        try {
            return task.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for " + key, e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof IOException io) {
                throw io;
            }
            if (cause instanceof RuntimeException r) {
                throw r;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(cause);
        }
    }

    /** The slowest receiver's achieved Gbps. */
    public double receiverGbps(String file, String variant) throws IOException {
        return slowest(file, variant).gbps();
    }

    /** Bytes moved by all transfers of the variant over its makespan, in Gbps. */
    public double aggregateGbps(String file, String variant) throws IOException {
        VariantOutcome o = outcome(file, variant);
        if (o.result() == null) {
            throw new IllegalStateException(file + " variant " + variant + " failed: " + o.error());
        }
        return ReceiverSummary.of(o.result()).aggregateGbps();
    }

    /**
     * A refit variant's answer (stages per cycle, bound; run without the what-would-halve-it reruns): what a
     * refit row compares with a published refit time. Refused for a variant that runs no refit or failed.
     */
    public org.rdmasim.workload.RefitSummary refit(String file, String variant) throws IOException {
        VariantOutcome o = outcome(file, variant);
        if (o.result() == null || o.result().refit() == null) {
            throw new IllegalArgumentException(file + " variant " + variant + " has no refit result"
                    + (o.error().isEmpty() ? "" : ": " + o.error()));
        }
        return o.result().refit();
    }

    /** A refit variant's steady cycle (the last; the first pays for registration), seconds. */
    public double refitSeconds(String file, String variant) throws IOException {
        return refit(file, variant).steadyCycleSeconds();
    }

    /** Seconds the last cycle of a refit variant spent with work in {@code stage} (pause, register, wire, ...). */
    public double refitStageSeconds(String file, String variant, String stage) throws IOException {
        var cycles = refit(file, variant).cycles();
        Double s = cycles.get(cycles.size() - 1).stageSeconds().get(stage);
        if (s == null) {
            throw new IllegalArgumentException("no refit stage '" + stage + "'");
        }
        return s;
    }

    /** The slowest receiver's pull time, seconds. */
    public double pullSeconds(String file, String variant) throws IOException {
        return slowest(file, variant).pullSeconds();
    }

    /** What limited the slowest receiver, by its id (as transfers.csv writes it). */
    public String bottleneck(String file, String variant) throws IOException {
        return slowest(file, variant).bottleneck().id();
    }

    private ReceiverSummary.Receiver slowest(String file, String variant) throws IOException {
        VariantOutcome o = outcome(file, variant);
        if (o.result() == null) {
            throw new IllegalStateException(file + " variant " + variant + " failed: " + o.error());
        }
        ReceiverSummary.Receiver worst = null;
        for (ReceiverSummary.Receiver r : ReceiverSummary.of(o.result()).receivers()) {
            if (worst == null || r.pullSeconds() > worst.pullSeconds()) {
                worst = r;
            }
        }
        return worst;
    }
}
