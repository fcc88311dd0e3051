package org.rdmasim.sweep;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.rdmasim.importers.InputLimits;
import org.rdmasim.run.RunBudget;
import org.rdmasim.scenario.Scenario;
import org.rdmasim.scenario.ScenarioException;
import org.rdmasim.scenario.YamlTree;

/**
 * Reads a study file:
 * <pre>
 * study: NAME                  # names the output folder
 * scenario: BASE.yaml          # relative to the study's folder
 * variant: NAME                # optional: the base's variant each point runs (default: its first)
 * seed: 7                      # optional: laid over the base's seed
 * replications: 3              # optional: laid over the base's replications
 * knobs:                       # field path -> values (a list, or a range)
 *   hosts.sources.count: [1, 2, 4]
 *   workload.fanout.arrival.meanGap: {from: 10, to: 30, step: 10, unit: ms}
 * sample: {points: 20, seed: 3} # optional: a seeded random sample of the grid instead of all of it
 * figures: [p99PullSeconds, makespanSeconds]   # optional (default: all; for a refit, the two it has)
 * </pre>
 * Every value is laid over the base scenario's YAML and read by the scenario loader, once per value
 * here, so a path naming no field or a value out of range is refused before anything runs, at the
 * study file's line.
 */
public final class StudyReader {
    /** Fields a knob cannot turn: they name things, or change how many rows a point has. */
    static final Set<String> NOT_KNOBS = Set.of("name", "description", "variants", "sweep", "references", "replications");
    /** Values one knob may take: more is a typo in a range. */
    static final int MAX_VALUES = 10_000;
    /** Points a study may have: a grid beyond this must be sampled. */
    static final long MAX_POINTS = 1_000_000;

    private StudyReader() {
    }

    public static Study read(Path file, boolean allowOutside) {
        if (!Files.isRegularFile(file)) {
            throw ScenarioException.notAFile(file, "study file");
        }
        String text;
        try {
            text = InputLimits.read(file);
        } catch (InputLimits.LimitException e) {
            throw new ScenarioException(file.toString(), e.line(), 1, e.getMessage());
        }
        YamlTree root = YamlTree.parse(text, file.toString());
        root.onlyFields(Set.of("study", "description", "scenario", "variant", "seed", "replications", "knobs", "sample",
                "figures"));
        String name = root.get("study").text().trim();
        if (!name.matches("[A-Za-z0-9._-]{1,100}")) {
            throw root.get("study").error("a study name may use letters, digits, '.', '_' and '-' only (it names the "
                    + "output folder)");
        }
        YamlTree scenarioAt = root.get("scenario");
        Path folder = file.toAbsolutePath().getParent();
        Path scenarioFile;
        try {
            scenarioFile = InputLimits.inside(folder, scenarioAt.text().trim(), allowOutside);
        } catch (InputLimits.LimitException e) {
            throw scenarioAt.error(e.getMessage());
        } catch (java.nio.file.InvalidPathException e) {
            throw scenarioAt.error("not a usable file name");
        }
        if (!Files.isRegularFile(scenarioFile)) {
            throw scenarioAt.error((Files.isDirectory(scenarioFile) ? "a folder, not a scenario file: " : "no such scenario file: ")
                    + scenarioFile);
        }
        String scenarioText;
        try {
            scenarioText = InputLimits.read(scenarioFile);
        } catch (InputLimits.LimitException e) {
            throw new ScenarioException(scenarioFile.toString(), e.line(), 1, e.getMessage());
        }
        // the base keeps the path the user gave relative to here, so messages name a file they can open
        Path shown = org.rdmasim.importers.InputLimits.fromHere(scenarioFile);
        YamlTree base = YamlTree.parse(scenarioText, shown.toString());
        if (!base.isMap()) {
            throw base.error("expected a scenario (a mapping with 'name', 'hosts', 'workload')");
        }
        List<YamlTree> fixed = new ArrayList<>();
        for (String f : List.of("seed", "replications")) {
            if (root.has(f)) {
                fixed.add(YamlTree.placedAt(List.of(f), root.get(f), root.get(f)));
            }
        }
        String variant = root.has("variant") ? root.get("variant").text().trim() : null;
        List<Figure> figures = new ArrayList<>();
        if (root.has("figures")) {
            for (YamlTree f : root.get("figures").items()) {
                try {
                    Figure fig = Figure.byKey(f.text().trim());
                    if (figures.contains(fig)) {
                        throw f.error("figure '" + fig.key() + "' is listed twice");
                    }
                    figures.add(fig);
                } catch (IllegalArgumentException e) {
                    throw f.error(e.getMessage());
                }
            }
            if (figures.isEmpty()) {
                throw root.get("figures").error("the list of figures is empty; leave it out for all of them");
            }
        }
        if (!root.has("knobs")) {
            throw root.error("an empty study: no 'knobs' (field path: values) to turn");
        }
        YamlTree knobsAt = root.get("knobs");
        List<Knob> knobs = new ArrayList<>();
        for (Map.Entry<String, YamlTree> e : knobsAt.entries().entrySet()) {
            knobs.add(knob(e.getKey(), e.getValue(), e.getValue()));
        }
        if (knobs.isEmpty()) {
            throw knobsAt.error("an empty study: no knobs to turn");
        }
        for (Knob k : knobs) {
            hostGroupKnown(k, base);
            notSetByTheVariant(k, base, variant);
        }
        Study.Sample sample = null;
        Study probe = new Study(name, file, scenarioFile, variant, 0, knobs, null, figures, "", base, fixed, allowOutside);
        long grid;
        try {
            grid = probe.gridSize();
        } catch (ArithmeticException e) {
            grid = Long.MAX_VALUE;
        }
        if (root.has("sample")) {
            YamlTree s = root.get("sample");
            s.onlyFields(Set.of("points", "seed"));
            long points = s.get("points").integer();
            if (points < 1 || points > Math.min(grid, MAX_POINTS)) {
                throw s.get("points").error("expected 1 to " + Math.min(grid, MAX_POINTS) + " points (the grid has "
                        + (grid == Long.MAX_VALUE ? "more than " + Long.MAX_VALUE : grid) + "), got " + points);
            }
            sample = new Study.Sample((int) points, s.has("seed") ? s.get("seed").integer() : 1);
        } else if (grid > MAX_POINTS) {
            throw knobsAt.error("the grid has " + (grid == Long.MAX_VALUE ? "too many" : String.valueOf(grid))
                    + " points, more than " + MAX_POINTS + "; add 'sample: {points: N, seed: S}'");
        }
        // Every value alone over the base: the loader checks it where the study wrote it.
        Scenario first = null;
        boolean refit = false;
        for (int k = 0; k < knobs.size(); k++) {
            Knob knob = knobs.get(k);
            for (int i = 0; i < knob.values().size(); i++) {
                int[] choice = new int[knobs.size()];
                Arrays.fill(choice, -1);
                choice[k] = i;
                Scenario s = checked(probe, choice, knob, knob.values().get(i), file);
                if (probe.variantOf(s, root.getOrNull("variant")).isRefit()) {
                    refit = true;
                }
                if (first == null) {
                    first = s;
                }
            }
        }
        if (!root.has("figures")) {
            // all figures, or for a refit those it has (it has no one pull per receiver)
            for (Figure f : Figure.values()) {
                if (!refit || !f.perPull()) {
                    figures.add(f);
                }
            }
        } else if (refit) {
            for (int i = 0; i < figures.size(); i++) {
                if (figures.get(i).perPull()) {
                    throw root.get("figures").items().get(i).error("figure '" + figures.get(i).key() + "' is a "
                            + "time per receiver pull, and the variant this study runs is a refit, which has none: every "
                            + "inference rank receives in every cycle, so no one pull per receiver exists; a refit study "
                            + "records makespanSeconds (its wall time, every cycle) and aggregateGbps");
                }
            }
        }
        String digest = fingerprint(text, scenarioText);
        return new Study(name, file, scenarioFile, variant, first.replications(), knobs, sample, figures, digest, base,
                fixed, allowOutside);
    }

    /** The scenario at {@code choice}, or a study error at the value when the loader refuses it. */
    static Scenario checked(Study study, int[] choice, Knob knob, YamlTree value, Path studyFile) {
        Scenario s;
        try {
            s = study.scenarioAt(choice);
            RunBudget.of(s).check(Runtime.getRuntime().maxMemory());
        } catch (ScenarioException e) {
            if (e.file().equals(studyFile.toString())) {
                throw e;
            }
            throw value.error("knob " + knob.path() + " = " + value.written() + ": " + e.getMessage());
        } catch (IllegalArgumentException e) {
            throw value.error("knob " + knob.path() + " = " + value.written() + ": " + e.getMessage());
        }
        return s;
    }

    /**
     * A knob on a field of a host group ({@code hosts.GROUP.FIELD}) names a group the scenario (or one of its
     * variants) has. Laid over the scenario, a misspelt group would be a new group holding that field alone,
     * and the loader's complaint (no preset) would not say that the name was wrong.
     */
    private static void hostGroupKnown(Knob k, YamlTree base) {
        if (k.keys().size() < 3 || !k.keys().get(0).equals("hosts")) {
            return;
        }
        Set<String> groups = new java.util.TreeSet<>();
        YamlTree hosts = base.getOrNull("hosts");
        if (hosts != null && hosts.isMap()) {
            groups.addAll(hosts.entries().keySet());
        }
        YamlTree variants = base.getOrNull("variants");
        if (variants != null && variants.isList()) {
            for (YamlTree v : variants.items()) {
                YamlTree vh = v.isMap() ? v.getOrNull("hosts") : null;
                if (vh != null && vh.isMap()) {
                    groups.addAll(vh.entries().keySet());
                }
            }
        }
        String group = k.keys().get(1);
        if (!groups.isEmpty() && !groups.contains(group)) {
            throw k.pathAt().error("knob '" + k.path() + "': " + base.file() + " has no host group '" + group + "'"
                    + YamlTree.suggestion(group, groups) + "; its host groups: " + String.join(", ", groups));
        }
    }

    /**
     * A knob laid over the base scenario is laid under its variants: the loader lays each variant's own fields over
     * the base ({@code ScenarioLoader}), so a field the study's variant sets itself (or a field below it) would hide
     * the knob, and every point would run the variant's value while the rows list the knob's. Refused, naming both
     * places. A variant's {@code transport.env} adds to the base's variable by variable rather than replacing it, so
     * a knob on {@code transport.env} is refused only when a value of it sets a variable the variant sets itself.
     */
    private static void notSetByTheVariant(Knob k, YamlTree base, String variant) {
        YamlTree chosen = chosenVariant(base, variant);
        if (k.keys().size() >= 2 && k.keys().get(0).equals("transport") && k.keys().get(1).equals("env")) {
            if (k.keys().size() == 2) {
                envNotSetByTheVariant(k, chosen, variant);
            }
            return;
        }
        YamlTree at = chosen;
        for (String key : k.keys()) {
            if (at == null || !at.isMap()) {
                return;
            }
            at = at.getOrNull(key);
        }
        if (at != null) {
            String name = chosen.has("name") ? chosen.get("name").text().trim() : "?";
            throw k.pathAt().error("knob '" + k.path() + "': variant '" + name + "', which this study runs"
                    + (variant == null ? " (the scenario's first; no 'variant:' given)" : "") + ", sets "
                    + k.path() + " itself (" + at.file() + ":" + at.line() + "), and a variant's fields are laid over"
                    + " the knob's, so every point would run the variant's value; run a variant that leaves "
                    + k.path() + " to the base scenario");
        }
    }

    /**
     * A knob on {@code transport.env}: the loader lays the variant's env over the base's variable by variable, so a
     * variable a knob value sets and the variant sets too would run at the variant's value on every point.
     */
    private static void envNotSetByTheVariant(Knob k, YamlTree chosen, String variant) {
        YamlTree own = chosen == null || !chosen.isMap() || !chosen.has("transport") || !chosen.get("transport").isMap()
                ? null : chosen.get("transport").getOrNull("env");
        if (own == null) {
            return;
        }
        java.util.Map<String, org.rdmasim.transport.config.EnvEntry> set = new java.util.LinkedHashMap<>();
        for (org.rdmasim.transport.config.EnvEntry e : org.rdmasim.scenario.ScenarioLoader.envVariables(own)) {
            set.put(e.name(), e);
        }
        for (YamlTree value : k.values()) {
            for (org.rdmasim.transport.config.EnvEntry e : org.rdmasim.scenario.ScenarioLoader.envVariables(value)) {
                org.rdmasim.transport.config.EnvEntry mine = set.get(e.name());
                if (mine != null) {
                    String name = chosen.has("name") ? chosen.get("name").text().trim() : "?";
                    throw value.error("knob 'transport.env': this value sets " + e.name() + ", which variant '" + name
                            + "', which this study runs" + (variant == null ? " (the scenario's first; no 'variant:' "
                            + "given)" : "") + ", sets itself (" + mine.source() + ":" + mine.line() + "), and a "
                            + "variant's env is laid over the knob's variable by variable, so every point would run "
                            + e.name() + "=" + mine.value() + "; run a variant that leaves " + e.name()
                            + " to the base scenario");
                }
            }
        }
    }

    /** The variant the study runs: the one named, or the scenario's first; null when the scenario has none. */
    private static YamlTree chosenVariant(YamlTree base, String variant) {
        YamlTree variants = base.getOrNull("variants");
        if (variants == null || !variants.isList()) {
            return null;
        }
        for (YamlTree v : variants.items()) {
            if (!v.isMap()) {
                continue;
            }
            if (variant == null || (v.has("name") && v.get("name").text().trim().equals(variant))) {
                return v;
            }
        }
        return null;
    }

    private static Knob knob(String path, YamlTree at, YamlTree v) {
        List<String> keys = Arrays.asList(path.split("\\.", -1));
        if (keys.stream().anyMatch(String::isBlank)) {
            throw at.error("knob '" + path + "': a field path is names joined by '.', such as hosts.sources.count");
        }
        if (NOT_KNOBS.contains(keys.get(0))) {
            throw at.error("knob '" + path + "': '" + keys.get(0) + "' cannot be turned by a study ("
                    + (keys.get(0).equals("replications") ? "set the study's own 'replications'" : "it names things or "
                    + "holds variants; pick the variant with 'variant:'") + ")");
        }
        List<YamlTree> values = new ArrayList<>();
        if (v.isList()) {
            values.addAll(v.items());
        } else if (v.isMap()) {
            values.addAll(range(v));
        } else {
            throw v.error("knob '" + path + "': expected a list of values or a range {from, to, step | factor}");
        }
        if (values.isEmpty()) {
            throw v.error("knob '" + path + "': no values (an empty study)");
        }
        if (values.size() > MAX_VALUES) {
            // a range is cut one value past the limit: its count is not known, only that it is over
            throw v.error("knob '" + path + "': " + (v.isMap() ? "the range gives more than " + MAX_VALUES
                    + " values; take a larger step or factor, or a narrower range" : values.size()
                    + " values, more than " + MAX_VALUES));
        }
        List<String> seen = new ArrayList<>();
        for (YamlTree x : values) {
            if (seen.contains(x.written())) {
                throw x.error("knob '" + path + "': the value " + x.written() + " is listed twice");
            }
            seen.add(x.written());
        }
        return new Knob(path, keys, v, values);
    }

    /** {from, to, step} (arithmetic) or {from, to, factor} (geometric), with an optional unit after each value. */
    private static List<YamlTree> range(YamlTree v) {
        v.onlyFields(Set.of("from", "to", "step", "factor", "unit"));
        BigDecimal from = decimal(v.get("from"));
        BigDecimal to = decimal(v.get("to"));
        String unit = v.has("unit") ? " " + v.get("unit").text().trim() : "";
        if (v.has("step") == v.has("factor")) {
            throw v.error("a range needs exactly one of 'step' (from, from + step, ...) or 'factor' (from, from x factor, ...)");
        }
        if (to.compareTo(from) < 0) {
            throw v.get("to").error("'to' must be at least 'from'");
        }
        List<YamlTree> out = new ArrayList<>();
        if (v.has("step")) {
            BigDecimal step = decimal(v.get("step"));
            if (step.signum() <= 0) {
                throw v.get("step").error("a step must be positive");
            }
            for (BigDecimal x = from; x.compareTo(to) <= 0 && out.size() <= MAX_VALUES; x = x.add(step)) {
                out.add(v.withText(x.stripTrailingZeros().toPlainString() + unit));
            }
        } else {
            BigDecimal factor = decimal(v.get("factor"));
            if (factor.compareTo(BigDecimal.ONE) <= 0 || from.signum() <= 0) {
                throw v.get("factor").error("a geometric range needs from > 0 and factor > 1");
            }
            for (BigDecimal x = from; x.compareTo(to) <= 0 && out.size() <= MAX_VALUES; x = x.multiply(factor)) {
                out.add(v.withText(x.stripTrailingZeros().toPlainString() + unit));
            }
        }
        return out;
    }

    private static BigDecimal decimal(YamlTree v) {
        try {
            return new BigDecimal(v.text().trim().replace("_", ""));
        } catch (NumberFormatException e) {
            throw v.error("expected a number, got '" + v.text() + "'");
        }
    }

    static String fingerprint(String study, String scenario) {
        try {
            MessageDigest d = MessageDigest.getInstance("SHA-256");
            d.update(study.getBytes(StandardCharsets.UTF_8));
            d.update((byte) 0);
            d.update(scenario.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d.digest()).substring(0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
    }
}
