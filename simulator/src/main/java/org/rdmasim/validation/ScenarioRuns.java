package org.rdmasim.validation;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.rdmasim.report.ReceiverSummary;
import org.rdmasim.scenario.Scenario;
import org.rdmasim.scenario.ScenarioLoader;
import org.rdmasim.run.VariantRunner;
import org.rdmasim.scenario.VariantSpec;
import org.rdmasim.workload.VariantOutcome;

/** Runs scenario variants for validation rows, each once, from the repository's scenarios folder. */
public final class ScenarioRuns {
    private final Path scenarios;
    private final Map<String, Scenario> loaded = new HashMap<>();
    private final Map<String, VariantOutcome> outcomes = new HashMap<>();

    public ScenarioRuns(Path scenarios) {
        this.scenarios = scenarios;
    }

    /** The outcome of {@code variant} of {@code file} (relative to the scenarios folder). */
    public VariantOutcome outcome(String file, String variant) throws IOException {
        String key = file + "#" + variant;
        VariantOutcome o = outcomes.get(key);
        if (o != null) {
            return o;
        }
        Scenario s = loaded.get(file);
        if (s == null) {
            s = ScenarioLoader.load(scenarios.resolve(file));
            loaded.put(file, s);
        }
        for (VariantSpec v : s.variants()) {
            if (v.name().equals(variant)) {
                o = v.isRefit() ? VariantRunner.runRefitOnly(v) : VariantRunner.run(v, s.seed());
                outcomes.put(key, o);
                return o;
            }
        }
        throw new IllegalArgumentException(file + " has no variant " + variant);
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
