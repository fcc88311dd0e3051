package org.rdmasim.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.rdmasim.engine.RunWatch;
import org.rdmasim.scenario.Scenario;
import org.rdmasim.scenario.ScenarioLoader;
import org.rdmasim.workload.VariantOutcome;

/**
 * {@code rdmasim bench --scenario FILE}: the path a user takes ({@code run}), timed phase by phase.
 * Load is reading and checking the YAML; build is registration and the clusters of every replication;
 * simulate is the event loops; reports is writing summary.json, the CSVs, charts and index.html.
 */
final class ScenarioBench {
    private final PrintWriter out;
    private final PrintWriter err;
    private final boolean quiet;

    ScenarioBench(PrintWriter out, PrintWriter err, boolean quiet) {
        this.out = out;
        this.err = err;
        this.quiet = quiet;
    }

    int run(Path file, Path reports, int threads) throws IOException {
        double jvmStart = ManagementFactory.getRuntimeMXBean().getUptime() / 1e3;
        List<MemoryPoolMXBean> pools = ManagementFactory.getMemoryPoolMXBeans();
        pools.forEach(MemoryPoolMXBean::resetPeakUsage);
        long t0 = System.nanoTime();
        Scenario scenario = ScenarioLoader.load(file);
        long tLoad = System.nanoTime();
        Path dir = reports != null ? reports : Files.createTempDirectory("rdmasim-bench-");
        RunWatch watch = new RunWatch();
        List<VariantOutcome> outcomes = RunCommand.runVariants(scenario, threads, quiet, err, watch);
        long tVariants = System.nanoTime();
        RunCommand.writeReport(dir, scenario, outcomes);
        long tReports = System.nanoTime();
        long peak = 0;
        for (MemoryPoolMXBean pool : pools) {
            if (pool.getType() == MemoryType.HEAP) {
                peak += pool.getPeakUsage().getUsed();
            }
        }
        double load = (tLoad - t0) / 1e9;
        double variants = (tVariants - tLoad) / 1e9;
        // Replications may overlap on several threads: their summed loop time is capped at the phase's wall.
        double simulate = Math.min(variants, watch.simulatingSeconds());
        double build = variants - simulate;
        double reportsSeconds = (tReports - tVariants) / 1e9;
        double total = (tReports - t0) / 1e9;
        long receivers = watch.expectedUnits();
        out.printf(Locale.ROOT, "%s: %d variant(s), %,d receivers or transfers, %,d events, simulated %.3f s, reports in %s%n",
                scenario.name(), outcomes.size(), receivers, watch.events(), watch.simulatedSeconds(), dir);
        out.printf(Locale.ROOT, "  %-30s %10s %8s%n", "phase", "wall s", "share");
        row("JVM start to command", jvmStart, total + jvmStart);
        row("load (YAML, checks)", load, total + jvmStart);
        row("build (registration, clusters)", build, total + jvmStart);
        row("simulate (event loops)", simulate, total + jvmStart);
        row("reports (json, csv, charts)", reportsSeconds, total + jvmStart);
        row("total", total + jvmStart, total + jvmStart);
        out.printf(Locale.ROOT, "  peak heap in use %.0f MB (all heap pools, garbage included; max heap %.0f MB)%n",
                peak / 1e6, Runtime.getRuntime().maxMemory() / 1e6);
        out.printf(Locale.ROOT, "  %.1f us of simulate per receiver or transfer; %.0f events/s%n",
                simulate * 1e6 / Math.max(1, receivers), watch.events() / Math.max(simulate, 1e-9));
        out.printf(Locale.ROOT, "  %-30s %12s%n", "events by kind", "count");
        for (Map.Entry<String, Long> e : watch.eventsByKind().entrySet()) {
            out.printf(Locale.ROOT, "  %-30s %,12d%n", e.getKey(), e.getValue());
        }
        out.flush();
        boolean failed = outcomes.stream().anyMatch(v -> v.status() == VariantOutcome.Status.FAILED);
        return failed ? Main.VARIANT_FAILED : Main.OK;
    }

    private void row(String phase, double seconds, double total) {
        out.printf(Locale.ROOT, "  %-30s %10.3f %7.1f%%%n", phase, seconds, 100 * seconds / total);
    }
}
