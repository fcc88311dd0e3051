package org.rdmasim.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;
import org.rdmasim.hardware.CalibrationProfile;
import org.rdmasim.run.WithoutParameter;
import org.rdmasim.hardware.Units;
import java.util.Set;
import java.util.concurrent.Callable;
import org.rdmasim.hardware.Hosts;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.TopologyNode;
import org.rdmasim.report.ReceiverSummary;
import org.rdmasim.scenario.Scenario;
import org.rdmasim.run.VariantRunner;
import org.rdmasim.scenario.VariantSpec;
import org.rdmasim.transport.RmaEmulation;
import org.rdmasim.transport.LaneSplit;
import org.rdmasim.transport.Operation;
import org.rdmasim.transport.TransferSpec;
import org.rdmasim.workload.TransferItem;
import org.rdmasim.workload.VariantOutcome;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.rdmasim.transport.backend.PathExplanation;
import org.rdmasim.transport.citation.CitedNote;
import org.rdmasim.transport.ucx.LaneDecision;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code rdmasim explain SCENARIO [--variant NAME]}: the lanes UCX would pick, and why. */
@Command(name = "explain", mixinStandardHelpOptions = true,
        description = {"Show the lanes UCX would pick for a scenario's transfers, and why.", "",
                "For each transfer of a scenario: the effective UCX/NIXL/ModelExpress configuration with the "
                        + "layer that set each value, every candidate HCA with UCX's bandwidth estimate, distance "
                        + "and path ratio, every lane considered with its verdict, the lanes picked and their "
                        + "weights (in the shape of UCX_PROTO_INFO=y), the PCIe order each sink NIC writes in, "
                        + "NCCL's GPUDirect decision per NIC beside them, the line-rate floor next to the modelled "
                        + "pull time, the UCX install the answer assumes with the answer under the other, and the "
                        + "calibrated and assumed profile parameters it rests on, each with the answer rerun "
                        + "without it. Each decision of the stack's code ends with its source (repository, tag, "
                        + "file and line, symbol).",
                "",
                "--json prints all of it as one object (see README, Outputs), every source as an object with "
                        + "the same fields (repo, tag, file, line, lastLine, symbol, text).",
                "",
                "The reruns take time: one per variant and parameter; a status line on stderr says which runs "
                        + "(-q hides it).",
                "",
                "Exit codes: 0 explained, 2 bad input, " + Main.INTERNAL_ERROR_WORDS + "."})
public final class ExplainCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "SCENARIO.yaml")
    java.nio.file.Path scenarioFile;

    @Option(names = "--variant", paramLabel = "NAME", description = "only this variant (default: all)")
    String variant;

    @Option(names = "--transfers", defaultValue = "1", paramLabel = "N",
            description = "distinct transfers to explain per variant (default ${DEFAULT-VALUE})")
    int maxTransfers;

    @Option(names = {"-q", "--quiet"}, description = "no status line on stderr (the explanation is still printed)")
    boolean quiet;

    @Mixin
    ScenarioFiles scenarioFiles = new ScenarioFiles();

    @Mixin
    JsonOutput output = new JsonOutput();

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        if (maxTransfers < 1) {
            throw new BadInputException("--transfers: explain at least 1 transfer per variant, got " + maxTransfers);
        }
        Scenario scenario = scenarioFiles.load(scenarioFile);
        List<VariantSpec> chosen = new ArrayList<>();
        for (VariantSpec v : scenario.variants()) {
            if (variant == null || v.name().equals(variant)) {
                chosen.add(v);
            }
        }
        if (chosen.isEmpty()) {
            throw new BadInputException(ScenarioFiles.noSuchVariant(variant, scenarioFile,
                    scenario.variants().stream().map(VariantSpec::name).toList()));
        }
        // the variant's own run and one rerun per parameter it rests on can take a while: a status line on stderr
        // (quiet for the first second); the text is held until the line is gone, so the two never mix
        java.io.StringWriter text = new java.io.StringWriter();
        int code;
        try (Progress p = quiet ? Progress.silent() : new Progress(spec.commandLine().getErr())) {
            progress = p;
            code = explainAll(new PrintWriter(text), scenario, chosen);
        } finally {
            progress = Progress.silent();
        }
        out.print(text);
        out.flush();
        return code;
    }

    /** What {@link #call} shows while it runs. */
    private Progress progress = Progress.silent();

    private Integer explainAll(PrintWriter out, Scenario scenario, List<VariantSpec> chosen) {
        if (output.json) {
            // the same walk as the text, into one object; the text goes nowhere
            ObjectNode root = JsonOutput.start("explain");
            root.put("scenario", scenario.name());
            ArrayNode variants = root.putArray("variants");
            PrintWriter discard = new PrintWriter(java.io.Writer.nullWriter());
            for (VariantSpec v : chosen) {
                explain(discard, scenario, v, variants.addObject());
            }
            JsonOutput.print(out, root);
            return Main.OK;
        }
        for (VariantSpec v : chosen) {
            explain(out, scenario, v, null);
        }
        out.flush();
        return Main.OK;
    }

    /** Prints the variant's explanation to {@code out} and, when {@code json} is given, fills it with the same. */
    private void explain(PrintWriter out, Scenario scenario, VariantSpec v, ObjectNode json) {
        ArrayNode transfersJson = null;
        if (json != null) {
            json.put("name", v.name());
            json.put("description", v.description());
            ArrayNode w = json.putArray("warnings");
            v.warnings().forEach(w::add);
            transfersJson = json.putArray("transfers");
        }
        out.println("=".repeat(100));
        out.println("variant " + v.name() + (v.description().isEmpty() ? "" : ": " + v.description()));
        if (!v.isRefit()) {
            // what the loader warned of (an importer's filled-in defaults, an env value kept as written, an assumed
            // CPU generation), as --json's warnings and run's stderr say it; a refit's follow its plan
            v.warnings().forEach(w -> out.println("  warning: " + org.rdmasim.importers.PrintableText.escapedKeepingLines(w)));
        }
        Hosts cluster = Hosts.of(Host.all(v.hosts()));
        progress.update(scenario.name() + ": variant '" + v.name() + "'");
        // the run and the lanes shown below read one registration of the variant
        VariantRunner.Run run = VariantRunner.runHeld(v, scenario.seed());
        VariantOutcome outcome = run.outcome();
        // each calibrated or assumed parameter the answer rests on, taken away: one rerun per parameter, shared by
        // the transfers shown
        Map<String, Optional<VariantOutcome>> withouts = new HashMap<>();
        BiFunction<String, String, Optional<VariantOutcome>> without = (profile, key) -> withouts.computeIfAbsent(
                profile + "." + key, k -> WithoutParameter.of(v, profile, key).map(w -> {
                    progress.update(scenario.name() + ": variant '" + v.name() + "' without " + k);
                    return w.run(scenario.seed());
                }));
        // Lanes as the run chose them: only HCAs holding the buffer's registration (its rkey) carry a lane.
        VariantRunner.Held held = run.registrations();
        Set<String> seen = new HashSet<>();
        int shown = 0;
        List<TransferItem> items = v.transfers();
        TransferSpec first = null;
        if (v.isRefit()) {
            items = refit(out, v, outcome, json);
        }
        if (v.isFanout()) {
            var plan = v.fanoutPlan();
            items = plan.firstPull();
            out.printf(Locale.ROOT, "%nfan-out of %d receivers from %d source(s): the first receiver's %s shown (every "
                    + "receiver of the same host shape chooses the same lanes)%n", plan.receivers().size(),
                    plan.sources().size(), plan.operation() == Operation.READ ? "pull from the first source is"
                            : "push from the first source is");
            if (json != null) {
                ObjectNode f = json.putObject("fanout");
                f.put("receivers", plan.receivers().size());
                f.put("sources", plan.sources().size());
                f.put("operation", plan.operation() == Operation.READ ? "read" : "write");
            }
        }
        for (TransferItem t : items) {
            if (shown >= maxTransfers || !seen.add(t.from() + ">" + t.to())) {
                continue;
            }
            shown++;
            // the data path the run takes: without GPUDirect the protocol changes, and explain says which
            TransferSpec ts = org.rdmasim.run.FirstLaneDecision.spec(v, cluster, t);
            out.printf(Locale.ROOT, "%ntransfer %s: %s from %s into %s, %s%n", t.id(),
                    t.operation() == Operation.READ ? "RDMA READ (pull)" : "RDMA WRITE (push)", t.from(), t.to(), bytes(t.bytes()));
            List<LaneSplit.Candidate> lanes;
            var backend = v.transport().backend();
            LaneDecision decision = null;
            PathExplanation path;
            List<CitedNote> backendNotes = List.of();
            if (!v.transport().lanes().isEmpty()) {
                out.println("lanes are given explicitly by the scenario: UCX's own choice is bypassed");
                lanes = v.transport().lanes();
                path = backend.explainGivenLanes(v.transport().stack(), cluster, ts, lanes, held.ordering());
                path.lines().forEach(out::println);
            } else {
                var explained = backend.explain(v.transport().stack(), cluster, ts, held.lanes(), held.ordering());
                // a configuration warning the variant's heading already printed is not said again under it
                Set<String> said = v.isRefit() ? Set.of() : v.warnings().stream()
                        .map(w -> "  warning: " + org.rdmasim.importers.PrintableText.escapedKeepingLines(w))
                        .collect(java.util.stream.Collectors.toSet());
                explained.lines().stream().filter(l -> !said.contains(l)).forEach(out::println);
                lanes = explained.lanes();
                decision = explained.decision().orElse(null);
                path = explained.path();
                backendNotes = explained.backendNotes();
            }
            ObjectNode transferJson = null;
            if (transfersJson != null) {
                transferJson = transfersJson.addObject();
                ExplainJson.transfer(transferJson, t, ts, !v.transport().lanes().isEmpty(),
                        RmaEmulation.lanes(ts, lanes), decision, path, backendNotes, cluster, held);
            }
            floor(out, cluster, ts, RmaEmulation.lanes(ts, lanes), outcome, without, transferJson);
            if (first == null) {
                first = ts;
            }
        }
        install(out, scenario, v, cluster, first, outcome, json);
        faults(out, v, outcome, json);
    }

    /**
     * A refit's plan (model, layouts, slice map routes and descriptors, method, registration, preparation),
     * its stages cycle by cycle, what bound each cycle and what each change tried would give; then the first
     * RDMA transfers of its first cycle, whose lanes are explained as any transfer's.
     */
    private static List<TransferItem> refit(PrintWriter out, VariantSpec v, VariantOutcome outcome, ObjectNode json) {
        if (outcome.result() == null || outcome.result().refit() == null) {
            out.printf(Locale.ROOT, "%nrefit failed: %s%n", outcome.error());
            if (json != null) {
                json.put("refitError", String.valueOf(outcome.error()));
            }
            return List.of();
        }
        var s = outcome.result().refit();
        if (json != null) {
            // the same fields as summary.json's refit section
            org.rdmasim.report.SummaryJson.refit(json.putObject("refit"), s);
        }
        out.printf(Locale.ROOT, "%nrefit plan:%n");
        s.plan().forEach(l -> out.println("  " + l));
        // what the loader warned of (GPUs the layouts leave idle, RefitSetup.idle), under the plan it concerns
        v.warnings().forEach(w -> out.println("  warning: " + org.rdmasim.importers.PrintableText.escapedKeepingLines(w)));
        out.printf(Locale.ROOT, "%nstages (seconds each stage had work; overlapping stages each count):%n");
        var stageNames = List.copyOf(s.cycles().get(0).stageSeconds().keySet());
        // a column as wide as its stage's name, nine characters at least
        List<Integer> widths = stageNames.stream().map(n -> Math.max(9, n.length())).toList();
        StringBuilder head = new StringBuilder(String.format(Locale.ROOT, "  %-6s %10s", "cycle", "total"));
        for (int i = 0; i < stageNames.size(); i++) {
            head.append(String.format(Locale.ROOT, " %" + widths.get(i) + "s", stageNames.get(i)));
        }
        out.println(head.append("  bound by"));
        for (var c : s.cycles()) {
            StringBuilder row = new StringBuilder(String.format(Locale.ROOT, "  %-6d %10.4f", c.index(), c.seconds()));
            List<Double> values = List.copyOf(c.stageSeconds().values());
            for (int i = 0; i < values.size(); i++) {
                row.append(String.format(Locale.ROOT, " %" + widths.get(i) + ".4f", values.get(i)));
            }
            out.println(row.append("  ").append(c.boundWords()));
        }
        var last = s.cycles().get(s.cycles().size() - 1);
        out.printf(Locale.ROOT, "wire: %,d bytes, %.2fx the %,d bytes the layouts require; every inference rank got "
                + "what its layout needs: %s%n", last.wireBytes(), (double) last.wireBytes() / s.minimumBytes(),
                s.minimumBytes(), s.conserved() ? "yes" : "NO");
        if (!s.changes().isEmpty()) {
            out.printf(Locale.ROOT, "%nwhat would halve it (the variant rerun with one change each; steady cycle, "
                    + "and its speed against this variant's %.4f s):%n", s.steadyCycleSeconds());
            for (var c : s.changes()) {
                boolean na = Double.isNaN(c.steadyCycleSeconds());
                out.printf(Locale.ROOT, "  %-10s %-8s %s%n", na ? "n/a" : String.format(Locale.ROOT, "%.4f s",
                        c.steadyCycleSeconds()), na ? "" : String.format(Locale.ROOT, "%.2fx", s.steadyCycleSeconds()
                        / c.steadyCycleSeconds()), c.change() + (c.note().isEmpty() ? "" : " (" + c.note() + ")"));
            }
        }
        out.printf(Locale.ROOT, "%nrests on:%n");
        for (var p : s.restsOn()) {
            out.println("  " + p.line());
            if (p.key().equals(org.rdmasim.refit.method.RefitRun.PER_DESCRIPTOR)) {
                // the posting rate bounds the steady cycle: the answer without the assumed per-descriptor cost
                var p0 = v.protocol();
                var none = new org.rdmasim.transport.ProtocolParameters(p0.nicLatencySeconds(), p0.pcieHopSeconds(), 0.0,
                        p0.perFragmentSeconds(), p0.maxOutstandingReads(), p0.stagingCopySeconds(), p0.sendQueueDepth(),
                        p0.nicMessageRate());
                answer(out, "    without it (no per-descriptor posting cost): ", null,
                        VariantRunner.runRefitOnly(v.withProtocol(none)), outcome, "with it", null);
            }
        }
        List<TransferItem> items = new ArrayList<>();
        for (var t : outcome.result().transfers()) {
            var spec = t.spec();
            items.add(new TransferItem(spec.id(), spec.source(), spec.sink(), spec.bytes(), 0, spec.operation(),
                    spec.descriptors()));
        }
        if (!items.isEmpty()) {
            out.printf(Locale.ROOT, "%nthe refit's first RDMA transfers, with the lanes the backend chose:%n");
        }
        return items;
    }

    /**
     * The variant's faults, how the stack reacts to them (with the parameters it reads), and their cost; the same as
     * the JSON's {@code faults} when {@code json} is given.
     */
    private static void faults(PrintWriter out, VariantSpec v, VariantOutcome outcome, ObjectNode json) {
        var plan = v.faults();
        if (plan.isEmpty()) {
            return;
        }
        var qp = plan.qpRetry();
        if (json != null) {
            ObjectNode f = json.putObject("faults");
            ArrayNode scheduled = f.putArray("scheduled");
            for (var fault : plan.faults()) {
                ObjectNode x = scheduled.addObject();
                x.put("atSeconds", fault.atSeconds());
                x.put("what", fault.describe());
            }
            ObjectNode r = f.putObject("qpRetry");
            r.put("rcTimeoutSeconds", qp.timeoutSeconds());
            r.put("exponent", qp.exponent());
            r.put("tickSeconds", qp.tickSeconds());
            r.put("retryCount", qp.retryCount());
            r.put("errorAfterSeconds", qp.errorAfterSeconds());
            if (v.isFanout()) {
                f.put("maxSourceAttempts", org.rdmasim.workload.FaultPlan.MAX_SOURCE_ATTEMPTS);
                f.put("transferTimeoutSeconds", plan.transferTimeoutSeconds());
            } else {
                f.put("repost", plan.repost());
            }
            f.put("retryDelaySeconds", plan.retryDelaySeconds());
            var c = outcome.faultCost();
            if (c != null) {
                ObjectNode cost = f.putObject("cost");
                cost.put("makespanSeconds", c.makespanWith());
                cost.put("makespanWithoutSeconds", c.makespanWithout());
                cost.put("failedAttempts", c.failedAttempts());
                cost.put("gaveUp", c.gaveUp());
            }
        }
        out.printf(Locale.ROOT, "%nfaults scheduled:%n");
        for (var f : plan.faults()) {
            out.printf(Locale.ROOT, "  at %s s: %s%n", Units.number(f.atSeconds()), f.describe());
        }
        out.printf(Locale.ROOT, "reaction (the real stack's, with the values this process reads):%n");
        out.printf(Locale.ROOT, "  a lane through a port that is down stalls; UCX does not move a posted operation to "
                + "another lane%n");
        out.printf(Locale.ROOT, "  QP ACK timer: UCX_RC_TIMEOUT=%s s -> 4.096 us x 2^%d = %s s; UCX_RC_RETRY_COUNT=%d: the QP "
                + "fails %s s after the stall (UCS_ERR_ENDPOINT_TIMEOUT -> NIXL_ERR_REMOTE_DISCONNECT)%n",
                Units.number(qp.timeoutSeconds()), qp.exponent(), Units.number(qp.tickSeconds()), qp.retryCount(),
                Units.number(qp.errorAfterSeconds()));
        out.printf(Locale.ROOT, "  a port back before that: the lane resumes at its QP's next retransmission%n");
        if (v.isFanout()) {
            out.printf(Locale.ROOT, "  a receiver whose pull failed tries another source, %d in all, each within a receive "
                    + "budget of %s s (MX_TRANSFER_TIMEOUT), then falls back to storage (not modelled)%n",
                    org.rdmasim.workload.FaultPlan.MAX_SOURCE_ATTEMPTS, Units.number(plan.transferTimeoutSeconds()));
        } else {
            out.printf(Locale.ROOT, "  a failed transfer is %s%n", plan.repost()
                    ? "posted again, whole, on the same lanes (ASSUMED: the application re-posts)"
                    : "reported failed (the application's reaction is its own; set faults.repost to re-post)");
        }
        out.printf(Locale.ROOT, "  ASSUMED: %s s between an error and the next attempt (faults.retryDelay)%n",
                Units.number(plan.retryDelaySeconds()));
        var c = outcome.faultCost();
        if (c != null) {
            out.printf(Locale.ROOT, "cost: makespan %s s (%s s without the faults), %d attempt(s) failed, %d gave up%n",
                    Units.number(c.makespanWith()), Units.number(c.makespanWithout()), c.failedAttempts(), c.gaveUp());
        }
    }

    /** The floors and what they rest on, printed to {@code out} and, when {@code json} is given, added to it. */
    private static void floor(PrintWriter out, Hosts cluster, TransferSpec ts, List<LaneSplit.Candidate> lanes,
            VariantOutcome outcome, BiFunction<String, String, Optional<VariantOutcome>> without, ObjectNode json) {
        ArrayNode gpuFloors = json == null ? null : json.putArray("gpuLinkFloors");
        ArrayNode restsOn = json == null ? null : json.putArray("restsOn");
        LineRateFloor line = LineRateFloor.of(cluster, ts, lanes);
        double wire = line.wireBytesPerSecond();
        out.printf(Locale.ROOT, "line-rate floor: %s over %d NIC(s) at wire rate (%.0f Gbps) takes at least %.4f s%n",
                bytes(ts.bytes()), line.nics(), Units.bytesPerSecondToGbps(wire), line.seconds());
        if (json != null) {
            ObjectNode f = json.putObject("lineRateFloor");
            f.put("nics", line.nics());
            f.put("wireBytesPerSecond", wire);
            f.put("seconds", line.seconds());
        }
        // Every lane also leaves its GPU through one link: that cut can be narrower than the NICs.
        for (var end : List.of(ts.source(), ts.sink())) {
            TopologyNode d = cluster.host(end.host()).find(end.device()).orElse(null);
            if (d != null && d.uplink() != null && d.uplink().bytesPerSecond() < wire) {
                String link = d.uplink().type() == org.rdmasim.hardware.LinkSpec.LinkType.PCIE
                        ? String.format(Locale.ROOT, "%s (%.0f Gbps)", d.uplink().describe(),
                                Units.bytesPerSecondToGbps(d.uplink().bytesPerSecond()))
                        : d.uplink().describe(); // a C2C link names its rate itself
                out.printf(Locale.ROOT, "GPU link floor:  %s through %s's %s takes at least %.4f s%n",
                        bytes(ts.bytes()), end, link, ts.bytes() / d.uplink().bytesPerSecond());
                if (gpuFloors != null) {
                    ObjectNode g = gpuFloors.addObject();
                    g.put("endpoint", end.toString());
                    g.put("link", d.uplink().describe());
                    g.put("bytesPerSecond", d.uplink().bytesPerSecond());
                    g.put("seconds", ts.bytes() / d.uplink().bytesPerSecond());
                }
            }
        }
        Set<String> profiles = new HashSet<>();
        for (var end : List.of(ts.source(), ts.sink())) {
            var profile = cluster.host(end.host()).profile();
            if (!profiles.add(profile.name())) {
                continue;
            }
            for (var p : profile.assumptions()) {
                out.printf(Locale.ROOT, "rests on (profile %s): %s%n", profile.name(), p.describe());
                if (!p.assumption().isEmpty()) {
                    out.printf(Locale.ROOT, "    %s%n", p.assumption());
                }
                ObjectNode pj = restsOn == null ? null : restsOn.addObject();
                if (pj != null) {
                    ExplainJson.restsOn(pj, profile.name(), p);
                }
                withoutIt(out, ts, p, p.absence().flatMap(w -> without.apply(profile.name(), p.key())).orElse(null),
                        outcome, pj == null ? null : pj.putObject("without"));
            }
        }
        // the transfer's own answer: the receiver's pull as the JSON's "modelled" object, a failure beside it
        modelled(out, "modelled:        ", ts, outcome, json == null ? null : () -> json.putObject("modelled"), json);
    }

    /** Said of a parameter whose profile gives no "without" (see CalibrationProfile.Parameter#without). */
    static final String NO_WITHOUT = "nothing stands in for its absence (no public figure replaces the assumed one)";

    /**
     * The answer without parameter {@code p}: {@code rerun} is the variant rerun without it (null when the profile
     * gives it no "without"), printed beside the "rests on" line and, when {@code json} is given, added to it.
     */
    private static void withoutIt(PrintWriter out, TransferSpec ts, CalibrationProfile.Parameter p, VariantOutcome rerun,
            VariantOutcome own, ObjectNode json) {
        if (p.without() == null || rerun == null) {
            // a profile read from a host always has a host bound to it; said anyway rather than left silent
            String why = p.without() == null ? NO_WITHOUT : "no host of the variant is bound to the profile";
            out.printf(Locale.ROOT, "    without it: no rerun, %s%n", why);
            if (json != null) {
                json.put("rerun", false);
                json.put("why", why);
            }
            return;
        }
        if (json != null) {
            json.put("rerun", true);
            json.put("means", p.without().means());
            if (p.without().takenOut()) {
                json.putNull("value");
            } else {
                json.put("value", p.without().value());
            }
        }
        answer(out, "    without it (" + p.without().means() + "): ", ts, rerun, own, "with it", json);
    }

    /**
     * The answer of {@code rerun} (the variant rerun with one thing changed), after {@code label}: a refit's steady
     * cycle, with {@code own}'s beside it as "(... s {@code ownWords})", else the modelled pull of {@code ts}'s
     * receiver; the same as fields of {@code json} when given.
     */
    private static void answer(PrintWriter out, String label, TransferSpec ts, VariantOutcome rerun, VariantOutcome own,
            String ownWords, ObjectNode json) {
        if (rerun.result() != null && rerun.result().refit() != null && !rerun.result().refit().cycles().isEmpty()) {
            // a refit's answer is its steady cycle, not one transfer's pull
            var refit = rerun.result().refit();
            var last = refit.cycles().get(refit.cycles().size() - 1);
            boolean ownCycle = own.result() != null && own.result().refit() != null;
            out.printf(Locale.ROOT, "%ssteady cycle %.4f s%s, bound by %s%n", label, refit.steadyCycleSeconds(),
                    ownCycle ? String.format(Locale.ROOT, " (%.4f s %s)", own.result().refit().steadyCycleSeconds(),
                            ownWords) : "", last.boundWords());
            if (json != null) {
                json.put("steadyCycleSeconds", refit.steadyCycleSeconds());
                json.put("boundBy", last.boundWords());
            }
            return;
        }
        modelled(out, label, ts, rerun, json);
    }

    /** The modelled pull of {@code ts}'s receiver in {@code outcome}, after {@code label}, and the same as fields of {@code json} when given (pullSeconds, gbps, limitedBy; or variantError). */
    private static void modelled(PrintWriter out, String label, TransferSpec ts, VariantOutcome outcome, ObjectNode json) {
        modelled(out, label, ts, outcome, json == null ? null : () -> json, json);
    }

    /** As above, the pull's fields into the object {@code pullJson} gives, a failure into {@code errorJson}. */
    private static void modelled(PrintWriter out, String label, TransferSpec ts, VariantOutcome outcome,
            java.util.function.Supplier<ObjectNode> pullJson, ObjectNode errorJson) {
        if (outcome.result() != null) {
            boolean fanout = outcome.result().fanout() != null;
            for (ReceiverSummary.Receiver r : ReceiverSummary.of(outcome.result()).receivers()) {
                // a fan-out's receivers are hosts (host@cycleN over several cycles): the sink's host, its first pull
                if (fanout ? r.id().equals(ts.sink().host()) || r.id().startsWith(ts.sink().host() + "@cycle")
                        : r.id().equals(ts.sink().toString())) {
                    // a GPU link that bounds the pull below its own floor's rate: say for how long it held the
                    // lanes (the rest of the pull the lanes ran under other limits), as the report's Answer does
                    out.printf(Locale.ROOT, "%s%.4f s (%.1f Gbps), limited by %s%s%n", label, r.pullSeconds(), r.gbps(),
                            r.bottleneck().id(), ReceiverSummary.gpuLinkHold(outcome.result(), r).map(c -> " " + c)
                                    .orElse(""));
                    if (pullJson != null) {
                        ObjectNode m = pullJson.get();
                        m.put("pullSeconds", r.pullSeconds());
                        m.put("gbps", r.gbps());
                        m.put("limitedBy", r.bottleneck().id());
                    }
                    return; // a fan-out's later cycles pull again: the first is the one shown
                }
            }
        } else {
            out.println(label + "variant failed: " + outcome.error().lines().findFirst().orElse(""));
            if (errorJson != null) {
                errorJson.put("variantError", outcome.error().lines().findFirst().orElse(""));
            }
        }
    }

    /**
     * The UCX install the answer rests on. When the scenario does not name it and the install changes what
     * UCX reads on one of its hosts (a ucx.conf section for the host's CPU), the answer under the other
     * install is modelled and shown beside it: the deployment, not the model, then decides between them.
     */
    private static void install(PrintWriter out, Scenario scenario, VariantSpec v, Hosts cluster, TransferSpec ts,
            VariantOutcome outcome, ObjectNode json) {
        if (ts == null) {
            return;
        }
        var stack = v.transport().stack();
        boolean matters = v.transport().ucxInstallMatters(cluster.host(ts.source().host()), cluster.host(ts.sink().host()));
        if (!matters) {
            return;
        }
        String stated = stack.installStatedWhere();
        out.printf(Locale.ROOT, "%nUCX install: %s (%s)%n    %s%n", stack.install().yamlName(), stated,
                stack.install().description(stack.nixl()));
        ObjectNode ij = json == null ? null : json.putObject("ucxInstall");
        if (ij != null) {
            ij.put("install", stack.install().yamlName());
            ij.put("stated", stack.installStated());
            ij.put("statedWhere", stated);
            ij.put("readsUcxConf", stack.install().readsUcxConf());
            ij.put("description", stack.install().description(stack.nixl()));
            ExplainJson.citation(ij.putObject("source"), stack.install().source(stack.nixl()));
        }
        ArrayNode others = ij == null ? null : ij.putArray("otherInstalls");
        if (stack.installStated()) {
            return;
        }
        var alt = org.rdmasim.run.OtherInstall.of(v).orElseThrow();
        var other = alt.other();
        out.printf(Locale.ROOT, "under ucxInstall: %s:%n", alt.otherWords());
        ObjectNode oj = others == null ? null : others.addObject();
        if (oj != null) {
            oj.put("install", other.yamlName());
            oj.put("readsUcxConf", other.readsUcxConf());
        }
        answer(out, "    modelled:    ", ts, VariantRunner.run(alt.variant(), scenario.seed()), outcome,
                "under " + stack.install().yamlName(), oj == null ? null : oj.putObject("modelled"));
    }

    private static String bytes(long b) {
        return ByteSize.asWritten(b);
    }
}
