package org.rdmasim.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.rdmasim.hardware.Units;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code rdmasim compare}: what a configuration change bought, variant against variant. */
@Command(name = "compare", mixinStandardHelpOptions = true,
        description = {"Put two runs, or two variants of one run, side by side.", "",
                "Shows the slowest pull, aggregate rate, what limited each, registration, and the first "
                        + "transfer's lanes: each lane's NIC, path, the bytes it carried with their share of the "
                        + "transfer's (from summary.json's lanes) and its rate; 'changed' when any differ. A report folder may be given in place of its summary.json.",
                "Two refit variants show the refit's figures instead (a refit has no one pull per receiver): wall "
                        + "time over all cycles, first and steady cycle, the first cycle's register stage, wire GB per "
                        + "cycle, and what bound the steady cycle. A refit and a variant that is not one are refused.",
                "",
                "  rdmasim compare A/summary.json B/summary.json",
                "      same-named variants of two runs",
                "  rdmasim compare S/summary.json --variant X --variant Y",
                "      two variants of one run",
                "  rdmasim compare A/summary.json B/summary.json --variant X=Y",
                "      variant X of A against variant Y of B",
                "",
                "Exit codes: 0 compared, 2 bad input (a file or a variant that is not there, or a refit variant "
                        + "paired with one that is not), " + Main.INTERNAL_ERROR_WORDS + "."})
public final class CompareCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(arity = "1..2", paramLabel = "SUMMARY.json", description = "summary.json written by run or demo, or "
            + "the report folder holding it")
    List<Path> files;

    @Option(names = "--variant", paramLabel = "NAME|A=B", description = "with one file: the two variants to compare "
            + "(twice); with two files: only this variant, or A=B to pair variant A of the first with B of the second")
    List<String> variants;

    @picocli.CommandLine.Mixin
    JsonOutput output = new JsonOutput();

    /** One side of the comparison; {@code file} is the summary.json it was read from. */
    private record Side(String label, JsonNode variant, Path file) {
        Side(String label, JsonNode variant) {
            this(label, variant, null);
        }

        /** A refit variant: its summary.json entry has a {@code refit} block and no receivers. */
        boolean refit() {
            return variant.path("refit").isObject();
        }

        /** True when this variant ran (a failed one has no figures of either kind to compare). */
        boolean ran() {
            return "ok".equals(variant.path("status").asText());
        }
    }

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        if (files.size() > 2) {
            // a third summary was never read: 'compare A B C' compared A with B and said nothing of C
            throw new BadInputException("compare puts two runs side by side (or two variants of one): give one or "
                    + "two summary.json files, got " + files.size() + " (" + files.get(2) + " and after would not be read)");
        }
        files = files.stream().map(CompareCommand::summaryOf).toList();
        List<Side[]> pairs = new ArrayList<>();
        // two runs of different scenarios: their variants pair by name (or as --variant A=B pairs them) only, and the
        // reader should know that before reading a "same" or a "better"
        String scenarios = null;
        if (files.size() == 1) {
            // the file first: a missing one is the error to show, not the variants it would need
            JsonNode s = read(files.get(0));
            if (variants == null || variants.size() != 2) {
                throw new BadInputException("with one summary.json give two variants: --variant X --variant Y");
            }
            pairs.add(new Side[] {new Side(variants.get(0), variant(s, variants.get(0), files.get(0)), files.get(0)),
                    new Side(variants.get(1), variant(s, variants.get(1), files.get(0)), files.get(0))});
        } else {
            JsonNode a = read(files.get(0));
            JsonNode b = read(files.get(1));
            scenarios = differentScenarios(a, b);
            // --variant A=B pairs variant A of the first run with variant B of the second
            for (String pair : variants == null ? List.<String>of() : variants) {
                int eq = pair.indexOf('=');
                if (eq > 0) {
                    String an = pair.substring(0, eq);
                    String bn = pair.substring(eq + 1);
                    pairs.add(new Side[] {new Side("A " + an, variant(a, an, files.get(0)), files.get(0)),
                            new Side("B " + bn, variant(b, bn, files.get(1)), files.get(1))});
                } else {
                    // a name alone keeps that variant of both runs: one either run lacks is said as such, not
                    // dropped in silence (it read as "no variant name is in both", naming the same variants twice)
                    variant(a, pair, files.get(0));
                    variant(b, pair, files.get(1));
                }
            }
            for (JsonNode va : a.get("variants")) {
                String name = va.get("name").asText();
                if (variants != null && !variants.isEmpty() && !variants.contains(name)) {
                    continue;
                }
                for (JsonNode vb : b.get("variants")) {
                    if (vb.get("name").asText().equals(name)) {
                        pairs.add(new Side[] {new Side("A " + name, va, files.get(0)),
                                new Side("B " + name, vb, files.get(1))});
                    }
                }
            }
            if (pairs.isEmpty()) {
                List<String> an = names(a);
                List<String> bn = names(b);
                throw new BadInputException("no variant name is in both " + files.get(0) + " (" + String.join(", ", an)
                        + ") and " + files.get(1) + " (" + String.join(", ", bn) + "); pair a variant of the first with "
                        + "one of the second with --variant A=B" + (an.isEmpty() || bn.isEmpty() ? ""
                        : ", e.g. --variant " + an.get(0) + "=" + bn.get(0)));
            }
        }
        for (Side[] p : pairs) {
            sameKind(p[0], p[1]);
        }
        if (output.json) {
            var o = JsonOutput.start("compare");
            if (scenarios != null) {
                o.put("differentScenarios", scenarios);
            }
            var list = o.putArray("pairs");
            for (Side[] p : pairs) {
                var pair = list.addObject();
                pair.put("a", p[0].label());
                pair.put("b", p[1].label());
                pair.put("aWhatIf", p[0].variant().has("whatIf"));
                pair.put("bWhatIf", p[1].variant().has("whatIf"));
                var rows = pair.putArray("rows");
                for (Row r : rows(p[0], p[1])) {
                    var row = rows.addObject();
                    row.put("what", r.what());
                    if (r.aValue() != null || r.bValue() != null) {
                        // a figure, exact; null on the side of a variant that failed (it has none)
                        row.put("a", r.aValue());
                        row.put("b", r.bValue());
                    } else {
                        row.put("a", r.a());
                        row.put("b", r.b());
                    }
                    row.put("change", r.change());
                }
            }
            JsonOutput.print(out, o);
            return Main.OK;
        }
        if (scenarios != null) {
            out.println(scenarios);
            out.println();
        }
        for (Side[] p : pairs) {
            print(out, p[0], p[1]);
        }
        return Main.OK;
    }

    /** The line saying that A and B are runs of different scenarios, or null when they are of one. */
    private static String differentScenarios(JsonNode a, JsonNode b) {
        String sa = a.path("scenario").asText("");
        String sb = b.path("scenario").asText("");
        if (sa.equals(sb)) {
            return null;
        }
        return "A is scenario '" + sa + "', B is scenario '" + sb + "': the variants paired below come from different "
                + "scenarios, so their hosts, workload and stack may differ beyond what the rows show";
    }

    /** The variants' names in a summary, in its order. */
    private static List<String> names(JsonNode summary) {
        List<String> names = new ArrayList<>();
        summary.get("variants").forEach(v -> names.add(v.path("name").asText()));
        return names;
    }

    /** The summary.json a path names: the file itself, or the one in a report folder. */
    static Path summaryOf(Path given) {
        if (!Files.isDirectory(given)) {
            return given;
        }
        Path inside = given.resolve("summary.json");
        if (Files.isRegularFile(inside)) {
            return inside;
        }
        throw new BadInputException(given + " is a folder with no summary.json in it: give a run's report folder "
                + "or its summary.json (written by run or demo, e.g. reports/NAME/summary.json)");
    }

    private static JsonNode read(Path f) {
        if (!Files.isRegularFile(f)) {
            throw new BadInputException("no such file: " + f);
        }
        JsonNode n;
        try {
            n = SummaryDigest.read(f);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            // The parser's message quotes the token it met: a file that is not JSON may be one the user
            // did not mean to show, so only the place is named.
            var at = e.getLocation();
            throw new BadInputException(f + (at == null ? "" : ":" + at.getLineNr() + ":" + at.getColumnNr())
                    + ": not valid JSON, so not a summary.json written by run or demo (its content is not shown)");
        } catch (IOException e) {
            throw new BadInputException(f + ": cannot read it (" + e.getClass().getSimpleName() + ")");
        }
        if (n == null || !n.has("variants") || !n.get("variants").isArray()) {
            throw new BadInputException(f + ": not an rdmasim summary.json (no 'variants' list)");
        }
        int i = 0;
        for (JsonNode v : n.get("variants")) {
            i++;
            if (!v.isObject() || !v.path("name").isTextual()) {
                throw new BadInputException(f + ": variant " + i + " of the 'variants' list has "
                        + (!v.isObject() ? "no fields" : !v.has("name") ? "no 'name'"
                                : "a " + v.get("name").getNodeType().name().toLowerCase(java.util.Locale.ROOT) + " 'name'")
                        + " (a summary.json written by run names each variant with text)");
            }
        }
        return n;
    }

    private static JsonNode variant(JsonNode summary, String name, Path f) {
        List<String> names = new ArrayList<>();
        for (JsonNode v : summary.get("variants")) {
            if (v.get("name").asText().equals(name)) {
                return v;
            }
            names.add(v.get("name").asText());
        }
        throw new BadInputException(f + " has no variant '" + name + "' (variants: " + String.join(", ", names) + ")");
    }

    /** One line of the comparison: what is compared, each side's value, and what changed. */
    private record Row(String what, String a, String b, String change, Double aValue, Double bValue) {
        Row(String what, String a, String b, String change) {
            this(what, a, b, change, null, null);
        }

        /** A row of figures: shown rounded, given exactly in JSON. */
        static Row figures(String what, double a, double b, String change) {
            return new Row(what, Units.number(a), Units.number(b), change, a, b);
        }
    }

    /**
     * Refuses a refit variant beside one that ran and is not a refit. A refit's figures are per cycle (its
     * makespan is the wall time of every cycle, its bound the steady cycle's) and it lists no receivers; a
     * pull's are per receiver. Side by side, the only figures both have would read as a comparison of
     * like with like when they are not, so the pair is refused rather than cut down to those.
     */
    private static void sameKind(Side a, Side b) {
        if (a.refit() == b.refit() || !a.ran() || !b.ran()) {
            return;
        }
        Side refit = a.refit() ? a : b;
        Side other = a.refit() ? b : a;
        throw new BadInputException("variant " + name(refit) + " of " + refit.file() + " is a refit and variant "
                + name(other) + " of " + other.file() + " is not: a refit's figures are per cycle (wall time, first "
                + "and steady cycle, stages) and it lists no receivers, the other's are per receiver pull, so they "
                + "do not compare; compare a refit variant with another refit variant");
    }

    private static String name(Side s) {
        return "'" + s.variant().path("name").asText() + "'";
    }

    private static List<Row> rows(Side a, Side b) {
        List<Row> rows = a.refit() || b.refit() ? refitRows(a, b) : pullRows(a, b);
        return a.ran() && b.ran() ? rows : withFailures(rows, a, b);
    }

    /**
     * The rows where a side failed: that side has no figures (summary.json holds zeros and no limit for it),
     * so each of its cells reads "-" (null in JSON) and no change is computed against it; a last row gives
     * the error each failed side stopped on.
     */
    private static List<Row> withFailures(List<Row> rows, Side a, Side b) {
        String failed = !a.ran() && !b.ran() ? "both failed" : (a.ran() ? b : a).label() + " failed";
        List<Row> out = new ArrayList<>();
        for (Row r : rows) {
            if (r.what().equals("status")) {
                out.add(r);
                continue;
            }
            out.add(new Row(r.what(), a.ran() ? r.a() : "-", b.ran() ? r.b() : "-", failed,
                    a.ran() ? r.aValue() : null, b.ran() ? r.bValue() : null));
        }
        out.add(new Row("error", a.ran() ? "-" : firstLine(text(a, "error")), b.ran() ? "-" : firstLine(text(b, "error")),
                ""));
        return out;
    }

    /** An error's first line (a stack's error may span many, as UCX and NIXL print it); the rest is in summary.json. */
    private static String firstLine(String error) {
        int nl = error.indexOf('\n');
        return nl < 0 ? error : error.substring(0, nl).strip() + " (first line; the rest in summary.json)";
    }

    private static List<Row> pullRows(Side a, Side b) {
        List<Row> rows = new ArrayList<>();
        rows.add(new Row("status", text(a, "status"), text(b, "status"),
                statusChange(a, b)));
        double pa = slowest(a.variant());
        double pb = slowest(b.variant());
        rows.add(Row.figures("slowest pull (s)", pa, pb, change(pa, pb, true)));
        double ga = a.variant().path("aggregateGbps").asDouble();
        double gb = b.variant().path("aggregateGbps").asDouble();
        rows.add(Row.figures("aggregate (Gbps)", ga, gb, change(ga, gb, false)));
        // time to first use (registration wall, then the pull) is what a run's answer ranks on where registration
        // is modelled; the wall is what a first pull waits for (RegistrationTotals.RULE), the sum the work
        rows.add(figuresIfBoth("to first use (s)", a.variant().path("firstUseSeconds"),
                b.variant().path("firstUseSeconds")));
        JsonNode wa = a.variant().path("registration").path("registrationWallSeconds");
        JsonNode wb = b.variant().path("registration").path("registrationWallSeconds");
        rows.add(figuresIfBoth("registration wall (s)", wa, wb));
        double sa = a.variant().path("registration").path("registrationSeconds").asDouble();
        double sb = b.variant().path("registration").path("registrationSeconds").asDouble();
        rows.add(Row.figures("registration sum (s)", sa, sb, change(sa, sb, true)));
        rows.add(new Row("limited by", text(a, "limitedBy"), text(b, "limitedBy"),
                text(a, "limitedBy").equals(text(b, "limitedBy")) ? "same" : "changed"));
        rows.add(new Row("lanes", lanes(a.variant()), lanes(b.variant()), lanes(a.variant()).equals(lanes(b.variant()))
                ? "same" : "changed"));
        return rows;
    }

    /**
     * Two refits' figures, from summary.json's {@code refit} block: the wall time (makespanSeconds: every
     * cycle back to back), the first cycle (which pays registration and first-time setup), the steady
     * cycle, the first cycle's register stage, the bytes on the wire a steady cycle and what bound it.
     */
    private static List<Row> refitRows(Side a, Side b) {
        JsonNode ra = a.variant().path("refit");
        JsonNode rb = b.variant().path("refit");
        List<Row> rows = new ArrayList<>();
        rows.add(new Row("status", text(a, "status"), text(b, "status"),
                statusChange(a, b)));
        rows.add(new Row("refit method", ra.path("method").asText("-"), rb.path("method").asText("-"),
                ra.path("method").asText("-").equals(rb.path("method").asText("-")) ? "same" : "changed"));
        rows.add(figures("wall, all cycles (s)", a.variant().path("makespanSeconds"), b.variant().path("makespanSeconds"),
                true));
        rows.add(figures("first cycle (s)", ra.path("firstCycleSeconds"), rb.path("firstCycleSeconds"), true));
        rows.add(figures("steady cycle (s)", ra.path("steadyCycleSeconds"), rb.path("steadyCycleSeconds"), true));
        rows.add(figures("1st cycle register (s)", firstCycle(ra).path("stageSeconds").path("register"),
                firstCycle(rb).path("stageSeconds").path("register"), true));
        double wa = steadyCycle(ra).path("wireBytes").asDouble() / 1e9;
        double wb = steadyCycle(rb).path("wireBytes").asDouble() / 1e9;
        rows.add(Row.figures("wire GB a cycle", wa, wb, change(wa, wb, true)));
        String ba = steadyCycle(ra).path("boundWords").asText("-");
        String bb = steadyCycle(rb).path("boundWords").asText("-");
        rows.add(new Row("steady cycle bound", ba, bb, ba.equals(bb) ? "same" : "changed"));
        return rows;
    }

    private static Row figures(String what, JsonNode a, JsonNode b, boolean lowerIsBetter) {
        double x = a.asDouble();
        double y = b.asDouble();
        return Row.figures(what, x, y, change(x, y, lowerIsBetter));
    }

    private static JsonNode firstCycle(JsonNode refit) {
        return refit.path("cycles").path(0);
    }

    private static JsonNode steadyCycle(JsonNode refit) {
        JsonNode cycles = refit.path("cycles");
        return cycles.path(Math.max(0, cycles.size() - 1));
    }

    private static void print(PrintWriter out, Side a, Side b) {
        // a what-if (summary.json's whatIf: hosts on a profile not their own) is marked as the page marks it
        out.printf(Locale.ROOT, "%-22s %-40s %-40s %s%n", "",
                org.rdmasim.workload.WhatIf.marked(a.label(), a.variant().has("whatIf")),
                org.rdmasim.workload.WhatIf.marked(b.label(), b.variant().has("whatIf")), "change");
        for (Row r : rows(a, b)) {
            row(out, r.what(), r.a(), r.b(), r.change());
        }
        out.println();
    }

    private static void row(PrintWriter out, String what, String a, String b, String change) {
        List<String> la = wrap(a);
        List<String> lb = wrap(b);
        for (int i = 0; i < Math.max(la.size(), lb.size()); i++) {
            out.printf(Locale.ROOT, "%-22s %-40s %-40s %s%n", i == 0 ? what : "", i < la.size() ? la.get(i) : "",
                    i < lb.size() ? lb.get(i) : "", i == 0 ? change : "");
        }
    }

    private static List<String> wrap(String s) {
        List<String> out = new ArrayList<>();
        StringBuilder line = new StringBuilder();
        for (String w : s.split(" ")) {
            if (line.length() + w.length() + 1 > 40 && line.length() > 0) {
                out.add(line.toString());
                line.setLength(0);
            }
            line.append(line.length() == 0 ? "" : " ").append(w);
        }
        out.add(line.toString());
        return out;
    }

    /** "same" or "changed" for two statuses, nothing where a summary states none. */
    private static String statusChange(Side a, Side b) {
        String sa = text(a, "status");
        String sb = text(b, "status");
        return sa.equals("-") || sb.equals("-") ? "" : sa.equals(sb) ? "same" : "changed";
    }

    private static String text(Side s, String field) {
        return s.variant().path(field).asText("-");
    }

    /**
     * Two figures, or "-" with the reason where a side lacks one: a summary.json written before the
     * registration wall and time to first use were reported, or a variant that did not run.
     */
    private static Row figuresIfBoth(String what, JsonNode a, JsonNode b) {
        if (a.isNumber() && b.isNumber()) {
            return Row.figures(what, a.asDouble(), b.asDouble(), change(a.asDouble(), b.asDouble(), true));
        }
        return new Row(what, a.isNumber() ? Units.number(a.asDouble()) : "-", b.isNumber() ? Units.number(b.asDouble())
                : "-", "not in both summaries");
    }

    private static double slowest(JsonNode v) {
        double worst = 0;
        for (JsonNode r : v.path("receivers")) {
            worst = Math.max(worst, r.path("pullSeconds").asDouble());
        }
        return worst;
    }

    /**
     * The first transfer's lanes from summary.json's {@code lanes}: each lane's NIC and path, the bytes it carried
     * with their share of the bytes all that transfer's lanes carried, and its rate, e.g.
     * {@code mlx5_0 path0 8 GB (50%) 154 Gbps}. A summary.json written before lanes had bytes shows no share.
     */
    static String lanes(JsonNode v) {
        if (!v.has("lanes")) {
            return "-";
        }
        List<JsonNode> lanes = new ArrayList<>();
        String first = null;
        for (JsonNode l : v.get("lanes")) {
            String t = l.path("transfer").asText();
            if (first == null) {
                first = t;
            }
            if (!t.equals(first)) {
                break;
            }
            lanes.add(l);
        }
        double total = lanes.stream().mapToDouble(l -> l.path("bytes").asDouble()).sum();
        StringBuilder b = new StringBuilder();
        for (JsonNode l : lanes) {
            b.append(b.length() == 0 ? "" : ", ").append(l.path("sinkNic").asText()).append(" path")
                    .append(l.path("path").asInt()).append(" ");
            if (l.path("bytes").isNumber() && total > 0) {
                double bytes = l.path("bytes").asDouble();
                b.append(Units.number(bytes / 1e9)).append(" GB (").append(Units.number(100 * bytes / total))
                        .append("%) ");
            }
            b.append(Units.number(l.path("gbps").asDouble())).append(" Gbps");
        }
        return b.toString();
    }

    private static String change(double a, double b, boolean lowerIsBetter) {
        // equal values read "same", zeros too (two runs registering nothing); a figure that goes to or from 0 (a
        // staged pull registers no GPU memory) has no ratio but did change: both left the column blank
        if (a == b) {
            return "same";
        }
        if (a < 0 || b < 0 || !Double.isFinite(a) || !Double.isFinite(b)) {
            return "";
        }
        if (a == 0 || b == 0) {
            return (b == 0 ? "to 0" : "from 0") + " (" + ((b < a) == lowerIsBetter ? "better" : "worse") + ")";
        }
        double f = b / a;
        if (Math.abs(f - 1) <= 1e-12) {
            return "same";
        }
        String dir = (f < 1) == lowerIsBetter ? "better" : "worse";
        // a ratio within rounding of 1 keeps the digits that say which way it moved ("x1 (worse)" read as no change)
        String ratio = Units.number(f);
        return "x" + (ratio.equals("1") ? String.format(Locale.ROOT, "%.6g", f) : ratio) + " (" + dir + ")";
    }
}
