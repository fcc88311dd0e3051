package org.rdmasim.sweep;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.rdmasim.report.SummaryJson;
import org.rdmasim.scenario.ScenarioException;

/**
 * A study's result table, whole or one shard's part: what the study is (name, fingerprint, knobs with
 * their values, figures, points, replications), which shard, whether every row it should hold is there,
 * and the rows in point then replication order. It is written as {@value #JSON} and {@value #CSV}, and
 * read back from the JSON (shards to merge, a folder to resume). Nothing in it depends on threads, the
 * host, the time or paths, so equal rows give equal bytes.
 */
public final class ResultTable {
    public static final String JSON = "results.json";
    public static final String CSV = "results.csv";
    /** Rows appended as they finish, so an interrupted run keeps them even when it cannot write the table. */
    public static final String JOURNAL = "rows.jsonl";
    public static final int SCHEMA_VERSION = 1;

    /** What the table is of. {@code shard} is null for the whole study. */
    public record Meta(String study, String fingerprint, List<String> knobPaths, List<List<String>> knobValues,
            List<String> figures, int points, int replications, StudyPlan.Shard shard) {
        public Meta {
            knobPaths = List.copyOf(knobPaths);
            knobValues = knobValues.stream().map(List::copyOf).toList();
            figures = List.copyOf(figures);
        }

        public static Meta of(StudyPlan plan, StudyPlan.Shard shard) {
            Study s = plan.study();
            return new Meta(s.name(), s.fingerprint(), s.knobs().stream().map(Knob::path).toList(),
                    s.knobs().stream().map(Knob::texts).toList(), s.figures().stream().map(Figure::key).toList(),
                    plan.points().size(), s.replications(), shard.isAll() ? null : shard);
        }

        /** Rows this table should hold when complete. */
        public long expectedRows() {
            if (shard == null) {
                return (long) points * replications;
            }
            long held = 0;
            for (int p = 0; p < points; p++) {
                if (shard.holds(p)) {
                    held++;
                }
            }
            return held * replications;
        }

        public Meta whole() {
            return new Meta(study, fingerprint, knobPaths, knobValues, figures, points, replications, null);
        }
    }

    private final Meta meta;
    private final TreeMap<Long, ResultRow> rows = new TreeMap<>();

    public ResultTable(Meta meta) {
        this.meta = meta;
    }

    public Meta meta() {
        return meta;
    }

    public synchronized void add(ResultRow r) {
        rows.put(r.order(meta.replications()), r);
    }

    public synchronized boolean has(int point, int replication) {
        return rows.containsKey((long) point * meta.replications() + replication);
    }

    public synchronized List<ResultRow> rows() {
        return List.copyOf(rows.values());
    }

    public synchronized boolean complete() {
        return rows.size() == meta.expectedRows();
    }

    /** Writes the JSON and CSV tables into {@code dir}. */
    public synchronized void write(Path dir) throws IOException {
        Files.createDirectories(dir);
        ObjectNode root = SummaryJson.mapper().createObjectNode();
        root.put("schemaVersion", SCHEMA_VERSION);
        root.put("study", meta.study());
        root.put("fingerprint", meta.fingerprint());
        if (meta.shard() != null) {
            root.put("shard", meta.shard().toString());
        }
        root.put("complete", complete());
        ArrayNode knobs = root.putArray("knobs");
        for (int k = 0; k < meta.knobPaths().size(); k++) {
            ObjectNode n = knobs.addObject();
            n.put("path", meta.knobPaths().get(k));
            meta.knobValues().get(k).forEach(n.putArray("values")::add);
        }
        meta.figures().forEach(root.putArray("figures")::add);
        root.put("points", meta.points());
        root.put("replications", meta.replications());
        root.put("rows", rows.size());
        ArrayNode arr = root.putArray("results");
        for (ResultRow r : rows.values()) {
            arr.add(rowJson(r));
        }
        SummaryJson.write(dir.resolve(JSON), root);
        Files.writeString(dir.resolve(CSV), csv(), StandardCharsets.UTF_8);
    }

    ObjectNode rowJson(ResultRow r) {
        ObjectNode n = SummaryJson.mapper().createObjectNode();
        n.put("point", r.point());
        n.put("replication", r.replication());
        ObjectNode kv = n.putObject("knobs");
        for (int k = 0; k < meta.knobPaths().size(); k++) {
            kv.put(meta.knobPaths().get(k), r.values().get(k));
        }
        n.put("status", r.ok() ? "ok" : "failed");
        if (r.ok()) {
            for (int f = 0; f < meta.figures().size(); f++) {
                n.put(meta.figures().get(f), r.figures()[f]);
            }
            n.put("limiter", r.limiter());
            if (!r.limitNumbers().isEmpty()) {
                var numbers = n.putArray("limitNumbers");
                r.limitNumbers().forEach(numbers::add);
            }
        } else {
            n.put("error", r.error());
        }
        return n;
    }

    private String csv() {
        StringBuilder b = new StringBuilder("point,replication");
        meta.knobPaths().forEach(k -> b.append(',').append(quoted(k)));
        b.append(",status");
        meta.figures().forEach(f -> b.append(',').append(f));
        b.append(",limiter,error\n");
        for (ResultRow r : rows.values()) {
            b.append(r.point()).append(',').append(r.replication());
            r.values().forEach(v -> b.append(',').append(quoted(v)));
            b.append(',').append(r.ok() ? "ok" : "failed");
            for (int f = 0; f < meta.figures().size(); f++) {
                b.append(',');
                if (r.ok()) {
                    b.append(Double.toString(r.figures()[f]));
                }
            }
            b.append(',').append(quoted(r.ok() ? r.limiter() : "")).append(',').append(quoted(r.error()));
            b.append('\n');
        }
        return b.toString();
    }

    /** RFC 4180 quoting: a field with a comma, quote or line break goes in quotes, quotes doubled. */
    static String quoted(String s) {
        if (s.indexOf(',') < 0 && s.indexOf('"') < 0 && s.indexOf('\n') < 0 && s.indexOf('\r') < 0) {
            return s;
        }
        return '"' + s.replace("\"", "\"\"") + '"';
    }

    /** One row as a single line of JSON, for the journal. */
    String journalLine(ResultRow r) {
        try {
            return new ObjectMapper().writeValueAsString(rowJson(r));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Reads the table in {@code dir} (its JSON, plus any journal rows); a broken file is bad input. */
    public static ResultTable read(Path dir) throws IOException {
        Path file = dir.resolve(JSON);
        JsonNode root;
        try {
            root = SummaryJson.mapper().readTree(file.toFile());
        } catch (com.fasterxml.jackson.core.JacksonException e) {
            throw new ScenarioException(file.toString(), e.getLocation() == null ? 0 : e.getLocation().getLineNr(),
                    e.getLocation() == null ? 0 : e.getLocation().getColumnNr(), "not a study result table: "
                    + e.getOriginalMessage());
        }
        try {
            if (root.path("schemaVersion").asInt() != SCHEMA_VERSION || !root.hasNonNull("fingerprint")) {
                throw new StudyInputException("not a study result table (schemaVersion " + SCHEMA_VERSION
                        + " with a fingerprint)");
            }
            List<String> paths = new ArrayList<>();
            List<List<String>> values = new ArrayList<>();
            for (JsonNode k : root.get("knobs")) {
                paths.add(k.get("path").asText());
                List<String> vs = new ArrayList<>();
                k.get("values").forEach(v -> vs.add(v.asText()));
                values.add(vs);
            }
            List<String> figures = new ArrayList<>();
            root.get("figures").forEach(f -> figures.add(f.asText()));
            StudyPlan.Shard shard = root.has("shard") ? StudyPlan.Shard.parse(root.get("shard").asText()) : null;
            Meta meta = new Meta(root.get("study").asText(), root.get("fingerprint").asText(), paths, values, figures,
                    root.get("points").asInt(), root.get("replications").asInt(), shard);
            ResultTable t = new ResultTable(meta);
            for (JsonNode r : root.get("results")) {
                t.add(t.row(r));
            }
            Path journal = dir.resolve(JOURNAL);
            if (Files.isRegularFile(journal)) {
                t.readJournal(journal);
            }
            return t;
        } catch (RuntimeException e) {
            if (e instanceof ScenarioException) {
                throw e;
            }
            throw new ScenarioException(file.toString(), 0, 0, "not a study result table: " + e.getMessage());
        }
    }

    /** Adds the rows of a journal; a last line cut short by a kill is skipped. */
    void readJournal(Path journal) throws IOException {
        ObjectMapper m = new ObjectMapper();
        for (String line : Files.readAllLines(journal, StandardCharsets.UTF_8)) {
            if (line.isBlank()) {
                continue;
            }
            JsonNode n;
            try {
                n = m.readTree(line);
            } catch (JsonProcessingException e) {
                continue;
            }
            add(row(n));
        }
    }

    ResultRow row(JsonNode r) {
        List<String> vs = new ArrayList<>();
        JsonNode kv = r.get("knobs");
        for (String p : meta.knobPaths()) {
            vs.add(kv.get(p).asText());
        }
        boolean ok = r.get("status").asText().equals("ok");
        double[] figs = new double[ok ? meta.figures().size() : 0];
        for (int f = 0; f < figs.length; f++) {
            figs[f] = r.get(meta.figures().get(f)).asDouble();
        }
        List<String> numbers = new ArrayList<>();
        r.path("limitNumbers").forEach(x -> numbers.add(x.asText()));
        return new ResultRow(r.get("point").asInt(), r.get("replication").asInt(), vs, ok, figs,
                ok ? r.get("limiter").asText() : "", numbers, ok ? "" : r.path("error").asText());
    }

    /**
     * Figure {@code f} of every ok replication, per configuration (the knob values of a point, in knob
     * order), configurations in point order. A configuration with no ok row is absent.
     */
    public synchronized Map<List<String>, double[]> replicationsBy(int f) {
        Map<List<String>, List<Double>> by = new java.util.LinkedHashMap<>();
        for (ResultRow r : rows.values()) {
            if (r.ok()) {
                by.computeIfAbsent(r.values(), x -> new java.util.ArrayList<>()).add(r.figures()[f]);
            }
        }
        Map<List<String>, double[]> out = new java.util.LinkedHashMap<>();
        by.forEach((v, xs) -> out.put(v, xs.stream().mapToDouble(Double::doubleValue).toArray()));
        return out;
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%s: %d of %d rows", meta.study(), rows.size(), meta.expectedRows());
    }
}
