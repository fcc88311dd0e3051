package org.rdmasim.report;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.rdmasim.transport.LaneResult;
import org.rdmasim.transport.TransferResult;
import org.rdmasim.workload.RunResult;
import org.rdmasim.workload.VariantOutcome;

/** transfers.csv (one row per transfer and one per lane), resources.csv (one row per resource). */
public final class CsvTables {
    private CsvTables() {
    }

    public static void writeTransfers(Path file, List<VariantOutcome> outcomes) throws IOException {
        // Streamed row by row: at 100k receivers the table is tens of MB, never held as one string.
        try (OutputStream w = Files.newOutputStream(file)) {
            StringBuilder out = new StringBuilder(1 << 15);
            out.append("variant,row,transfer,from,to,operation,source_nic,sink_nic,bytes,start_s,finish_s,seconds,gbps,"
                    + "bottleneck,path\n");
            StringBuilder common = new StringBuilder(128);
            NumberMemo nums = new NumberMemo();
            for (VariantOutcome o : outcomes) {
                if (o.result() == null) {
                    continue;
                }
                String variant = csv(o.name());
                for (TransferResult t : o.result().transfers()) {
                    // transfer,from,to,operation: the same on the transfer's row and each of its lanes' rows
                    common.setLength(0);
                    common.append(csv(t.spec().id())).append(',').append(csv(t.spec().source().toString())).append(',')
                            .append(csv(t.spec().sink().toString())).append(',')
                            .append(t.spec().operation().name().toLowerCase(Locale.ROOT)).append(',');
                    out.append(variant).append(",transfer,").append(common).append(",,")
                            .append(t.spec().bytes()).append(',');
                    nums.append(out, t.startSeconds()).append(',');
                    nums.append(out, t.finishSeconds()).append(',');
                    nums.append(out, t.seconds()).append(',');
                    nums.append(out, t.gbps()).append(',').append(csv(t.bottleneck().id())).append(",\n");
                    for (LaneResult l : t.lanes()) {
                        out.append(variant).append(",lane,").append(common)
                                .append(csv(l.sourceNic())).append(',').append(csv(l.sinkNic())).append(',').append(l.bytes())
                                .append(',');
                        nums.append(out, l.startSeconds()).append(',');
                        nums.append(out, l.finishSeconds()).append(',');
                        nums.append(out, l.finishSeconds() - l.startSeconds()).append(',');
                        nums.append(out, l.gbps()).append(',').append(csv(l.limiter().id())).append(',').append(l.path())
                                .append('\n');
                    }
                    if (out.length() >= 1 << 15) {
                        writeRows(w, out);
                    }
                }
            }
            writeRows(w, out);
        }
    }

    public static void writeResources(Path file, List<VariantOutcome> outcomes) throws IOException {
        try (OutputStream w = Files.newOutputStream(file)) {
            writeResources(w, outcomes);
        }
    }

    private static void writeResources(OutputStream w, List<VariantOutcome> outcomes) throws IOException {
        StringBuilder out = new StringBuilder(1 << 15);
        out.append("variant,resource,kind,capacity_gbps,bytes,peak_utilisation,mean_utilisation\n");
        NumberMemo nums = new NumberMemo();
        for (VariantOutcome o : outcomes) {
            if (o.result() == null) {
                continue;
            }
            String variant = csv(o.name());
            for (RunResult.ResourceUsage r : o.result().resources()) {
                if (r.bytesCarried() <= 0) {
                    continue;
                }
                out.append(variant).append(',').append(csv(r.name())).append(',').append(r.kind().toLowerCase(Locale.ROOT))
                        .append(',');
                nums.append(out, org.rdmasim.hardware.Units.bytesPerSecondToGbps(r.capacityBytesPerSecond())).append(',')
                        .append(Math.round(r.bytesCarried())).append(',');
                nums.append(out, r.peakUtilisation()).append(',');
                nums.append(out, r.meanUtilisation()).append('\n');
                if (out.length() >= 1 << 15) {
                    writeRows(w, out);
                }
            }
        }
        writeRows(w, out);
    }

    /**
     * Writes a batch of whole rows as UTF-8 and empties it. A batch goes out as bytes at once (a copy and
     * a scan for non-ASCII text) rather than through a Writer's char buffer and encoder: building and
     * writing 4.5 MB of resources.csv rows under C1 took 17 ms instead of 21 ms, and a report of 65,536
     * receivers writes 140 MB of tables. A batch ends with its last row, so no character is split
     * between two batches.
     */
    private static void writeRows(OutputStream w, StringBuilder rows) throws IOException {
        w.write(rows.toString().getBytes(StandardCharsets.UTF_8));
        rows.setLength(0);
    }

    /**
     * {@code String.format(Locale.ROOT, "%.9g", v)}, character for character, without a Formatter per
     * number (which cost ~60% of the report time at 16,384 receivers). JDK 17's Formatter rounds the
     * shortest decimal that reads back to {@code v} (FloatingDecimal's digits, the same as
     * Double.toString's) half-up to 9 significant digits (java.util.Formatter print(double) GENERAL,
     * jdk.internal.math.FormattedFloatingDecimal.applyPrecision), then writes it plain when the rounded
     * value is in [1e-4, 1e9) and as d.dddddddde+XX otherwise. CsvTablesNumberTest compares the two.
     */
    static String num(double v) {
        return num(new StringBuilder(24), v).toString();
    }

    /** {@link #num(double)} appended to {@code out}, without a String per number. */
    static StringBuilder num(StringBuilder out, double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            return out.append(String.format(Locale.ROOT, "%.9g", v));
        }
        if (Double.compare(v, 0.0) < 0) {
            out.append('-');
        }
        if (v == 0) {
            return out.append("0.00000000");
        }
        // Digits d1 d2 ... and exponent e with |v| = d1.d2... x 10^e, from the shortest decimal.
        String s = Double.toString(Math.abs(v));
        int mark = s.indexOf('E');
        int e = mark < 0 ? 0 : Integer.parseInt(s.substring(mark + 1));
        String mantissa = mark < 0 ? s : s.substring(0, mark);
        int point = mantissa.indexOf('.');
        char[] d = new char[SIGNIFICANT + 1];
        int n = 0;
        boolean leading = true;
        for (int i = 0; i < mantissa.length(); i++) {
            char c = mantissa.charAt(i);
            if (c == '.') {
                continue;
            }
            if (leading && c == '0') {
                continue;
            }
            if (leading) {
                // The first digit's place: point - i - 1 before the point, point - i after it.
                e += i < point ? point - i - 1 : point - i;
                leading = false;
            }
            if (n <= SIGNIFICANT) {
                d[n++] = c;
            }
        }
        if (n > SIGNIFICANT) {
            // Half-up on the first dropped digit, as FormattedFloatingDecimal.applyPrecision does.
            boolean up = d[SIGNIFICANT] >= '5';
            n = SIGNIFICANT;
            for (int i = SIGNIFICANT - 1; up && i >= 0; i--) {
                if (d[i] == '9') {
                    d[i] = '0';
                } else {
                    d[i]++;
                    up = false;
                }
            }
            if (up) {
                d[0] = '1';
                e++;
            }
        }
        for (int i = n; i < SIGNIFICANT; i++) {
            d[i] = '0';
        }
        if (e >= -4 && e < SIGNIFICANT) {
            if (e < 0) {
                out.append("0.");
                for (int i = -1; i > e; i--) {
                    out.append('0');
                }
                return out.append(d, 0, SIGNIFICANT);
            }
            out.append(d, 0, e + 1);
            if (e + 1 < SIGNIFICANT) {
                out.append('.').append(d, e + 1, SIGNIFICANT - e - 1);
            }
            return out;
        }
        out.append(d[0]).append('.').append(d, 1, SIGNIFICANT - 1).append(e < 0 ? "e-" : "e+");
        int a = Math.abs(e);
        if (a < 10) {
            out.append('0');
        }
        return out.append(a);
    }

    private static final int SIGNIFICANT = 9;

    /**
     * The text of recently written numbers, by their bits: a cluster's tables repeat a few capacities,
     * sizes and rates thousands of times, and Double.toString (under {@link #num}) is most of a row's
     * cost. Direct-mapped; a collision only formats the number again. One per table being written.
     */
    static final class NumberMemo {
        private static final int SLOTS = 1024;
        private final long[] bits = new long[SLOTS];
        private final String[] texts = new String[SLOTS];

        StringBuilder append(StringBuilder out, double v) {
            long b = Double.doubleToRawLongBits(v);
            int slot = (int) ((b * 0x9E3779B97F4A7C15L) >>> 54);
            String t = texts[slot];
            if (t == null || bits[slot] != b) {
                t = num(v);
                texts[slot] = t;
                bits[slot] = b;
            }
            return out.append(t);
        }
    }

    /** A text cell (an id, a label, a NIC name): see {@link org.rdmasim.importers.PrintableText#csvCell}. */
    static String csv(String s) {
        return org.rdmasim.importers.PrintableText.csvCell(s);
    }

    /**
     * nic-throughput.csv: each NIC's transmit rate as exact steps (variant, NIC, from this instant on,
     * Gbps), the records the per-NIC chart is drawn from. Only NICs that sent anything are listed.
     */
    public static void writeNicThroughput(Path file, List<VariantOutcome> outcomes) throws IOException {
        try (OutputStream out = Files.newOutputStream(file)) {
            StringBuilder row = new StringBuilder(1 << 15);
            row.append("variant,nic,from_s,gbps\n");
            NumberMemo nums = new NumberMemo();
            for (VariantOutcome o : outcomes) {
                if (o.result() == null) {
                    continue;
                }
                String variant = csv(o.name());
                for (RunResult.LoadSeries s : o.result().nicSeries()) {
                    String label = csv(s.label());
                    for (int i = 0; i < s.timeSeconds().length; i++) {
                        row.append(variant).append(',').append(label).append(',');
                        nums.append(row, s.timeSeconds()[i]).append(',');
                        nums.append(row, s.gbps()[i]).append('\n');
                        if (row.length() >= 1 << 15) {
                            writeRows(out, row);
                        }
                    }
                }
            }
            writeRows(out, row);
        }
    }
}
