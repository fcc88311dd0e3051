package org.rdmasim.scenario;

import java.io.StringReader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.rdmasim.importers.InputLimits;
import org.rdmasim.importers.InputLocation;
import org.rdmasim.transport.config.KnownVariables;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.reader.ReaderException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

/**
 * A YAML value that remembers where it was written. Only SnakeYAML's composed node graph is used:
 * nothing is ever instantiated from a tag. Readers ask for fields by name and get errors such as
 * {@code scenario.yaml:12:7: hosts.a.preset: unknown preset 'dgx-h1000' (expected one of ...)}.
 */
public final class YamlTree {
    private final String file;
    /** Aliases to lists or mappings a file may hold: enough for anchors reused by hand, too few for a bomb. */
    static final int MAX_ALIASES = 50;

    private final Node node;
    /**
     * The field path, or null until asked for: a list of 32,768 transfers is read field by field, and
     * the path is needed only for an error, so it is built from the parent and this value's key or
     * index when a message needs it.
     */
    private String path;
    private final YamlTree parent;
    private final String key;
    private final int index;
    /**
     * The field path of each value laid over this tree from another part of the file ({@link #overlay}): a
     * variant's {@code transport} merged into the base keeps the path the user wrote it at,
     * {@code variants[2].transport.env}, not the base's {@code transport.env}. Null when nothing was laid over.
     */
    private final Map<Node, String> writtenAt;

    private YamlTree(String file, Node node, String path) {
        this(file, node, path, null);
    }

    private YamlTree(String file, Node node, String path, Map<Node, String> writtenAt) {
        this.file = file;
        this.node = node;
        this.path = path;
        this.parent = null;
        this.key = null;
        this.index = -1;
        this.writtenAt = writtenAt;
    }

    private YamlTree(YamlTree parent, Node node, String key, int index) {
        this.file = parent.file;
        this.node = node;
        this.path = null;
        this.parent = parent;
        this.key = key;
        this.index = index;
        this.writtenAt = parent.writtenAt;
    }

    /** The field path as written in messages ("" at the top level). */
    private String fieldPath() {
        if (path == null) {
            String laid = writtenAt == null ? null : writtenAt.get(node);
            if (laid != null) {
                path = laid;
            } else {
                String above = parent.fieldPath();
                path = key != null ? (above.isEmpty() ? key : above + "." + key) : above + "[" + index + "]";
            }
        }
        return path;
    }

    public static YamlTree parse(Path file) {
        return parse(file, file.toString());
    }

    /** The YAML read from {@code file}, its positions given under the name {@code fileLabel}. */
    public static YamlTree parse(Path file, String fileLabel) {
        String text;
        try {
            text = InputLimits.read(file);
        } catch (InputLimits.LimitException e) {
            throw new ScenarioException(fileLabel, e.line(), e.line() == 0 ? 0 : 1, e.getMessage());
        }
        // InputLimits.read has checked the limits
        return compose(text, fileLabel);
    }

    public static YamlTree parse(String text, String fileLabel) {
        InputLimits.check(text).ifPresent(v -> {
            // a line's length is a fact about the line: its first column; 0:0 only for the whole file
            throw new ScenarioException(fileLabel, v.line(), v.line() == 0 ? 0 : 1, v.problem());
        });
        return compose(text, fileLabel);
    }

    /**
     * Where the construct the parser was inside began, when that is on an earlier line than the problem: an
     * unclosed {@code {} or {@code [} is only noticed at the next line, so the line that needs the fix is the
     * one named here.
     */
    /**
     * SnakeYAML words a key indented unlike its neighbours as a block it did not expect; a user reads that
     * better as what to look at: the line's indentation against the keys above it.
     */
    static String indentationHint(String problem, Mark at) {
        if (at == null || problem == null || !problem.contains("expected <block end>")) {
            return "";
        }
        return "; line " + (at.getLine() + 1) + " starts at column " + (at.getColumn() + 1)
                + ": is it indented like the keys beside it (spaces, not tabs)?";
    }

    private static String openedAt(MarkedYAMLException e, Mark problemAt) {
        Mark start = e.getContextMark();
        if (e.getContext() == null || start == null || problemAt == null || start.getLine() >= problemAt.getLine()) {
            return "";
        }
        String context = e.getContext().trim().replaceFirst("^while (parsing|scanning) (an? )?", "");
        String closer = context.contains("flow mapping") ? "; is a '}' missing there?"
                : context.contains("flow sequence") ? "; is a ']' missing there?"
                : context.contains("quoted scalar") ? "; is its closing quote missing?" : "";
        return " (inside the " + context + " that starts at line " + (start.getLine() + 1) + ", column "
                + (start.getColumn() + 1) + closer + ")";
    }

    /** The tree of {@code text}, already within {@link InputLimits}. */
    private static YamlTree compose(String text, String fileLabel) {
        LoaderOptions options = new LoaderOptions();
        // SnakeYAML refuses more than 3 MiB of code points by default, with a bare YAMLException: the
        // file limit is checked before, with a message naming it
        options.setCodePointLimit((int) InputLimits.MAX_FILE_BYTES);
        options.setAllowDuplicateKeys(false);
        options.setMaxAliasesForCollections(MAX_ALIASES);
        options.setNestingDepthLimit(InputLimits.MAX_DEPTH);
        // Only the composed nodes' text is read, never a tag, so plain scalars are not matched against
        // the implicit int/float/bool/timestamp patterns (a regex per scalar in SnakeYAML's Resolver).
        Yaml yaml = new Yaml(new SafeConstructor(options), new org.yaml.snakeyaml.representer.Representer(
                new org.yaml.snakeyaml.DumperOptions()), new org.yaml.snakeyaml.DumperOptions(), options, new TextOnly());
        Node root;
        try {
            root = yaml.compose(new StringReader(text));
        } catch (MarkedYAMLException e) {
            Mark m = e.getProblemMark() != null ? e.getProblemMark() : e.getContextMark();
            String problem = e.getProblem() != null ? e.getProblem() : e.getMessage();
            throw new ScenarioException(fileLabel, m == null ? 0 : m.getLine() + 1, m == null ? 0 : m.getColumn() + 1,
                    "YAML syntax error: " + problem.trim() + openedAt(e, m) + indentationHint(problem, m));
        } catch (ReaderException e) {
            // a character YAML does not allow (NUL, most control characters): placed by its offset
            InputLocation at = TextPositions.ofOffset(fileLabel, text, e.getPosition());
            throw new ScenarioException(at, String.format(Locale.ROOT,
                    "the character U+%04X is not allowed in YAML text", e.getCodePoint()));
        } catch (RuntimeException e) {
            String message = String.valueOf(e.getMessage());
            if (message.startsWith("Nesting Depth exceeded")) {
                // SnakeYAML's depth check carries no position: the first line nested deeper than the limit
                throw new ScenarioException(TextPositions.firstDeeperThan(fileLabel, text, InputLimits.MAX_DEPTH),
                        "YAML nesting deeper than the limit of " + InputLimits.MAX_DEPTH);
            }
            if (message.startsWith("Number of aliases")) {
                // nor does its alias count: the alias that went over the limit
                throw new ScenarioException(TextPositions.alias(fileLabel, text, MAX_ALIASES + 1),
                        "more than " + MAX_ALIASES + " aliases (*name) to lists or mappings");
            }
            throw new ScenarioException(fileLabel, 1, 1, "YAML error: " + e.getClass().getSimpleName());
        }
        if (root == null) {
            throw new ScenarioException(fileLabel, 1, 1, "the file is empty; expected a mapping with 'name', 'hosts', 'workload'");
        }
        rejectDuplicateKeys(fileLabel, root, 0);
        return new YamlTree(fileLabel, root, "");
    }

    /** A resolver that tags every plain scalar as a string: tags are never read here. */
    private static final class TextOnly extends org.yaml.snakeyaml.resolver.Resolver {
        @Override
        protected void addImplicitResolvers() {
        }
    }

    /**
     * SnakeYAML checks duplicate keys only when it constructs Java objects, which this class never
     * does, so the composed graph is walked here: a repeated key would otherwise silently win.
     */
    private static void rejectDuplicateKeys(String file, Node node, int depth) {
        if (depth > InputLimits.MAX_DEPTH) {
            Mark m = node.getStartMark();
            throw new ScenarioException(file, m == null ? 0 : m.getLine() + 1, m == null ? 0 : m.getColumn() + 1,
                    "nesting deeper than the limit of " + InputLimits.MAX_DEPTH);
        }
        if (node instanceof MappingNode m) {
            List<NodeTuple> tuples = m.getValue();
            // A mapping of a few keys (each of 4,096 transfers has four or five) is checked against the keys
            // before it, without a hash map per mapping.
            Map<String, Node> seen = tuples.size() > FEW_KEYS ? new java.util.HashMap<>() : null;
            for (int i = 0; i < tuples.size(); i++) {
                NodeTuple t = tuples.get(i);
                if (!(t.getKeyNode() instanceof ScalarNode)) {
                    // "? [a, b]: x" or "? {a: 1}": every reader below takes keys as names.
                    Mark at = t.getKeyNode().getStartMark();
                    throw new ScenarioException(file, at == null ? 0 : at.getLine() + 1, at == null ? 0 : at.getColumn() + 1,
                            "keys must be plain names, not a list or a mapping");
                }
                if (t.getKeyNode() instanceof ScalarNode k) {
                    Node first = seen != null ? seen.putIfAbsent(k.getValue(), k) : earlierKey(tuples, i, k.getValue());
                    if (first != null) {
                        Mark at = k.getStartMark();
                        throw new ScenarioException(file, at.getLine() + 1, at.getColumn() + 1, "duplicate key '"
                                + abbreviated(k.getValue()) + "' (first written on line " + (first.getStartMark().getLine() + 1) + ")");
                    }
                }
                rejectDuplicateKeys(file, t.getValueNode(), depth + 1);
            }
        } else if (node instanceof SequenceNode s) {
            for (Node n : s.getValue()) {
                rejectDuplicateKeys(file, n, depth + 1);
            }
        }
    }

    /** Mappings up to this many keys are checked for a repeated key pairwise. */
    private static final int FEW_KEYS = 8;

    /** The first of {@code tuples} before {@code end} whose key is {@code key} (all keys before it are names). */
    private static Node earlierKey(List<NodeTuple> tuples, int end, String key) {
        for (int j = 0; j < end; j++) {
            if (((ScalarNode) tuples.get(j).getKeyNode()).getValue().equals(key)) {
                return tuples.get(j).getKeyNode();
            }
        }
        return null;
    }

    /** A value short enough to quote in a message. */
    static String abbreviated(String value) {
        String shown = value.length() <= 60 ? value : value.substring(0, 57) + "...";
        return org.rdmasim.importers.PrintableText.escaped(shown);
    }

    public String file() {
        return file;
    }

    public String path() {
        String p = fieldPath();
        return p.isEmpty() ? "(top level)" : p;
    }

    public int line() {
        return node.getStartMark() == null ? 0 : node.getStartMark().getLine() + 1;
    }

    public int column() {
        return node.getStartMark() == null ? 0 : node.getStartMark().getColumn() + 1;
    }

    /** An error located at this value. */
    public ScenarioException error(String message) {
        return new ScenarioException(origin(), line(), column(), path() + ": " + message);
    }

    /**
     * The file this value was written in: the tree's own file, or for a value laid over it from another
     * file ({@link #placedAt}) that file, so a message points at the line the user wrote.
     */
    public String origin() {
        Mark m = node.getStartMark();
        if (m != null && m.getName() != null && m.getName().startsWith(ORIGIN)) {
            return m.getName().substring(ORIGIN.length());
        }
        return file;
    }

    /** Marks the name of a node copied from another file with this prefix and that file's name. */
    private static final String ORIGIN = "rdmasim-origin:";

    /**
     * A mapping that holds {@code value} at the field path {@code keys} (outermost first), to be laid
     * over a tree of another file with {@link #overlay}. The keys are located where {@code keyAt} was
     * written and the value where it was written, both remembering their own file ({@link #origin}).
     */
    public static YamlTree placedAt(List<String> keys, YamlTree keyAt, YamlTree value) {
        if (keys.isEmpty()) {
            throw new IllegalArgumentException("a field path needs at least one name");
        }
        Node inner = relocated(value.node, value.file);
        Mark at = relabel(keyAt.node.getStartMark(), keyAt.file);
        Mark end = relabel(keyAt.node.getEndMark(), keyAt.file);
        for (int i = keys.size() - 1; i >= 0; i--) {
            ScalarNode k = new ScalarNode(org.yaml.snakeyaml.nodes.Tag.STR, keys.get(i), at, end,
                    org.yaml.snakeyaml.DumperOptions.ScalarStyle.PLAIN);
            inner = new MappingNode(org.yaml.snakeyaml.nodes.Tag.MAP, false, List.of(new NodeTuple(k, inner)), at, end,
                    org.yaml.snakeyaml.DumperOptions.FlowStyle.BLOCK);
        }
        return new YamlTree(value.file, inner, "");
    }

    /** A single value {@code text}, located where this value was written (a value a range stands for). */
    public YamlTree withText(String text) {
        return new YamlTree(file, new ScalarNode(org.yaml.snakeyaml.nodes.Tag.STR, text, node.getStartMark(),
                node.getEndMark(), org.yaml.snakeyaml.DumperOptions.ScalarStyle.PLAIN), fieldPath());
    }

    /** The text of a single value as written, or a compact rendering of a list or mapping. */
    public String written() {
        return written(node);
    }

    private static String written(Node n) {
        if (n instanceof ScalarNode s) {
            return s.getValue();
        }
        if (n instanceof SequenceNode q) {
            List<String> parts = new ArrayList<>();
            q.getValue().forEach(x -> parts.add(written(x)));
            return "[" + String.join(", ", parts) + "]";
        }
        List<String> parts = new ArrayList<>();
        for (NodeTuple t : ((MappingNode) n).getValue()) {
            parts.add(written(t.getKeyNode()) + ": " + written(t.getValueNode()));
        }
        return "{" + String.join(", ", parts) + "}";
    }

    private static Mark relabel(Mark m, String file) {
        if (m == null || (m.getName() != null && m.getName().startsWith(ORIGIN))) {
            return m;
        }
        return new Mark(ORIGIN + file, m.getIndex(), m.getLine(), m.getColumn(), m.getBuffer(), m.getPointer());
    }

    /** A copy of {@code n} whose marks name {@code file}. */
    private static Node relocated(Node n, String file) {
        Mark s = relabel(n.getStartMark(), file);
        Mark e = relabel(n.getEndMark(), file);
        if (n instanceof ScalarNode v) {
            return new ScalarNode(v.getTag(), v.getValue(), s, e, v.getScalarStyle());
        }
        if (n instanceof SequenceNode q) {
            List<Node> items = new ArrayList<>();
            q.getValue().forEach(x -> items.add(relocated(x, file)));
            return new SequenceNode(q.getTag(), false, items, s, e, q.getFlowStyle());
        }
        MappingNode m = (MappingNode) n;
        List<NodeTuple> out = new ArrayList<>();
        for (NodeTuple t : m.getValue()) {
            out.add(new NodeTuple(relocated(t.getKeyNode(), file), relocated(t.getValueNode(), file)));
        }
        return new MappingNode(m.getTag(), false, out, s, e, m.getFlowStyle());
    }

    public boolean isMap() {
        return node instanceof MappingNode;
    }

    public boolean isList() {
        return node instanceof SequenceNode;
    }

    /** A literal ({@code |}) or folded ({@code >}) block, whose text starts on the next line. */
    public boolean isBlockScalar() {
        return node instanceof ScalarNode s && (s.getScalarStyle() == org.yaml.snakeyaml.DumperOptions.ScalarStyle.LITERAL
                || s.getScalarStyle() == org.yaml.snakeyaml.DumperOptions.ScalarStyle.FOLDED);
    }

    public boolean isScalar() {
        return node instanceof ScalarNode;
    }

    /** The entries of a mapping, in file order. */
    public Map<String, YamlTree> entries() {
        if (!(node instanceof MappingNode m)) {
            throw error("expected a mapping (key: value), got " + kind());
        }
        Map<String, YamlTree> out = new LinkedHashMap<>();
        for (NodeTuple t : m.getValue()) {
            if (!(t.getKeyNode() instanceof ScalarNode k)) {
                throw new YamlTree(file, t.getKeyNode(), fieldPath()).error("keys must be plain names");
            }
            out.put(k.getValue(), new YamlTree(this, t.getValueNode(), k.getValue(), -1));
        }
        return out;
    }

    /** Checks that a mapping has no field outside {@code allowed}; names the closest allowed one. */
    public YamlTree onlyFields(Set<String> allowed) {
        return onlyFields(allowed, Set.of());
    }

    /**
     * As {@link #onlyFields(Set)}, also accepting {@code carried}: keys the loader itself puts in the tree
     * (a variant's env carried beside the base one), which a user does not write and a message does not list.
     */
    public YamlTree onlyFields(Set<String> allowed, Set<String> carried) {
        if (!(node instanceof MappingNode m)) {
            throw error("expected a mapping (key: value), got " + kind());
        }
        for (NodeTuple t : m.getValue()) {
            String key = ((ScalarNode) t.getKeyNode()).getValue();
            if (!allowed.contains(key) && !carried.contains(key)) {
                YamlTree k = new YamlTree(this, t.getKeyNode(), key, -1);
                throw k.error("unknown field '" + key + "'" + suggestion(key, allowed) + "; allowed: "
                        + String.join(", ", new java.util.TreeSet<>(allowed)));
            }
        }
        return this;
    }

    /**
     * " (did you mean 'x'?)" for the name in {@code allowed} nearest to {@code key}, or "" when none is near: the
     * scenario reader's one suggestion, for a misspelt field name and for an enumerated value outside its words
     * ({@link #notOneOf}). Names are compared ignoring case, '-', '_' and spaces ({@code leastloaded},
     * {@code Least_Loaded} and {@code least-loaded} are one name), then by edit distance, near meaning at most
     * max(2, a third of the name); ties go to the alphabetically first.
     */
    public static String suggestion(String key, java.util.Collection<String> allowed) {
        String k = normalised(key);
        String best = null;
        int bestD = Integer.MAX_VALUE;
        for (String a : allowed) {
            int d = KnownVariables.editDistance(k, normalised(a));
            if (d < bestD || d == bestD && best != null && a.compareTo(best) < 0) {
                bestD = d;
                best = a;
            }
        }
        return best != null && !best.equals(key) && bestD <= Math.max(2, k.length() / 3)
                ? " (did you mean '" + best + "'?)" : "";
    }

    private static String normalised(String name) {
        return name.toLowerCase(java.util.Locale.ROOT).replaceAll("[-_\\s]", "");
    }

    /**
     * The refusal of an enumerated value outside its words: "expected {@code what}, got 'TEXT'" and the word of
     * {@code choices} nearest to it ({@link #suggestion}).
     */
    public ScenarioException notOneOf(String what, java.util.Collection<String> choices) {
        String t = text();
        return error("expected " + what + ", got '" + t + "'" + suggestion(t.trim(), choices));
    }

    public boolean has(String field) {
        return isMap() && getOrNull(field) != null;
    }

    public YamlTree get(String field) {
        YamlTree v = getOrNull(field);
        if (v == null) {
            throw error("missing required field '" + field + "'");
        }
        return v;
    }

    /** The field {@code field} of this mapping, or null; found by a scan, as a mapping has a handful of fields. */
    public YamlTree getOrNull(String field) {
        if (!(node instanceof MappingNode m)) {
            return entries().get(field); // the same error entries() gives
        }
        for (NodeTuple t : m.getValue()) {
            if (!(t.getKeyNode() instanceof ScalarNode k)) {
                return entries().get(field);
            }
            if (k.getValue().equals(field)) {
                // keys are unique (checked when parsed): the first match is the only one
                return new YamlTree(this, t.getValueNode(), field, -1);
            }
        }
        return null;
    }

    public List<YamlTree> items() {
        if (!(node instanceof SequenceNode s)) {
            throw error("expected a list, got " + kind());
        }
        List<YamlTree> out = new ArrayList<>();
        int i = 0;
        for (Node n : s.getValue()) {
            out.add(new YamlTree(this, n, null, i++));
        }
        return out;
    }

    public String text() {
        if (!(node instanceof ScalarNode s)) {
            throw error("expected a single value, got " + kind());
        }
        return s.getValue();
    }

    public String string(String field, String fallback) {
        YamlTree v = getOrNull(field);
        return v == null ? fallback : v.text();
    }

    public double number() {
        String t = text().trim();
        double d;
        try {
            d = Double.parseDouble(t.replace("_", ""));
        } catch (NumberFormatException e) {
            throw error("expected a number, got '" + abbreviated(t) + "'");
        }
        if (!Double.isFinite(d)) {
            throw error("expected a finite number, got '" + abbreviated(t) + "'");
        }
        return d;
    }

    public long integer() {
        String t = text().trim();
        try {
            return Long.parseLong(t.replace("_", ""));
        } catch (NumberFormatException e) {
            // the caller checks its own range (1 to 1000000 hosts...): the long's limits would only confuse here,
            // so they are named only when the digits overflow it
            boolean digits = t.replace("_", "").matches("[+-]?[0-9]+");
            throw error("expected a whole number" + (digits ? " below 2^63" : "") + ", got '"
                    + abbreviated(t) + "'");
        }
    }

    public boolean bool() {
        String t = text().trim().toLowerCase(java.util.Locale.ROOT);
        return switch (t) {
            case "true", "yes", "on" -> true;
            case "false", "no", "off" -> false;
            default -> throw notOneOf("true or false", java.util.List.of("true", "false"));
        };
    }

    private String kind() {
        if (node instanceof MappingNode) {
            return "a mapping";
        }
        if (node instanceof SequenceNode) {
            return "a list";
        }
        String value = ((ScalarNode) node).getValue();
        if (fieldPath().isEmpty()) {
            // A whole file that is one value is not a scenario (a password file, a key, an env file):
            // its kind is said, its content is not shown.
            return "a single text value of " + value.length() + " characters (not shown: the file is not a scenario)";
        }
        return "'" + abbreviated(value) + "'";
    }

    /**
     * This mapping with {@code override}'s fields laid over it: mappings merge field by field, lists
     * and single values are replaced. Every value keeps the location it was written at.
     */
    public YamlTree overlay(YamlTree override) {
        Map<Node, String> written = new java.util.IdentityHashMap<>();
        if (writtenAt != null) {
            written.putAll(writtenAt);
        }
        if (override.writtenAt != null) {
            written.putAll(override.writtenAt);
        }
        return new YamlTree(file, merge(node, override.node, override.fieldPath(), written), fieldPath(), written);
    }

    /** This mapping reduced to its single field {@code key} (still located where it was written). */
    public YamlTree onlyKey(String key) {
        if (!(node instanceof MappingNode m)) {
            throw error("expected a mapping");
        }
        List<NodeTuple> kept = new ArrayList<>();
        for (NodeTuple t : m.getValue()) {
            if (((ScalarNode) t.getKeyNode()).getValue().equals(key)) {
                kept.add(t);
            }
        }
        return new YamlTree(file, new MappingNode(m.getTag(), false, kept, m.getStartMark(), m.getEndMark(), m.getFlowStyle()), fieldPath(),
                writtenAt);
    }

    /** This mapping without the fields in {@code keys} (the rest still located where it was written). */
    public YamlTree without(Set<String> keys) {
        if (!(node instanceof MappingNode m)) {
            throw error("expected a mapping");
        }
        List<NodeTuple> kept = new ArrayList<>();
        for (NodeTuple t : m.getValue()) {
            if (!keys.contains(((ScalarNode) t.getKeyNode()).getValue())) {
                kept.add(t);
            }
        }
        return new YamlTree(file, new MappingNode(m.getTag(), false, kept, m.getStartMark(), m.getEndMark(), m.getFlowStyle()), fieldPath(),
                writtenAt);
    }

    /**
     * This mapping with its field {@code child}'s own field {@code from} renamed {@code to} (values and
     * their locations unchanged). Used to carry a variant's env block beside the base one.
     */
    public YamlTree renamedIn(String child, String from, String to) {
        if (!(node instanceof MappingNode m)) {
            throw error("expected a mapping");
        }
        // messages name the renamed value where the user wrote it, under its own name
        Map<Node, String> written = new java.util.IdentityHashMap<>();
        if (writtenAt != null) {
            written.putAll(writtenAt);
        }
        List<NodeTuple> out = new ArrayList<>();
        for (NodeTuple t : m.getValue()) {
            String key = ((ScalarNode) t.getKeyNode()).getValue();
            if (key.equals(child) && t.getValueNode() instanceof MappingNode inner) {
                List<NodeTuple> renamed = new ArrayList<>();
                for (NodeTuple u : inner.getValue()) {
                    ScalarNode k = (ScalarNode) u.getKeyNode();
                    if (k.getValue().equals(from)) {
                        written.put(u.getValueNode(), under(under(fieldPath(), child), from));
                    }
                    renamed.add(k.getValue().equals(from)
                            ? new NodeTuple(new ScalarNode(k.getTag(), to, k.getStartMark(), k.getEndMark(), k.getScalarStyle()),
                                    u.getValueNode())
                            : u);
                }
                out.add(new NodeTuple(t.getKeyNode(), new MappingNode(inner.getTag(), false, renamed, inner.getStartMark(), inner.getEndMark(), inner.getFlowStyle())));
            } else {
                out.add(t);
            }
        }
        return new YamlTree(file, new MappingNode(m.getTag(), false, out, m.getStartMark(), m.getEndMark(), m.getFlowStyle()), fieldPath(),
                written);
    }

    /** The same value seen under another field path (used when a variant's tree is read). */
    public YamlTree at(String newPath) {
        return new YamlTree(file, node, newPath);
    }

    /**
     * {@code over} laid on {@code base}; each value taken whole from {@code over} is recorded in {@code written} at
     * its path under {@code overPath}, the override's own field path (a value already there keeps its entry).
     */
    private static Node merge(Node base, Node over, String overPath, Map<Node, String> written) {
        if (base instanceof MappingNode b && over instanceof MappingNode o) {
            List<NodeTuple> out = new ArrayList<>();
            Map<String, NodeTuple> overByKey = new LinkedHashMap<>();
            for (NodeTuple t : o.getValue()) {
                overByKey.put(((ScalarNode) t.getKeyNode()).getValue(), t);
            }
            for (NodeTuple t : b.getValue()) {
                String key = ((ScalarNode) t.getKeyNode()).getValue();
                NodeTuple ov = overByKey.remove(key);
                out.add(ov == null ? t : new NodeTuple(ov.getKeyNode(), merge(t.getValueNode(), ov.getValueNode(),
                        under(overPath, key), written)));
            }
            overByKey.forEach((key, t) -> written.putIfAbsent(t.getValueNode(), under(overPath, key)));
            out.addAll(overByKey.values());
            return new MappingNode(b.getTag(), false, out, b.getStartMark(), b.getEndMark(), b.getFlowStyle());
        }
        if (!overPath.isEmpty()) {
            written.putIfAbsent(over, overPath);
        }
        return over;
    }

    private static String under(String path, String key) {
        return path.isEmpty() ? key : path + "." + key;
    }
}
