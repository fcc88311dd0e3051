package org.rdmasim.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.rdmasim.workload.RunResult;
import org.rdmasim.workload.VariantOutcome;

/**
 * A scenario's page ({@code templates/scenario.mustache}): the answer first (with the published claims,
 * where the scenario has any), then the question, the key numbers per variant, what the answer rests on,
 * faults, and every chart under a heading that says what it shows.
 */
final class IndexHtml {
    private static final PageTemplate PAGE = PageTemplate.named("scenario");
    /** Timeline rows shown per faulted variant; summary.json holds all of them. */
    private static final int TIMELINE_ROWS = 200;

    private IndexHtml() {
    }

    /** One lane of a variant's first transfer: NICs, path, share of the bytes, achieved rate, what held it. */
    record Lane(String source, String sink, int path, String share, String gbps, String heldBy) {
    }

    /**
     * A variant's row in the table of key numbers (its number in the scenario's order links the row to its
     * lanes); the numbers are formatted, "-" where there is none.
     */
    record VariantRow(int number, String name, boolean notAsWritten, boolean whatIf, boolean failed, String status, boolean statusFailed,
            String receivers, String slowestPull, String aggregate, String meanPerReceiver, String limitedBy,
            String registration, String registrationSum, String wall, List<Lane> lanes, String description,
            boolean refit) {
        boolean anyLane() {
            return !lanes.isEmpty();
        }

        int laneCount() {
            return lanes.size();
        }

        String laneWords() {
            return lanes.size() == 1 ? "1 lane" : lanes.size() + " lanes";
        }
    }

    /** Mean and 95% interval over a variant's replications. */
    record ReplicationRow(String variant, int replications, String lastReceiver, String meanPull, String p99Pull) {
    }

    /** A published claim against the model's time and the line-rate floor of the NICs it names. */
    record ClaimRow(String variant, String source, String claimed, int nics, String floor, String modelled,
            String verdict, boolean belowFloor) {
    }

    /** A faulted variant's times with and without its faults (same seed). */
    record FaultRow(String variant, String meanPullWith, String meanPullWithout, String slowestPullWith,
            String slowestPullWithout, String makespanWith, String makespanWithout, int failedAttempts, int gaveUp,
            String errorAfter, String retryDelay) {
        boolean anyGaveUp() {
            return gaveUp > 0;
        }
    }

    /** One entry of a fault timeline; {@code fault} marks the fault itself (not a consequence). */
    record TimelineEvent(String at, String what, boolean fault) {
    }

    /** A faulted variant's timeline, the first rows of it, and how many more summary.json holds. */
    record Timeline(String variant, int events, List<TimelineEvent> shown, int more) {
        boolean anyMore() {
            return more > 0;
        }
    }

    /** A variant that failed and its error. */
    record Failure(String variant, String error) {
    }

    /** A variant's environment as merged into the base, one variable a line. */
    record Environment(String variant, String variables) {
    }

    /** A chart: its PNG (linked to the SVG) and what it shows. */
    record Chart(String caption, String file) {
    }

    /** Charts under one heading; per-variant groups are laid out side by side. */
    record ChartGroup(String title, boolean perVariant, List<Chart> charts) {
    }

    /**
     * A paragraph of the scenario's question: its lines, each drawn as a line (a list-like line, "- " or
     * "* ", stays on its own; the other lines of a paragraph are joined into one).
     */
    record Paragraph(List<String> lines) {
    }

    /**
     * The scenario's opening comment as paragraphs: a blank line ends a paragraph, a single line break is a
     * space (the comment was wrapped for a YAML file, not for the page), and a line starting with "-" or
     * "*" keeps its own line, as do the lines after it up to the next list-like line or blank line. A line
     * that opens with a short label ("Question:", "Stack modelled:", "Expected answer:") starts a paragraph:
     * the scenarios write their parts that way, without blank lines between them.
     */
    /** A label of one capitalised word and up to three more, then a colon and text: "Expected answer: ...". */
    private static final java.util.regex.Pattern LABELLED =
            java.util.regex.Pattern.compile("[A-Z][A-Za-z-]*(?: [a-z][A-Za-z-]*){0,3}: .*");

    static List<Paragraph> paragraphs(String text) {
        List<Paragraph> out = new ArrayList<>();
        List<String> lines = new ArrayList<>();
        StringBuilder line = null;
        for (String raw : text.split("\\R", -1)) {
            String t = raw.strip();
            if (t.isEmpty()) {
                if (line != null) {
                    lines.add(line.toString());
                    line = null;
                }
                if (!lines.isEmpty()) {
                    out.add(new Paragraph(List.copyOf(lines)));
                    lines.clear();
                }
                continue;
            }
            if (LABELLED.matcher(t).matches() && (line != null || !lines.isEmpty())) {
                if (line != null) {
                    lines.add(line.toString());
                    line = null;
                }
                out.add(new Paragraph(List.copyOf(lines)));
                lines.clear();
            }
            boolean item = t.startsWith("-") || t.startsWith("*");
            if (line != null && item) {
                lines.add(line.toString());
                line = null;
            }
            if (line == null) {
                line = new StringBuilder(t);
            } else {
                line.append(' ').append(t);
            }
        }
        if (line != null) {
            lines.add(line.toString());
        }
        if (!lines.isEmpty()) {
            out.add(new Paragraph(List.copyOf(lines)));
        }
        return out;
    }

    /** Everything the page shows. */
    record Page(String scenario, Provenance provenance, Verdict.Answer answer, List<ClaimRow> claims, List<Paragraph> question,
            List<VariantRow> variants, List<ReplicationRow> replications, List<FaultRow> faults,
            List<Timeline> timelines, List<Failure> failures, List<Environment> environments,
            List<ChartGroup> chartGroups) {
        boolean anyQuestion() {
            return !question.isEmpty();
        }

        boolean anyClaim() {
            return !claims.isEmpty();
        }

        boolean anyReplication() {
            return !replications.isEmpty();
        }

        boolean anyFault() {
            return !faults.isEmpty();
        }

        boolean anyEnvironment() {
            return !environments.isEmpty();
        }

        boolean anyLane() {
            return variants.stream().anyMatch(VariantRow::anyLane);
        }

        boolean anyRefit() {
            return variants.stream().anyMatch(VariantRow::refit);
        }

        /** Who waits for whom in the registration wall, for the key-numbers note: the memory package's rule. */
        String registrationRule() {
            return org.rdmasim.memory.RegistrationTotals.RULE;
        }

        /** What the wall column holds, for the key-numbers note: {@link ReportWriter#WALL_RULE}. */
        String wallRule() {
            return ReportWriter.WALL_RULE;
        }
    }

    static void write(Path file, String scenario, String description, List<VariantOutcome> outcomes, List<String> charts,
            Provenance provenance, Map<String, List<String>> environments, ReportWriter.SweepChart sweep,
            AnswerContext answer) throws IOException {
        List<Environment> env = new ArrayList<>();
        for (VariantOutcome o : outcomes) {
            List<String> vars = environments.getOrDefault(o.name(), List.of());
            if (!vars.isEmpty()) {
                env.add(new Environment(o.name(), String.join("\n", vars)));
            }
        }
        List<Failure> failures = new ArrayList<>();
        for (VariantOutcome o : outcomes) {
            if (o.status() == VariantOutcome.Status.FAILED) {
                failures.add(new Failure(o.name(), o.error()));
            }
        }
        Page page = new Page(scenario, provenance, Verdict.answer(outcomes, sweep, answer), claims(outcomes),
                paragraphs(description), variants(outcomes), replications(outcomes),
                faultRows(outcomes), timelines(outcomes), failures, env, chartGroups(charts, outcomes));
        Files.writeString(file, PAGE.render(page), StandardCharsets.UTF_8);
    }

    private static List<VariantRow> variants(List<VariantOutcome> outcomes) {
        List<VariantRow> rows = new ArrayList<>();
        for (VariantOutcome o : outcomes) {
            boolean notAsWritten = !o.audit().overrides().isEmpty() || !NicUse.shortfall(o).isEmpty();
            if (o.status() == VariantOutcome.Status.FAILED || o.result() == null) {
                rows.add(new VariantRow(rows.size() + 1, o.name(), notAsWritten, o.audit().isWhatIf(), true, "failed", true, "0", "", "", "", "", "", "", "",
                        List.of(), o.description(), false));
                continue;
            }
            ReceiverSummary s = ReceiverSummary.of(o.result());
            var refit = o.result().refit();
            if (refit != null && !refit.cycles().isEmpty()) {
                // a refit has no receiver pulls: its rate over all its cycles, what bound its steady cycle, the
                // first cycle's registration stage and its wall time (every cycle)
                var last = refit.cycles().get(refit.cycles().size() - 1);
                rows.add(new VariantRow(rows.size() + 1, o.name(), notAsWritten, o.audit().isWhatIf(), false, "ok", false, "-", "-",
                        fmt(s.aggregateGbps()), fmt(s.meanReceiverGbps()), last.boundWords(),
                        fmt(refit.cycles().get(0).stageSeconds().getOrDefault("register", 0.0)), "-",
                        fmt(refit.wallSeconds()), lanes(o), o.description(), true));
                continue;
            }
            ReceiverSummary.Receiver slowest = null;
            for (ReceiverSummary.Receiver r : s.receivers()) {
                if (slowest == null || r.pullSeconds() > slowest.pullSeconds()) {
                    slowest = r;
                }
            }
            var c = o.faultCost();
            String status = c == null || c.failedAttempts() == 0 ? "ok"
                    : "ok; " + c.failedAttempts() + " attempt(s) failed" + (c.gaveUp() > 0 ? ", " + c.gaveUp() + " gave up" : "");
            rows.add(new VariantRow(rows.size() + 1, o.name(), notAsWritten, o.audit().isWhatIf(), false, status, c != null && c.gaveUp() > 0,
                    String.valueOf(s.receivers().size()), fmt(slowest == null ? 0 : slowest.pullSeconds()), fmt(s.aggregateGbps()),
                    fmt(s.meanReceiverGbps()), slowest == null ? "" : slowest.bottleneck().words(), registration(o),
                    o.registration() == null ? "-" : fmt(o.registration().summedSeconds()), wall(o, slowest), lanes(o),
                    o.description(), false));
        }
        return rows;
    }

    private static List<ReplicationRow> replications(List<VariantOutcome> outcomes) {
        if (outcomes.stream().noneMatch(o -> o.replicationStats() != null && o.replicationStats().replications() > 1)) {
            return List.of();
        }
        List<ReplicationRow> rows = new ArrayList<>();
        for (VariantOutcome o : outcomes) {
            var st = o.replicationStats();
            if (st != null) {
                rows.add(new ReplicationRow(o.name(), st.replications(), interval(st.makespanSeconds()),
                        interval(st.meanPullSeconds()), interval(st.p99PullSeconds())));
            }
        }
        return rows;
    }

    private static List<ClaimRow> claims(List<VariantOutcome> outcomes) {
        List<ClaimRow> rows = new ArrayList<>();
        for (VariantOutcome o : outcomes) {
            var c = o.claim();
            if (c == null) {
                continue;
            }
            double modelled = o.result() == null ? Double.NaN : ReceiverSummary.of(o.result()).receivers().stream()
                    .mapToDouble(ReceiverSummary.Receiver::pullSeconds).max().orElse(0);
            String claimed = c.lowSeconds() == c.highSeconds() ? fmt(c.lowSeconds())
                    : fmt(c.lowSeconds()) + "-" + fmt(c.highSeconds());
            // a GPU's own link, when it is tighter than the claimed NICs, is the floor shown, and says so
            String floor = c.gpuLinkBinds() ? fmt(c.gpuLinkFloorSeconds()) + " (GPU link; NICs " + fmt(c.floorSeconds()) + ")"
                    : fmt(c.floorSeconds());
            rows.add(new ClaimRow(o.name(), c.source(), claimed, c.nics(), floor, fmt(modelled),
                    o.result() == null ? "variant failed" : c.verdict(modelled), c.belowFloor()));
        }
        return rows;
    }

    private static List<FaultRow> faultRows(List<VariantOutcome> outcomes) {
        List<FaultRow> rows = new ArrayList<>();
        for (VariantOutcome o : outcomes) {
            var c = o.faultCost();
            if (c != null) {
                rows.add(new FaultRow(o.name(), fmt(c.meanPullWith()), fmt(c.meanPullWithout()), fmt(c.maxPullWith()),
                        fmt(c.maxPullWithout()), fmt(c.makespanWith()), fmt(c.makespanWithout()), c.failedAttempts(),
                        c.gaveUp(), fmt(c.plan().qpRetry().errorAfterSeconds()), fmt(c.plan().retryDelaySeconds())));
            }
        }
        return rows;
    }

    private static List<Timeline> timelines(List<VariantOutcome> outcomes) {
        List<Timeline> out = new ArrayList<>();
        for (VariantOutcome o : outcomes) {
            if (o.faultCost() == null || o.result() == null) {
                continue;
            }
            List<RunResult.FaultRecord> log = o.result().faultLog();
            List<TimelineEvent> shown = new ArrayList<>();
            for (var f : log.subList(0, Math.min(log.size(), TIMELINE_ROWS))) {
                shown.add(new TimelineEvent(fmt(f.atSeconds()), f.what(), f.fault()));
            }
            out.add(new Timeline(o.name(), log.size(), shown, log.size() - shown.size()));
        }
        return out;
    }

    /**
     * The charts under headings that say what they show, in the order they were drawn; a variant's charts
     * (NIC throughput, receivers over time) gather under one heading with the variant as caption.
     */
    static List<ChartGroup> chartGroups(List<String> charts, List<VariantOutcome> outcomes) {
        Map<String, String> variantOfBase = new LinkedHashMap<>();
        ReportWriter.fileBases(outcomes).forEach((variant, base) -> variantOfBase.put(base, variant));
        Map<String, List<Chart>> perVariant = new LinkedHashMap<>();
        List<ChartGroup> groups = new ArrayList<>();
        Map<String, String> single = Map.of("message-size-sweep", "Bandwidth against message size",
                "pull-time", "Pull time per variant (slowest receiver)", "aggregate-bandwidth", "Bandwidth per variant",
                "pull-time-cdf", "Pull time per receiver (CDF)", "refit-cycle", "Refit time per cycle (first and steady)",
                "refit-stages", "Steady refit cycle by stage (seconds each stage had work; overlapping stages each count)",
                "refit-wire-rate", "Wire rate per refit cycle (bytes into GPUs over the wire / cycle time)");
        Map<String, String> grouped = new LinkedHashMap<>();
        grouped.put("nic-throughput-", "NIC throughput over time");
        grouped.put("receiver-timeline-", "Receivers over time (arrival, post, finish)");
        for (String c : charts) {
            String heading = null;
            for (Map.Entry<String, String> g : grouped.entrySet()) {
                String base = c.startsWith(g.getKey()) ? c.substring(g.getKey().length()) : null;
                if (base != null && variantOfBase.containsKey(base)) {
                    heading = g.getValue();
                    if (!perVariant.containsKey(heading)) {
                        perVariant.put(heading, new ArrayList<>());
                        groups.add(new ChartGroup(heading, true, perVariant.get(heading)));
                    }
                    perVariant.get(heading).add(new Chart(variantOfBase.get(base), c));
                    break;
                }
            }
            if (heading == null) {
                String title = single.getOrDefault(c, c);
                groups.add(new ChartGroup(title, false, List.of(new Chart(title, c))));
            }
        }
        return groups;
    }

    /** The registration wall before the first pull ({@link org.rdmasim.memory.RegistrationTotals} says whose). */
    private static String registration(VariantOutcome o) {
        if (o.result().fanout() != null && !o.result().fanout().cycles().isEmpty()) {
            return fmt(o.result().fanout().cycles().get(0).registrationSeconds());
        }
        return o.registration() == null ? "-" : fmt(o.registration().wallSeconds());
    }

    private static String wall(VariantOutcome o, ReceiverSummary.Receiver slowest) {
        if (o.result().fanout() != null && !o.result().fanout().cycles().isEmpty()) {
            return fmt(o.result().fanout().cycles().get(0).wallSeconds());
        }
        double reg = o.registration() == null ? 0 : o.registration().wallSeconds();
        return fmt(reg + (slowest == null ? 0 : slowest.pullSeconds()));
    }

    private static List<Lane> lanes(VariantOutcome o) {
        List<org.rdmasim.transport.TransferResult> shown = shownTransfers(o.result());
        if (shown.isEmpty()) {
            return List.of();
        }
        var t = shown.get(0);
        List<Lane> out = new ArrayList<>();
        for (var l : t.lanes()) {
            out.add(new Lane(l.sourceNic(), l.sinkNic(), l.path(), fmt(100.0 * l.bytes() / t.spec().bytes()),
                    fmt(l.gbps()), LaneHolds.words(l)));
        }
        return out;
    }

    /**
     * The transfers whose lanes the page and summary.json show, at most eight: a run's first transfers; a refit's
     * last to finish first, latest first (the first shown is the last cycle's last, the one that cycle waited for,
     * where its first to finish says least about it). Transfers finishing at one instant are taken by id, not by
     * the order their completions fired, which follows how the solver batched them.
     */
    static List<org.rdmasim.transport.TransferResult> shownTransfers(org.rdmasim.workload.RunResult r) {
        List<org.rdmasim.transport.TransferResult> all = r.transfers();
        int n = Math.min(8, all.size());
        if (r.refit() == null) {
            return all.subList(0, n);
        }
        // The n latest in one pass (a refit keeps hundreds of thousands of transfers; the page wants eight):
        // a heap whose head is the earliest of those kept so far.
        java.util.Comparator<org.rdmasim.transport.TransferResult> latestFirst = java.util.Comparator
                .comparingDouble(org.rdmasim.transport.TransferResult::finishSeconds).reversed()
                .thenComparing(t -> t.spec().id());
        java.util.PriorityQueue<org.rdmasim.transport.TransferResult> kept =
                new java.util.PriorityQueue<>(n + 1, latestFirst.reversed());
        for (org.rdmasim.transport.TransferResult t : all) {
            kept.add(t);
            if (kept.size() > n) {
                kept.poll();
            }
        }
        List<org.rdmasim.transport.TransferResult> out = new ArrayList<>(kept);
        out.sort(latestFirst);
        return out;
    }

    private static String interval(org.rdmasim.workload.ReplicationStats.Estimate e) {
        return fmt(e.mean()) + " [" + fmt(e.ci95Low()) + ", " + fmt(e.ci95High()) + "]";
    }

    private static String fmt(double v) {
        return Double.isNaN(v) ? "-" : org.rdmasim.hardware.Units.number(v);
    }
}
