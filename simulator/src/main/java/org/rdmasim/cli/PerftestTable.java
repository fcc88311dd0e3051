package org.rdmasim.cli;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.rdmasim.scenario.Scenario;
import org.rdmasim.transport.LaneResult;
import org.rdmasim.transport.TransferResult;
import org.rdmasim.workload.VariantOutcome;

/**
 * A message-size sweep printed the way `ib_write_bw -a` / `ib_read_bw -a` print theirs, so a run can be
 * laid beside a published perftest table: bytes, iterations, BW peak and BW average in MB/sec of 2^20
 * bytes (perftest's unit), and the message rate in Mpps. BW average counts from the post of the first
 * message to the completion of the last; BW peak is the fastest lane's rate once its data moves.
 */
final class PerftestTable {
    private static final double MIB = 1 << 20;

    private PerftestTable() {
    }

    static void print(PrintWriter o, Scenario.Sweep sweep, List<VariantOutcome> outcomes) {
        Map<String, VariantOutcome> byName = outcomes.stream()
                .collect(Collectors.toMap(VariantOutcome::name, Function.identity(), (a, b) -> a));
        for (String series : sweep.series()) {
            o.printf(Locale.ROOT, "%s, as perftest prints it:%n", series);
            o.printf(Locale.ROOT, " %-10s %-14s %-18s %-20s %s%n", "#bytes", "#iterations", "BW peak[MB/sec]",
                    "BW average[MB/sec]", "MsgRate[Mpps]");
            for (long size : sweep.messageSizes()) {
                VariantOutcome v = byName.get(Scenario.Sweep.variantName(series, size));
                if (v == null || v.result() == null || v.result().transfers().isEmpty()) {
                    continue;
                }
                TransferResult t = v.result().transfers().get(0);
                double elapsed = t.finishSeconds() - t.startSeconds();
                double peak = 0;
                for (LaneResult l : t.lanes()) {
                    double moving = l.finishSeconds() - l.startSeconds();
                    if (moving > 0) {
                        peak = Math.max(peak, l.bytes() / moving);
                    }
                }
                o.printf(Locale.ROOT, " %-10d %-14d %-18.2f %-20.2f %.6f%n", size, sweep.messages(), peak / MIB,
                        elapsed > 0 ? t.spec().bytes() / elapsed / MIB : 0, elapsed > 0 ? sweep.messages() / elapsed / 1e6 : 0);
            }
        }
    }
}
