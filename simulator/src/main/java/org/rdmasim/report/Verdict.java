package org.rdmasim.report;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.rdmasim.hardware.Bottleneck;
import org.rdmasim.hardware.CalibrationProfile;
import org.rdmasim.memory.RegistrationTotals;
import org.rdmasim.workload.ConfigAudit;
import org.rdmasim.workload.FaultCost;
import org.rdmasim.workload.Question;
import org.rdmasim.workload.VariantOutcome;
import org.rdmasim.workload.WhatIf;

/**
 * The answer a report opens with, computed from the results and shaped by the scenario's question
 * ({@link Question}: stated, or inferred): the fastest and slowest variants by their slowest pull, or,
 * where registration is modelled, by their time to first use: the registration wall before the pull plus
 * the pull (within each platform), which variants fit under the limits, the curve over message size and its
 * knee, or what the faults cost; then what limits each, and the calibrated or assumed parameters that
 * any of those limits is.
 */
final class Verdict {
    private Verdict() {
    }

    /**
     * One variant's headline: its slowest receiver's pull and what held it, and how long until its data is
     * in use counting registration.
     *
     * @param faultSeconds        what the variant's faults added to its slowest pull (0 without faults)
     * @param registrationSeconds the registration wall a receiver waits for before its pull (its cycle's, for a
     *                            fan-out; the variant's, for a transfer list): 0 where none is modelled
     * @param firstUseSeconds     the longest, over the receivers, of the registration wall a receiver waits for
     *                            plus its own pull: the slowest receiver's time from the start of its
     *                            registration to its data (not the makespan of a fan-out whose receivers arrive
     *                            over time)
     * @param whatIf              why the variant is a what-if ({@link ConfigAudit#whatIf}), or empty when a
     *                            deployment can choose it: a what-if is stated apart, never ranked against those
     */
    record Line(String variant, double seconds, double gbps, Bottleneck limiter, double faultSeconds,
            Optional<LaneHolds.GpuLink> gpuLink, double registrationSeconds, double firstUseSeconds,
            Optional<WhatIf> whatIf) {
        Line(String variant, double seconds, double gbps, Bottleneck limiter) {
            this(variant, seconds, gbps, limiter, 0, Optional.empty(), 0, seconds, Optional.empty());
        }

        boolean deployable() {
            return whatIf.isEmpty();
        }
    }

    /** {@code lines} with what each variant's faults added to its slowest pull. */
    private static List<Line> withFaults(List<Line> lines, List<VariantOutcome> outcomes) {
        Map<String, FaultCost> costs = new HashMap<>();
        outcomes.stream().filter(o -> o.faultCost() != null).forEach(o -> costs.put(o.name(), o.faultCost()));
        List<Line> out = new ArrayList<>();
        for (Line l : lines) {
            FaultCost c = costs.get(l.variant());
            double added = c == null ? 0 : Math.max(0, c.maxPullWith() - c.maxPullWithout());
            out.add(new Line(l.variant(), l.seconds(), l.gbps(), l.limiter(), added, l.gpuLink(), l.registrationSeconds(),
                    l.firstUseSeconds(), l.whatIf()));
        }
        return out;
    }

    static List<Line> lines(List<VariantOutcome> outcomes) {
        List<Line> out = new ArrayList<>();
        for (VariantOutcome o : outcomes) {
            if (o.status() == VariantOutcome.Status.FAILED || o.result() == null) {
                continue; // a failed variant is never ranked, even when it kept what it did before failing
            }
            ReceiverSummary.Receiver slowest = null;
            List<ReceiverSummary.Receiver> receivers = ReceiverSummary.of(o.result()).receivers();
            double firstUse = 0;
            double registration = 0;
            for (int i = 0; i < receivers.size(); i++) {
                ReceiverSummary.Receiver r = receivers.get(i);
                if (slowest == null || r.pullSeconds() > slowest.pullSeconds()) {
                    slowest = r;
                }
                double waited = registrationBefore(o, i);
                if (i == 0 || waited + r.pullSeconds() > firstUse) {
                    firstUse = waited + r.pullSeconds();
                    registration = waited;
                }
            }
            if (slowest != null) {
                out.add(new Line(o.name(), slowest.pullSeconds(), slowest.gbps(), slowest.bottleneck(), 0,
                        LaneHolds.gpuLink(o.result(), slowest), registration, firstUse,
                        Optional.ofNullable(o.audit().whatIf())));
            }
        }
        return out;
    }

    /**
     * The registration wall the {@code i}-th receiver of {@link ReceiverSummary#of} waits for before its pull
     * posts: a fan-out's receivers (listed in the order of its pulls) wait for their cycle's, which the run
     * already put before their arrival; a transfer list's receivers for the variant's wall
     * ({@link RegistrationTotals} says whose), which the run does not
     * put on its timeline, so it is added here.
     */
    private static double registrationBefore(VariantOutcome o, int i) {
        var fanout = o.result().fanout();
        if (fanout != null) {
            return fanout.cycles().get(fanout.pulls().get(i).cycle()).registrationSeconds();
        }
        return o.registration() == null ? 0 : o.registration().wallSeconds();
    }

    /** Whether any of {@code lines} waits for registration: then variants are ranked by time to first use. */
    static boolean registrationModelled(List<Line> lines) {
        return lines.stream().anyMatch(l -> l.registrationSeconds() > 0);
    }

    /** The question the answer takes the shape of: the scenario's, or inferred from what it runs. */
    static Question question(List<VariantOutcome> outcomes, ReportWriter.SweepChart sweep, AnswerContext context) {
        if (context.asked() != null) {
            return context.asked();
        }
        if (sweep != null) {
            return Question.CURVE;
        }
        if (outcomes.stream().anyMatch(o -> o.result() != null && o.result().refit() != null)) {
            return Question.REFIT;
        }
        if (outcomes.stream().anyMatch(o -> o.faultCost() != null)) {
            return Question.FAULTS;
        }
        boolean someFailed = outcomes.stream().anyMatch(o -> o.status() == VariantOutcome.Status.FAILED);
        boolean someRan = outcomes.stream().anyMatch(o -> o.status() == VariantOutcome.Status.OK);
        return someFailed && someRan ? Question.FITS : Question.FASTEST;
    }

    /**
     * One line of the answer: a lead said in bold (may be empty), the rest of the sentence, and the items
     * listed under it (may be none). Plain text: the page template escapes it.
     */
    record Statement(String lead, String text, List<String> items) {
        Statement(String lead, String text) {
            this(lead, text, List.of());
        }

        static Statement plain(String text) {
            return new Statement("", text);
        }

        /** Whether the line opens with a lead in bold. */
        boolean bold() {
            return !lead.isEmpty();
        }

        /** Whether the line has a list under it (the template wraps the items in one). */
        boolean listed() {
            return !items.isEmpty();
        }
    }

    /**
     * What the answer rests on: what the scenario left unsaid and the stack filled in, the terms registration
     * times rest on, and the calibrated or assumed (not derived) parameters any limit above is, with which of
     * the two kinds that list holds ({@code kinds}), so its heading names them.
     */
    record RestsOn(List<String> unsaid, List<String> registrationTerms, List<String> calibrated,
            Set<CalibrationProfile.Kind> kinds, List<String> refitTimes, boolean onlyRefits) {
        RestsOn(List<String> unsaid, List<String> registrationTerms, List<String> calibrated) {
            this(unsaid, registrationTerms, calibrated, calibrated.isEmpty() ? Set.of() : Set.of(CalibrationProfile.Kind.CALIBRATED));
        }

        RestsOn(List<String> unsaid, List<String> registrationTerms, List<String> calibrated,
                Set<CalibrationProfile.Kind> kinds) {
            this(unsaid, registrationTerms, calibrated, kinds, List.of(), false);
        }

        /** Whether some refit says what set its time (a line each, {@link #refitTimes}). */
        boolean anyRefitTime() {
            return !refitTimes.isEmpty();
        }

        /**
         * Whether the page's "no calibrated parameter holds any transfer back" applies: some variant is no refit.
         * A refit's line says itself what set its time and what it rests on.
         */
        boolean transfersSaid() {
            return !onlyRefits;
        }

        /**
         * The line over the list: "calibrated", "assumed" or both, as its items are; a heading that said
         * "calibrated" over assumed numbers would claim a measurement behind them.
         */
        String calibratedHeading() {
            boolean fitted = kinds.contains(CalibrationProfile.Kind.CALIBRATED);
            boolean assumed = kinds.contains(CalibrationProfile.Kind.ASSUMED);
            String which = fitted && assumed ? "calibrated or assumed numbers"
                    : assumed ? "assumed numbers" : "calibrated numbers";
            return "Some limits are " + which + ", not mechanisms:";
        }

        boolean anyUnsaid() {
            return !unsaid.isEmpty();
        }

        boolean anyRegistrationTerm() {
            return !registrationTerms.isEmpty();
        }

        boolean anyCalibrated() {
            return !calibrated.isEmpty();
        }
    }

    /**
     * The answer a page opens with, what ran other than written, the warnings reading the scenario gave (a
     * value taken because none was written, GPUs a refit's layout leaves idle), and what it all rests on.
     */
    record Answer(List<Statement> statements, List<String> notAsWritten, List<String> warnings, RestsOn restsOn) {
        /** An answer with no warnings. */
        Answer(List<Statement> statements, List<String> notAsWritten, RestsOn restsOn) {
            this(statements, notAsWritten, List.of(), restsOn);
        }

        boolean anyNotAsWritten() {
            return !notAsWritten.isEmpty();
        }

        boolean anyWarning() {
            return !warnings.isEmpty();
        }
    }

    static Answer answer(List<VariantOutcome> outcomes, ReportWriter.SweepChart sweep, AnswerContext context) {
        List<Line> lines = lines(outcomes);
        Question q = question(outcomes, sweep, context);
        List<Statement> said = new ArrayList<>();
        if (q == Question.REFIT) {
            said.addAll(refit(outcomes));
        } else if (lines.isEmpty()) {
            said.add(Statement.plain("No variant ran to completion."));
        } else {
            switch (q) {
                case CURVE -> said.addAll(sweep == null ? ranking(lines, context) : curve(lines, sweep));
                case FITS -> said.addAll(fits(outcomes));
                case FAULTS -> {
                    said.addAll(faults(outcomes));
                    said.addAll(ranking(withFaults(lines, outcomes), context));
                }
                case FASTEST -> said.addAll(byPlatform(lines, context.platformOf(), context));
                default -> throw new IllegalStateException(q.toString());
            }
        }
        // the fits answer already names every variant that did not fit and why
        if (q != Question.FITS) {
            long failed = outcomes.stream().filter(o -> o.status() == VariantOutcome.Status.FAILED).count();
            if (failed > 0) {
                List<String> names = new ArrayList<>();
                for (VariantOutcome o : outcomes) {
                    if (o.status() == VariantOutcome.Status.FAILED) {
                        names.add(o.name() + " (" + o.error().lines().findFirst().orElse("") + ")");
                    }
                }
                said.add(Statement.plain(failed + " variant(s) failed: " + String.join("; ", names) + "."));
            }
        }
        return new Answer(said, overridden(outcomes), warned(outcomes), restsOn(outcomes, context.withouts()));
    }

    /** The profiles a limit's number comes from: each of a tie's. */
    private static void profilesOf(Bottleneck b, Set<String> into) {
        b.parameters().forEach(p -> into.add(p.profile()));
    }

    /**
     * The profiles whose calibrated or assumed numbers limit some flow of {@code outcomes}: those the page lists
     * under "rests on" (a limit's profile, each of a tie's).
     */
    static Set<String> limitingProfiles(List<VariantOutcome> outcomes) {
        Set<String> profiles = new LinkedHashSet<>();
        for (VariantOutcome o : outcomes) {
            if (isRefit(o)) {
                // a refit's time is its steady cycle, whose bound names the profile numbers it rests on; a lane
                // of one tensor's transfer held by a calibrated rate says nothing of the cycle (refitTime says it)
                o.result().refit().profileBound().forEach(p -> profiles.add(p.profile()));
                continue;
            }
            for (Line l : lines(List.of(o))) {
                profilesOf(l.limiter(), profiles);
            }
            if (o.result() != null) {
                for (var t : o.result().transfers()) {
                    for (var lane : t.lanes()) {
                        profilesOf(lane.limiter(), profiles);
                    }
                }
            }
        }
        return profiles;
    }

    private static RestsOn restsOn(List<VariantOutcome> outcomes, List<WithoutAnswer> withouts) {
        Set<String> others = new LinkedHashSet<>();
        Set<String> registrationTerms = new LinkedHashSet<>();
        for (VariantOutcome o : outcomes) {
            for (var a : o.audit().restsOn()) {
                if (a.what().startsWith("registration: ")) {
                    registrationTerms.add(a.what().substring("registration: ".length()) + " (" + a.kind() + "): "
                            + a.source());
                } else if (!a.what().startsWith("profile ")) {
                    others.add(a.what() + " (" + a.kind() + "): " + a.source());
                }
            }
        }
        List<String> calibrated = new ArrayList<>();
        Set<CalibrationProfile.Kind> kinds = java.util.EnumSet.noneOf(CalibrationProfile.Kind.class);
        // a refit bound by a calibrated stage cost (a per-call cost, not a link) rests on that number
        java.util.Map<String, List<String>> boundBy = new java.util.LinkedHashMap<>();
        for (VariantOutcome o : outcomes) {
            if (o.result() == null || o.result().refit() == null || o.result().refit().cycles().isEmpty()) {
                continue;
            }
            for (var p : o.result().refit().calibratedBound()) {
                boundBy.computeIfAbsent(p.line(), k -> new ArrayList<>()).add(o.name());
            }
        }
        boundBy.forEach((r, names) -> calibrated.add(r + "; it bounds " + String.join(", ", names)));
        if (!boundBy.isEmpty()) {
            kinds.add(CalibrationProfile.Kind.CALIBRATED);
        }
        // a refit lists the profile of the number its steady cycle is bound by, and says which refits it bounds
        java.util.Map<String, List<String>> refitBoundBy = new java.util.LinkedHashMap<>();
        for (VariantOutcome o : outcomes) {
            if (isRefit(o)) {
                o.result().refit().profileBound().forEach(p -> refitBoundBy.computeIfAbsent(p.profile() + "." + p.key()
                        .key(), k -> new ArrayList<>()).add(o.name()));
            }
        }
        for (String p : limitingProfiles(outcomes)) {
            for (CalibrationProfile.Parameter param : CalibrationProfile.named(p).assumptions()) {
                kinds.add(param.kind());
                List<String> bounds = refitBoundBy.getOrDefault(p + "." + param.key(), List.of());
                calibrated.add("profile " + p + ": " + param.describe()
                        + (param.assumption().isEmpty() ? "" : ". " + param.assumption())
                        + without(outcomes, withouts, p, param)
                        + (bounds.isEmpty() ? "" : "; it bounds " + String.join(", ", bounds)));
            }
        }
        List<String> refitTimes = new ArrayList<>();
        for (VariantOutcome o : outcomes) {
            if (isRefit(o)) {
                refitTimes.add(refitTime(o));
            }
        }
        // no variant with transfers of its own (a failed refit's has no result) beside some refit that ran
        boolean onlyRefits = !refitTimes.isEmpty() && outcomes.stream().noneMatch(o -> o.result() != null
                && o.result().refit() == null);
        return new RestsOn(List.copyOf(others), List.copyOf(registrationTerms), calibrated, Set.copyOf(kinds),
                List.copyOf(refitTimes), onlyRefits);
    }

    /** A refit variant that ran at least one cycle. */
    private static boolean isRefit(VariantOutcome o) {
        return o.status() != VariantOutcome.Status.FAILED && o.result() != null && o.result().refit() != null
                && !o.result().refit().cycles().isEmpty();
    }

    /**
     * What set a refit's time, from its own run: the steady cycle's bound (the limit busy longest in it) and whether
     * that is a mechanism or a calibrated or assumed number; the calibrated numbers that price other work of the
     * cycle, which lengthen it only where the bound does not cover them; the first cycle's registration and the
     * kind of its terms; and the calibrated or assumed rates that held some transfer's lanes without bounding the
     * cycle (what a page's lane list shows).
     */
    static String refitTime(VariantOutcome o) {
        org.rdmasim.workload.RefitSummary s = o.result().refit();
        var last = s.cycles().get(s.cycles().size() - 1);
        StringBuilder b = new StringBuilder(o.name()).append(": its refit time, ").append(num(s.steadyCycleSeconds()))
                .append(" s a steady cycle, is set by ").append(last.boundWords())
                .append(last.boundWords().startsWith("a tie") ? ", the limits busy longest in that cycle"
                        : ", the limit busy longest in that cycle");
        List<String> numbers = new ArrayList<>();
        for (String key : last.bound().parameters()) {
            s.restsOn().stream().filter(p -> p.key().equals(key) && p.evidence().kind() != CalibrationProfile.Kind.DERIVED)
                    .findFirst().ifPresent(p -> numbers.add(p.key() + " (" + p.evidence().kind().word() + ")"));
        }
        for (var p : s.profileBound()) {
            numbers.add(p.key().key() + " (" + p.lookup().orElseThrow().kind().word() + ", profile " + p.profile() + ")");
        }
        b.append(numbers.isEmpty() ? ": a mechanism with a derived capacity, not a calibrated or assumed number"
                : ": not a mechanism but a number fitted to a measurement or assumed, " + String.join(", ", numbers)
                        + ", listed below");
        Set<String> bounding = new LinkedHashSet<>(last.bound().parameters());
        List<String> other = s.restsOn().stream().filter(p -> p.evidence().calibrated() && !bounding.contains(p.key())
                && !p.key().startsWith("registration")).map(p -> p.key()).toList();
        if (!other.isEmpty()) {
            b.append(". Calibrated costs of other work in the cycle (").append(String.join(", ", other))
                    .append(") lengthen it only where the bound does not cover them");
        }
        double register = s.cycles().get(0).stageSeconds().getOrDefault("register", 0.0);
        if (register > 0) {
            List<String> kinds = s.restsOn().stream().filter(p -> p.key().startsWith("registration"))
                    .map(p -> p.evidence().kind().word()).distinct().toList();
            b.append(". The first cycle (").append(num(s.firstCycleSeconds())).append(" s) also registers (its register "
                    + "stage ").append(num(register)).append(" s)")
                    .append(kinds.isEmpty() ? "" : ", priced by " + String.join(" and ", kinds) + " terms");
        }
        Set<String> held = new LinkedHashSet<>();
        Set<org.rdmasim.hardware.ProfileParameter> bound = new LinkedHashSet<>(s.profileBound());
        if (o.result() != null) {
            for (var t : o.result().transfers()) {
                for (var lane : t.lanes()) {
                    for (var p : lane.limiter().parameters()) {
                        if (!bound.contains(p) && p.lookup().map(x -> x.kind() != CalibrationProfile.Kind.DERIVED)
                                .orElse(false)) {
                            held.add(p.key().key() + " (profile " + p.profile() + ")");
                        }
                    }
                }
            }
        }
        if (!held.isEmpty()) {
            b.append(". Calibrated or assumed rates hold some of its transfers' lanes without bounding the cycle: ")
                    .append(String.join(", ", held));
        }
        return b.append('.').toString();
    }

    /**
     * The answer without {@code param} of {@code profile}, variant by variant: each rerun's slowest pull beside the
     * variant's own; empty when nothing was rerun (a page written without reruns, or only refits, which
     * {@code explain} reruns).
     */
    private static String without(List<VariantOutcome> outcomes, List<WithoutAnswer> withouts, String profile,
            CalibrationProfile.Parameter param) {
        Map<String, Line> own = new HashMap<>();
        lines(outcomes).forEach(l -> own.put(l.variant(), l));
        return without(own, withouts, profile, param);
    }

    /**
     * The one wording of what a parameter's reruns found, for the page's "rests on" and the answer alike: the
     * reruns of the variants in {@code own} without {@code param} of {@code profile}, or that none can be made.
     */
    private static String without(Map<String, Line> own, List<WithoutAnswer> withouts, String profile,
            CalibrationProfile.Parameter param) {
        if (param.without() == null) {
            return ". No rerun without it: nothing stands in for its absence (no public figure replaces it)";
        }
        List<String> each = new ArrayList<>();
        for (WithoutAnswer w : withouts) {
            if (!w.profile().equals(profile) || !w.key().equals(param.key()) || !own.containsKey(w.variant())) {
                continue;
            }
            List<Line> rerun = lines(List.of(w.outcome()));
            Line with = own.get(w.variant());
            if (rerun.isEmpty()) {
                each.add(w.variant() + " failed (" + w.outcome().error().lines().findFirst().orElse("") + ")");
            } else {
                each.add(String.format(Locale.ROOT, "%s %.4f s (%.0f Gbps; %.4f s with it)", w.variant(),
                        rerun.get(0).seconds(), rerun.get(0).gbps(), with.seconds()));
            }
        }
        return each.isEmpty() ? "" : ". Rerun without it (" + param.without().means() + "), slowest pull: "
                + String.join("; ", each);
    }

    /**
     * A change of a figure smaller than this share of it reads as no change: what a rerun without a parameter
     * must move the headline by for the answer to say it rests on that parameter, and the band a refit's
     * change is "no change" within.
     */
    static final double NO_CHANGE = 0.01;

    /**
     * Where {@code headline}'s slowest pull rests on an assumed profile parameter (one no measurement and no
     * mechanism decides), a sentence per parameter saying so and what the pull is without it: the parameter the
     * limit that set the pull is (its words say ASSUMED), or one whose rerun moves the pull by more than
     * {@link #NO_CHANGE} of it (the source NIC a fan-out's receivers share binds only because the calibrated READ
     * rate is placed on the reader). Calibrated parameters are not said here: the limit's words name the one that
     * sets the pull, and "rests on" lists them all with their reruns.
     */
    private static List<Statement> assumedUnder(Line headline, List<WithoutAnswer> withouts) {
        Map<String, CalibrationProfile.Parameter> params = new LinkedHashMap<>();
        Map<String, String> profileOf = new HashMap<>();
        for (var standsOn : headline.limiter().parameters()) {
            standsOn.lookup().filter(x -> x.kind() == CalibrationProfile.Kind.ASSUMED).ifPresent(x -> {
                params.putIfAbsent(standsOn.profile() + "." + x.key(), x);
                profileOf.put(standsOn.profile() + "." + x.key(), standsOn.profile());
            });
        }
        Map<String, Double> moved = new HashMap<>();
        for (WithoutAnswer w : withouts) {
            if (!w.variant().equals(headline.variant()) || !CalibrationProfile.NAMES.contains(w.profile())) {
                continue;
            }
            var param = CalibrationProfile.named(w.profile()).parameter(w.key())
                    .filter(x -> x.kind() == CalibrationProfile.Kind.ASSUMED).orElse(null);
            if (param == null) {
                continue;
            }
            List<Line> rerun = lines(List.of(w.outcome()));
            double without = rerun.isEmpty() ? Double.NaN : rerun.get(0).seconds();
            // a rerun that failed rests the answer on the parameter as much as one that moved
            if (rerun.isEmpty() || Math.abs(without - headline.seconds()) > NO_CHANGE * headline.seconds()) {
                String id = w.profile() + "." + w.key();
                params.putIfAbsent(id, param);
                profileOf.put(id, w.profile());
                moved.put(id, without);
            }
        }
        List<Statement> said = new ArrayList<>();
        params.forEach((id, param) -> {
            String profile = profileOf.get(id);
            Double without = moved.get(id);
            String change = without == null || without.isNaN() ? ""
                    : String.format(Locale.ROOT, ", %.0f%% %s", 100 * Math.abs(without / headline.seconds() - 1),
                            without > headline.seconds() ? "longer" : "shorter");
            said.add(Statement.plain(headline.variant() + "'s " + num(headline.seconds()) + " s rests on an assumed "
                    + "parameter, one no measurement or mechanism decides: profile " + profile + ": " + param.valued()
                    + without(Map.of(headline.variant(), headline), withouts, profile, param) + change + "."));
        });
        return said;
    }

    /**
     * Where the scenario did not state {@code headline}'s UCX install and the answer under the other install
     * (the variant rerun as explain reruns it) moves its slowest pull by more than {@link #NO_CHANGE} of it, a
     * sentence saying so with the figure under the other install: the deployment, not the model, decides.
     */
    private static List<Statement> installUnder(Line headline, List<OtherInstallAnswer> others) {
        List<Statement> said = new ArrayList<>();
        for (OtherInstallAnswer o : others) {
            if (!o.variant().equals(headline.variant())) {
                continue;
            }
            List<Line> rerun = lines(List.of(o.outcome()));
            if (rerun.isEmpty()) {
                said.add(Statement.plain(headline.variant() + "'s " + num(headline.seconds()) + " s assumes UCX "
                        + "install " + o.assumed() + " (not stated by the scenario); under ucxInstall: "
                        + o.otherWords() + " the variant fails."));
                continue;
            }
            double other = rerun.get(0).seconds();
            if (Math.abs(other - headline.seconds()) > NO_CHANGE * headline.seconds()) {
                said.add(Statement.plain(String.format(Locale.ROOT, "%s's %s s assumes UCX install %s (not stated by "
                        + "the scenario); under ucxInstall: %s it takes %s s, %.0f%% %s: set transport.ucxInstall "
                        + "to the deployment's.", headline.variant(), num(headline.seconds()), o.assumed(),
                        o.otherWords(), num(other), 100 * Math.abs(other / headline.seconds() - 1),
                        other > headline.seconds() ? "longer" : "shorter")));
            }
        }
        return said;
    }

    /**
     * A refit's answer, variant by variant from the fastest steady cycle: the time of a cycle (and of the first,
     * which pays for registration), what bounded it, the bytes on the wire against the minimum the layouts
     * require, the modelled effect of each change tried (fastest first), and the stage parameters it rests on.
     */
    static List<Statement> refit(List<VariantOutcome> outcomes) {
        List<VariantOutcome> ran = new ArrayList<>();
        for (VariantOutcome o : outcomes) {
            if (o.status() == VariantOutcome.Status.OK && o.result() != null && o.result().refit() != null) {
                ran.add(o);
            }
        }
        if (ran.isEmpty()) {
            return List.of(Statement.plain("No refit variant ran to completion."));
        }
        ran.sort(java.util.Comparator.comparingDouble(o -> o.result().refit().steadyCycleSeconds()));
        List<Statement> said = new ArrayList<>();
        Set<String> rests = new LinkedHashSet<>();
        for (VariantOutcome o : ran) {
            org.rdmasim.workload.RefitSummary s = o.result().refit();
            var last = s.cycles().get(s.cycles().size() - 1);
            StringBuilder h = new StringBuilder();
            h.append(" (").append(s.method()).append("): a refit takes ").append(num(s.steadyCycleSeconds())).append(" s");
            if (s.cycles().size() > 1 || s.firstCycleSeconds() != s.steadyCycleSeconds()) {
                h.append(" (the first cycle ").append(num(s.firstCycleSeconds())).append(" s, with registration)");
            }
            h.append(", bound by ").append(last.boundWords());
            fixedStageShare(h, s, last);
            h.append("; ");
            if (last.wireBytes() == 0) {
                // a colocated refit: the engine ranks take their bytes on their own GPUs, no NIC between
                h.append("nothing on the wire: the ").append(gigabytes(s.minimumBytes()))
                        .append(" the layouts require reach the inference ranks on their own GPUs");
            } else {
                h.append(gigabytes(last.wireBytes())).append(" on the wire, ")
                        .append(String.format(java.util.Locale.ROOT, "%.2f", (double) last.wireBytes() / s.minimumBytes()))
                        .append("x the ").append(gigabytes(s.minimumBytes())).append(" the layouts require");
            }
            h.append(s.conserved() ? "" : " (some inference rank did not receive exactly what its layout needs)");
            h.append(".");
            List<String> changes = new ArrayList<>();
            if (!s.changes().isEmpty()) {
                boolean halves = s.changes().stream().anyMatch(c -> !Double.isNaN(c.steadyCycleSeconds())
                        && (halves(s.steadyCycleSeconds() / c.steadyCycleSeconds())
                                || halves(s.firstCycleSeconds() / c.firstCycleSeconds())));
                // the reruns answer the question whatever they find: say so when none of them halves it
                h.append(halves ? " What would halve it (each change tried alone, fastest first):"
                        : " No single change tried halves it; each alone, fastest first:");
                for (var c : s.changes()) {
                    if (changes.size() == 5) {
                        break;
                    }
                    StringBuilder item = new StringBuilder(c.change()).append(": ");
                    if (Double.isNaN(c.steadyCycleSeconds())) {
                        item.append("does not apply (").append(c.note()).append(")");
                    } else {
                        double x = s.steadyCycleSeconds() / c.steadyCycleSeconds();
                        double first = s.firstCycleSeconds() / c.firstCycleSeconds();
                        item.append(num(c.steadyCycleSeconds())).append(" s a cycle (first ")
                                .append(num(c.firstCycleSeconds())).append(" s): ").append(effect(x));
                        if (Math.abs(first - x) > 0.01 * x) {
                            item.append(", the first cycle ").append(effect(first));
                        }
                    }
                    changes.add(item.toString());
                }
            }
            said.add(new Statement(o.name(), h.toString(), changes));
            s.restsOn().forEach(p -> rests.add(p.line()));
        }
        if (!rests.isEmpty()) {
            said.add(new Statement("", "Stage and registration costs rest on:", List.copyOf(rests)));
        }
        return said;
    }

    /**
     * Stages priced by one stated figure, once an update, rather than by a limit's work: checkpoint-engine's update
     * end and verl's manager frame. The bound names the limit busy longest, which such a stage never is, so when
     * one takes half the cycle or more the answer says how much of the cycle it is and what kind of figure it is:
     * no NIC or bucket moves it.
     */
    private static final Map<String, String> FIXED_STAGES = Map.of(
            "update_end", "refit.checkpointEngineUpdateEndSeconds", "verl_frame", "refit.verlUpdateFrameSeconds");

    private static void fixedStageShare(StringBuilder h, org.rdmasim.workload.RefitSummary s,
            org.rdmasim.workload.RefitSummary.Cycle last) {
        for (String stage : List.of("update_end", "verl_frame")) {
            double t = last.stageSeconds().getOrDefault(stage, 0.0);
            if (!(t >= 0.5 * last.seconds())) {
                continue;
            }
            String key = FIXED_STAGES.get(stage);
            String kind = s.restsOn().stream().filter(p -> p.key().equals(key)).findFirst()
                    .map(p -> p.key() + " = " + p.value() + ", " + p.evidence().kind().word()).orElse(key);
            h.append(", while ").append(num(t)).append(" s of it (")
                    .append(String.format(java.util.Locale.ROOT, "%.0f%%", 100 * t / last.seconds()))
                    .append(") is its ").append(stage.replace('_', ' ')).append(" stage, one figure (").append(kind)
                    .append(") that no NIC or bucket moves");
        }
    }

    /**
     * Every value a layer replaced or the library ignored, and every variant that uses fewer NICs than it lists:
     * said beside the answer, never only on stderr.
     */
    static List<String> overridden(List<VariantOutcome> outcomes) {
        List<String> items = new ArrayList<>();
        for (VariantOutcome o : outcomes) {
            for (var ov : o.audit().overrides()) {
                items.add(o.name() + ": " + ov.describe());
            }
            String s = NicUse.shortfall(o);
            if (!s.isEmpty()) {
                items.add(s);
            }
        }
        return items;
    }

    /**
     * Every warning reading the scenario gave, beside the answer too (a misspelt variable changes the answer as
     * surely as a replaced value), but apart from what ran other than written: a warning can say the variant
     * runs exactly as written (GPUs its layout leaves idle).
     */
    static List<String> warned(List<VariantOutcome> outcomes) {
        List<String> items = new ArrayList<>();
        for (VariantOutcome o : outcomes) {
            for (String w : o.audit().reportedWarnings()) {
                items.add(o.name() + ": " + w);
            }
        }
        return items;
    }

    /** What the answer ranks on, said once above the ranking where registration is modelled; who waits for whom is RegistrationTotals's rule. */
    static final String FIRST_USE_RULE = "Ranked by the slowest pull; time to first use adds the registration wall "
            + "before it: " + RegistrationTotals.RULE + ". The GPU registration terms are calibrated "
            + "(ModelExpress PR #450 and #267), and sources are taken to register when receivers do (a source "
            + "registered earlier leaves the receiver's own wall).";

    /** Fastest and slowest by slowest pull, ties said as ties; time to first use beside it where registration is modelled. */
    private static List<Statement> ranking(List<Line> lines, AnswerContext context) {
        boolean firstUse = registrationModelled(lines);
        List<Statement> said = new ArrayList<>();
        if (firstUse) {
            said.add(Statement.plain(FIRST_USE_RULE));
        }
        said.addAll(ranking(lines, firstUse, context));
        return said;
    }

    /**
     * The ranking of the deployable variants among {@code all}, the headline's assumed parameters under it, then
     * each what-if apart with its figures and where it would have come. Where every variant is a what-if, they are
     * ranked among themselves, after a line that says so and why.
     */
    private static List<Statement> ranking(List<Line> all, boolean firstUse, AnswerContext context) {
        List<Line> deployable = all.stream().filter(Line::deployable).toList();
        List<Line> ranked = deployable.isEmpty() ? all : deployable;
        List<Line> apart = deployable.isEmpty() ? List.of() : all.stream().filter(l -> !l.deployable()).toList();
        List<Statement> said = new ArrayList<>();
        if (deployable.isEmpty()) {
            said.add(Statement.plain("Every variant here is a what-if, ranked among what-ifs: " + String.join("; ",
                    new LinkedHashSet<>(all.stream().map(l -> l.whatIf().orElseThrow().why()).toList())) + "."));
        }
        List<Statement> standings = standings(ranked, firstUse, !apart.isEmpty());
        Line fast = fastest(ranked, Line::seconds);
        // the headline comes first in the standings: what it rests on is said right under it
        said.add(standings.get(0));
        said.addAll(assumedUnder(fast, context.withouts()));
        said.addAll(installUnder(fast, context.otherInstalls()));
        said.addAll(standings.subList(1, standings.size()));
        for (Line w : apart) {
            said.add(whatIf(w, ranked, fast, firstUse));
        }
        return said;
    }

    /** The standings of {@code lines}, the headline first: fastest and slowest, or the one variant, or a tie. */
    private static List<Statement> standings(List<Line> lines, boolean firstUse, boolean whatIfsApart) {
        // the pull ranks, as the charts plot it; registration is said beside it, never folded in silently
        java.util.function.ToDoubleFunction<Line> key = Line::seconds;
        Line fast = fastest(lines, key);
        Line slow = lines.get(0);
        for (Line l : lines) {
            if (key.applyAsDouble(l) > key.applyAsDouble(slow)) {
                slow = l;
            }
        }
        List<String> fastest = tiedWith(lines, key.applyAsDouble(fast), key);
        List<String> slowest = tiedWith(lines, key.applyAsDouble(slow), key);
        List<Statement> said = new ArrayList<>();
        if (lines.size() == 1) {
            said.add(sentence(whatIfsApart ? "The one deployable variant" : "All variants", fast, firstUse));
            return said;
        }
        if (fastest.size() == lines.size()) {
            // every variant takes the same time: a tie, not a ranking
            said.add(new Statement("All " + lines.size() + (whatIfsApart ? " deployable" : "") + " variants tie",
                    ": slowest pull " + num(fast.seconds()) + " s (" + num(fast.gbps()) + " Gbps), limited by "
                            + fast.limiter().words() + (firstUse ? "; " + firstUseClause(fast) : "") + "."));
            return said;
        }
        said.add(sentence(label("Fastest", fastest, fast), fast, firstUse));
        said.add(sentence(label("Slowest", slowest, slow), slow, firstUse));
        said.add(Statement.plain(String.format(Locale.ROOT, "The fastest is %s times faster (slowest pull %s s vs %s s).",
                num(key.applyAsDouble(slow) / key.applyAsDouble(fast)), num(key.applyAsDouble(fast)),
                num(key.applyAsDouble(slow)))));
        if (firstUse) {
            // counting registration another may come first: say which, and that its registration is why
            Line byFirstUse = fastest(lines, Line::firstUseSeconds);
            List<String> firstTied = tiedWith(lines, byFirstUse.firstUseSeconds(), Line::firstUseSeconds);
            if (!firstTied.contains(fast.variant())) {
                boolean several = firstTied.size() > 1;
                said.add(Statement.plain("Counting registration, the first to use its data would be "
                        + firstTied.get(0) + (several ? " (tied with " + String.join(", ", firstTied.subList(1,
                                firstTied.size())) + ")" : "") + ": " + num(byFirstUse.firstUseSeconds())
                        + " s to first use against " + num(fast.firstUseSeconds()) + " s for " + fast.variant()
                        + (several ? ", their shorter registration walls outweighing their slower pulls."
                                : ", its shorter registration wall (" + num(byFirstUse.registrationSeconds())
                                        + " s against " + num(fast.registrationSeconds())
                                        + " s) outweighing its slower pull.")));
            }
        }
        return said;
    }

    /**
     * A what-if stated apart from the deployable variants {@code ranked}: its figures, why it is one, and where it
     * would have come had it been deployable (first by the pull, or first to use its data counting registration).
     */
    private static Statement whatIf(Line w, List<Line> ranked, Line fast, boolean firstUse) {
        Statement figures = sentence("What-if, not ranked", w, firstUse);
        StringBuilder text = new StringBuilder(figures.text()).append(" Its ").append(w.whatIf().orElseThrow().why())
                .append('.');
        if (w.seconds() < fast.seconds() * (1 - 1e-9)) {
            text.append(" By its slowest pull it would be the fastest: ").append(num(w.seconds())).append(" s against ")
                    .append(num(fast.seconds())).append(" s for ").append(fast.variant()).append('.');
        }
        if (firstUse) {
            Line first = fastest(ranked, Line::firstUseSeconds);
            if (w.firstUseSeconds() < first.firstUseSeconds() * (1 - 1e-9)) {
                text.append(" Counting registration it would be the first to use its data: ")
                        .append(num(w.firstUseSeconds())).append(" s against ").append(num(first.firstUseSeconds()))
                        .append(" s for ").append(first.variant()).append(", the first of the deployable variants.");
            }
        }
        return new Statement(figures.lead(), text.toString());
    }

    private static Line fastest(List<Line> lines, java.util.function.ToDoubleFunction<Line> key) {
        Line fast = lines.get(0);
        for (Line l : lines) {
            if (key.applyAsDouble(l) < key.applyAsDouble(fast)) {
                fast = l;
            }
        }
        return fast;
    }

    /** The ranking within each platform: a GB200 variant is never ranked against a DGX H100 one. */
    private static List<Statement> byPlatform(List<Line> lines, Map<String, String> platformOf,
            AnswerContext context) {
        Map<String, List<Line>> groups = new LinkedHashMap<>();
        for (Line l : lines) {
            groups.computeIfAbsent(platformOf.getOrDefault(l.variant(), ""), k -> new ArrayList<>()).add(l);
        }
        if (groups.size() < 2) {
            return ranking(lines, context);
        }
        List<Statement> said = new ArrayList<>();
        boolean firstUse = registrationModelled(lines);
        said.add(Statement.plain("Variants run on " + groups.size() + " platforms, each ranked against its own:"));
        if (firstUse) {
            said.add(Statement.plain(FIRST_USE_RULE));
        }
        for (Map.Entry<String, List<Line>> g : groups.entrySet()) {
            long whatIfs = g.getValue().stream().filter(l -> !l.deployable()).count();
            String among = whatIfs == 0 ? "" : whatIfs == 1 ? ", 1 of them a what-if"
                    : ", " + whatIfs + " of them what-ifs";
            said.add(new Statement("On " + g.getKey(), " (" + g.getValue().size() + " variant"
                    + (g.getValue().size() == 1 ? "" : "s") + among + "):"));
            said.addAll(ranking(g.getValue(), firstUse, context));
        }
        return said;
    }

    /**
     * A sweep's answer: per series, the bandwidth at the smallest and largest message, its peak, and the
     * knee: the smallest message reaching half the peak (the n-half of message-passing benchmarks) and
     * the smallest reaching 90% of it.
     */
    private static List<Statement> curve(List<Line> lines, ReportWriter.SweepChart sweep) {
        Map<String, Line> byName = new HashMap<>();
        lines.forEach(l -> byName.put(l.variant(), l));
        List<Statement> parts = new ArrayList<>();
        parts.add(Statement.plain("Bandwidth against message size, slowest receiver per point:"));
        for (String series : sweep.series()) {
            List<long[]> sizes = new ArrayList<>();
            List<Double> gbps = new ArrayList<>();
            for (long size : sweep.sizes()) {
                Line l = byName.get(sweep.name().apply(series, size));
                if (l != null) {
                    sizes.add(new long[] {size});
                    gbps.add(l.gbps());
                }
            }
            if (gbps.isEmpty()) {
                continue;
            }
            double peak = gbps.stream().mapToDouble(Double::doubleValue).max().orElse(0);
            long half = -1;
            long ninety = -1;
            long atPeak = -1;
            for (int i = 0; i < gbps.size(); i++) {
                if (half < 0 && gbps.get(i) >= 0.5 * peak) {
                    half = sizes.get(i)[0];
                }
                if (ninety < 0 && gbps.get(i) >= 0.9 * peak) {
                    ninety = sizes.get(i)[0];
                }
                if (atPeak < 0 && gbps.get(i) == peak) {
                    atPeak = sizes.get(i)[0];
                }
            }
            parts.add(new Statement(series, ": " + num(gbps.get(0)) + " Gbps at "
                    + sizeText(sizes.get(0)[0]) + ", " + num(gbps.get(gbps.size() - 1)) + " Gbps at "
                    + sizeText(sizes.get(sizes.size() - 1)[0]) + "; peak " + num(peak) + " Gbps (from "
                    + sizeText(atPeak) + "); half the peak from " + sizeText(half) + ", 90% from " + sizeText(ninety)
                    + "."));
        }
        return parts;
    }

    /** "4 B", "16 KiB", "1 GiB": message sizes as the sweep names its points. */
    /** A speed-up in words: "halves it or better", "1.32x faster", "no change", "1.19x slower". */
    /** Whether a change that makes a refit {@code x} times faster halves it (the heading and each item say so alike). */
    private static boolean halves(double x) {
        return x >= 2;
    }

    private static String effect(double x) {
        return halves(x) ? "halves it or better" : x > 1 + NO_CHANGE ? String.format(java.util.Locale.ROOT, "%.2fx faster", x)
                : x >= 1 - NO_CHANGE ? "no change" : String.format(java.util.Locale.ROOT, "%.2fx slower", 1 / x);
    }

    private static String gigabytes(long bytes) {
        return String.format(java.util.Locale.ROOT, "%.2f GB", bytes / 1e9);
    }

    private static String sizeText(long bytes) {
        return org.rdmasim.hardware.Units.exactSizeLabel(bytes, " ");
    }

    /** Which variants fit under the scenario's limits, and where each of the others stopped. */
    private static List<Statement> fits(List<VariantOutcome> outcomes) {
        List<String> fit = new ArrayList<>();
        List<String> not = new ArrayList<>();
        for (VariantOutcome o : outcomes) {
            if (o.status() == VariantOutcome.Status.OK) {
                fit.add(o.name() + (o.audit().isWhatIf() ? " (a what-if: " + o.audit().whatIf().why() + ")" : "")
                        + (o.registration() == null ? ""
                        : " (registration " + num(o.registration().wallSeconds()) + " s wall, the slowest process's; "
                                + num(o.registration().summedSeconds()) + " s summed over every process)"));
            } else {
                not.add(o.name() + ": " + o.error().lines().findFirst().orElse("failed"));
            }
        }
        List<Statement> said = new ArrayList<>();
        said.add(new Statement("Fit (" + fit.size() + " of " + outcomes.size() + ")",
                ": " + (fit.isEmpty() ? "none" : String.join(", ", fit)) + "."));
        if (!not.isEmpty()) {
            said.add(new Statement("Do not fit (" + not.size() + ")", ":"));
            not.forEach(n -> said.add(Statement.plain(n)));
        }
        return said;
    }

    /** Each faulted variant's time against the same run without its faults: the fault's cost. */
    private static List<Statement> faults(List<VariantOutcome> outcomes) {
        List<Statement> parts = new ArrayList<>();
        parts.add(Statement.plain("What the faults cost (each variant run again without them, same seed):"));
        for (VariantOutcome o : outcomes) {
            FaultCost c = o.faultCost();
            if (c == null) {
                continue;
            }
            String gaveUp = c.gaveUp() > 0 ? ", " + c.gaveUp() + " gave up" : "";
            if (o.status() == VariantOutcome.Status.FAILED || !Double.isFinite(c.makespanWith())
                    || !Double.isFinite(c.maxPullWith())) {
                parts.add(new Statement(o.name(), ": did not finish with its faults" + gaveUp + " ("
                        + num(c.makespanWithout()) + " s without them)."));
                continue;
            }
            parts.add(new Statement(o.name(), ": makespan " + num(c.makespanWith()) + " s with its faults, "
                    + num(c.makespanWithout()) + " s without: the faults cost " + num(c.makespanWith() - c.makespanWithout())
                    + " s; slowest pull " + num(c.maxPullWith()) + " s vs " + num(c.maxPullWithout()) + " s" + gaveUp + "."));
        }
        return parts;
    }

    /** The variants whose time by {@code key} equals {@code seconds} to one part in 10^9: a tie is not a rank. */
    private static List<String> tiedWith(List<Line> lines, double seconds, java.util.function.ToDoubleFunction<Line> key) {
        List<String> names = new ArrayList<>();
        for (Line l : lines) {
            if (Math.abs(key.applyAsDouble(l) - seconds) <= 1e-9 * seconds) {
                names.add(l.variant());
            }
        }
        return names;
    }

    /** "Fastest" for one variant; "Fastest (tied: a, b)" when others take the same time. */
    private static String label(String word, List<String> tied, Line shown) {
        if (tied.size() < 2) {
            return word;
        }
        List<String> others = new ArrayList<>(tied);
        others.remove(shown.variant());
        return word + " (tied with " + String.join(", ", others) + ")";
    }

    private static Statement sentence(String label, Line l, boolean firstUse) {
        String lead = label + ": " + l.variant();
        String head = ", slowest pull " + num(l.seconds()) + " s (" + num(l.gbps()) + " Gbps), ";
        String tail = firstUse ? "; " + firstUseClause(l) : "";
        if (l.faultSeconds() > 1e-9 * l.seconds()) {
            // the time is the faults' (waiting for QPs to fail, retrying), not the rate limit's
            // unless a fault itself held the pull longest (a port's RC retransmit wait, a degraded rate): then it is named
            boolean byFault = isFault(l.limiter()) || l.limiter() instanceof Bottleneck.Tie t
                    && t.limits().stream().anyMatch(Verdict::isFault);
            return new Statement(lead, head + num(l.faultSeconds()) + " s of it the faults' cost; "
                    + (byFault ? "held longest by " : "the data moved limited by ") + l.limiter().words() + tail + ".");
        }
        // where a GPU's own link held the lanes longest, it, not the limit of the last lane left, set the time
        String gpu = l.gpuLink().map(g -> g.clause(l.limiter())).orElse("");
        return new Statement(lead, head + "limited by " + l.limiter().words() + gpu + tail + ".");
    }

    /**
     * Time to first use: the registration wall the slowest receiver waits for, then its pull. A wall of 0 means
     * nothing was registered for that pull: said so, not as a wall waited for 0 s. A staged copy is one: it goes
     * through the send buffers of UCX's interface pool, registered as the pool grows and kept
     * ({@code uct_iface_mp_chunk_alloc}, openucx/ucx v1.20.0 src/uct/base/uct_iface.c), which the model does not
     * charge.
     */
    private static String firstUseClause(Line l) {
        if (l.registrationSeconds() == 0) {
            return num(l.firstUseSeconds()) + " s to first use (nothing registered with the NIC before the pull: "
                    + "the pull alone)";
        }
        return num(l.firstUseSeconds()) + " s to first use (registration wall " + num(l.registrationSeconds())
                + " s, then the pull)";
    }

    private static boolean isFault(Bottleneck limit) {
        return limit instanceof Bottleneck.PortStall || limit instanceof Bottleneck.Degraded;
    }

    private static String num(double v) {
        return org.rdmasim.hardware.Units.number(v);
    }
}
