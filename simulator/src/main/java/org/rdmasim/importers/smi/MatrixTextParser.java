package org.rdmasim.importers.smi;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.rdmasim.hardware.PathType;
import org.rdmasim.importers.ImportException;
import org.rdmasim.importers.ImportWarning;
import org.rdmasim.importers.InputLimits;

/**
 * Reads the text {@code nvidia-smi topo -m} prints: a header row of device labels followed by the
 * affinity columns, one row per device, the "Legend:" block, and the "NIC Legend:" block that maps
 * NIC0.. to RDMA device names. Works on the tab-separated original (with or without the ANSI
 * underline a terminal gets) and on the space-padded form {@link org.rdmasim.hardware.TopoMatrix}
 * prints; older drivers that label NIC columns mlx5_N directly are read too, as is their {@code SOC}
 * (the name of {@code SYS} before driver 384). Text around the output is skipped: shell prompts, the
 * command line, other tools' output, terminal escapes; where it names the GPU product ({@code
 * nvidia-smi -L}, {@code -q}, the default table) the product is kept. Rows printed with tabs are split on
 * tabs, so an empty cell (a CPU Affinity nvidia-smi could not tell) stays in its column; rows whose
 * tabs were turned into spaces are aligned by what each value can be, with a warning.
 *
 * <p>Why one class of this size: the layouts nvidia-smi has printed differ in small ways (legends, NIC
 * columns, affinity columns, tabs turned to spaces); one parser keeps each variant next to the others
 * it must not break.
 */
final class MatrixTextParser {
    /** Terminal escapes: CSI sequences (colours, underline, cursor moves), OSC titles, charset switches. */
    private static final Pattern ANSI = Pattern.compile("\u001B\\[[0-9;?]*[ -/]*[@-~]|\u001B\\][^\u0007\u001B]*(\u0007|\u001B\\\\)|\u001B[()][0-9A-Za-z]|\u001B[=>]");
    /** Where text around the matrix names the GPU product: nvidia-smi -q, nvidia-smi -L, the default table, env reports. */
    private static final List<Pattern> PRODUCT = List.of(
            Pattern.compile("\\s*Product Name\\s*:\\s*(.+?)\\s*"),
            Pattern.compile("\\s*GPU \\d+: (.+?) \\(UUID:.*"),
            Pattern.compile("\\|\\s+\\d+\\s+((?:NVIDIA|Tesla|Quadro) .+?)\\s+(?:On|Off)\\s+\\|.*"),
            Pattern.compile("\\s*GPU [\\d,]+: ((?:NVIDIA|Tesla|Quadro) .+?)\\s*"));
    private static final Pattern CPU_LIST = Pattern.compile("N/A|\\d{1,6}(-\\d{1,6})?(,\\d{1,6}(-\\d{1,6})?)*");
    private static final Pattern NUMA_ID = Pattern.compile("N/A|\\d{1,6}");
    private static final Pattern GPU_LABEL = Pattern.compile("GPU(\\d+)");
    private static final Pattern NIC_LABEL = Pattern.compile("NIC(\\d+)");
    private static final Pattern NV = Pattern.compile("NV(\\d+)");
    private static final Pattern LEGEND_ENTRY = Pattern.compile("\\s*(NIC\\d+)\\s*:\\s*(\\S+)\\s*");
    private static final Pattern AFFINITY_LIKE = Pattern.compile("N/A|\\d[\\d,\\-]*");
    /** The columns nvidia-smi prints after the matrix, in the order it prints them. */
    private static final List<String> TRAILING = List.of("CPU Affinity", "NUMA Affinity", "GPU NUMA ID");
    static final String CELLS = "one of X, NV#, PIX, PXB, PHB, NODE, SYS (or the older SOC)";

    private final String source;
    private final List<String> lines;
    private final List<ImportWarning> warnings;

    private MatrixTextParser(String text, String source, List<ImportWarning> warnings) {
        this.source = source;
        this.warnings = warnings;
        this.lines = new ArrayList<>();
        for (String l : text.split("\n", -1)) {
            lines.add(ANSI.matcher(l.replace("\r", "")).replaceAll(""));
        }
    }

    /** More NVLinks than any GPU has; a larger count is a damaged matrix, not a faster one. */
    static final int MAX_NVLINKS = 64;

    static ParsedMatrix parse(String text, String source) {
        return parse(text, source, new ArrayList<>());
    }

    static ParsedMatrix parse(String text, String source, List<ImportWarning> warnings) {
        InputLimits.check(text).ifPresent(v -> {
            throw new ImportException(source, v.line(), v.problem(), "the output of nvidia-smi topo -m");
        });
        return new MatrixTextParser(text, source, warnings).parse();
    }

    private ParsedMatrix parse() {
        int h = findHeader();
        List<String> headerTokens = tokens(lines.get(h));
        List<String> labels = new ArrayList<>();
        int t = 0;
        while (t < headerTokens.size() && !startsTrailing(headerTokens, t)) {
            labels.add(headerTokens.get(t++));
        }
        List<String> trailing = trailingColumns(String.join(" ", headerTokens.subList(t, headerTokens.size())), h);
        checkLabels(labels, h);
        int n = labels.size();

        Map<String, Integer> column = new HashMap<>();
        for (int i = 0; i < n; i++) {
            column.put(labels.get(i), i);
        }
        // Rows run until the first blank line, the legend, or a line that is no matrix row (a prompt).
        List<Integer> rowLines = new ArrayList<>();
        int r = h + 1;
        for (; r < lines.size(); r++) {
            String l = lines.get(r).trim();
            if (l.isEmpty() || l.startsWith("Legend")) {
                break;
            }
            List<String> tok = tokens(l);
            if (!column.containsKey(tok.get(0)) && (tok.size() < 2 || cell(tok.get(1)) == null)) {
                break;
            }
            rowLines.add(r);
        }
        for (int k = 0; k < rowLines.size(); k++) {
            String label = tokens(lines.get(rowLines.get(k))).get(0);
            if (!column.containsKey(label)) {
                throw error(h, "the header has no column " + label + " (its row is line " + (rowLines.get(k) + 1) + ")",
                        "a header column for every row: " + String.join(" ", labels) + " " + label);
            }
            if (k >= n || !labels.get(k).equals(label)) {
                throw error(rowLines.get(k), "row " + label + " is out of place",
                        "rows in header order, this one being " + (k < n ? labels.get(k) : "none"));
            }
        }
        if (rowLines.size() < n) {
            throw error(rowLines.isEmpty() ? h : rowLines.get(rowLines.size() - 1),
                    "no row for column " + labels.get(rowLines.size()), "one row per header column");
        }

        PathType[][] rel = new PathType[n][n];
        int[][] nv = new int[n][n];
        List<String> affinity = new ArrayList<>();
        List<Integer> numa = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int line = rowLines.get(i);
            List<String> values = rowValues(lines.get(line));
            int cells = 0;
            while (cells < values.size() && cell(values.get(cells)) != null) {
                cells++;
            }
            if (cells < n && cells < values.size() && !AFFINITY_LIKE.matcher(values.get(cells)).matches()) {
                throw error(line, (values.get(cells).isEmpty() ? "empty cell" : "unknown cell value '" + values.get(cells) + "'")
                        + " in row " + labels.get(i) + ", column " + labels.get(cells), CELLS);
            }
            if (cells != n) {
                throw error(line, "row " + labels.get(i) + " has " + cells + " relation cells",
                        n + ", one per column " + labels.get(0) + " ... " + labels.get(n - 1));
            }
            List<String> after = trailingValues(values.subList(n, values.size()), trailing, line, labels.get(i),
                    lines.get(line).indexOf('\t') >= 0);
            for (int j = 0; j < n; j++) {
                String c = values.get(j);
                Matcher m = NV.matcher(c);
                if (m.matches()) {
                    rel[i][j] = PathType.NV;
                    nv[i][j] = smallCount(m.group(1));
                    if (nv[i][j] < 1 || nv[i][j] > MAX_NVLINKS) {
                        throw error(line, "cell " + labels.get(i) + "/" + labels.get(j) + " counts "
                                + (m.group(1).length() > 12 ? m.group(1).substring(0, 12) + "..." : m.group(1)) + " NVLinks",
                                "NV1 to NV" + MAX_NVLINKS + " (an H100 SXM has 18 NVLinks)");
                    }
                } else {
                    rel[i][j] = cell(c);
                }
                if ((rel[i][j] == PathType.X) != (i == j)) {
                    throw error(line, "cell " + labels.get(i) + "/" + labels.get(j) + " is " + c,
                            i == j ? "X on the diagonal" : "X only on the diagonal");
                }
            }
            String cpu = "";
            int node = -1;
            for (int k = 0; k < after.size(); k++) {
                String v = after.get(k);
                if (trailing.get(k).equals("CPU Affinity") && !v.equals("N/A")) {
                    cpu = v;
                } else if (trailing.get(k).equals("NUMA Affinity") && v.matches("\\d{1,6}")) {
                    node = Integer.parseInt(v);
                }
            }
            affinity.add(cpu);
            numa.add(node);
        }
        checkSymmetry(labels, rel, nv, rowLines);

        Map<String, String> legend = nicLegend(r);
        List<ParsedMatrix.Device> devices = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String label = labels.get(i);
            boolean gpu = GPU_LABEL.matcher(label).matches();
            String name = label;
            if (!gpu && NIC_LABEL.matcher(label).matches()) {
                if (legend.isEmpty()) {
                    name = "mlx5_" + label.substring(3); // no legend: the name nvidia-smi's NICn stands for on mlx5 hosts
                } else if (!legend.containsKey(label)) {
                    throw error(legendLine(r), "the NIC Legend does not name " + label, "an entry \"" + label + ": mlx5_N\"");
                } else {
                    name = legend.get(label);
                }
            }
            if (gpu) {
                for (int j = 0; j < n; j++) {
                    if (rel[i][j] == PathType.NV && GPU_LABEL.matcher(labels.get(j)).matches() == false) {
                        throw error(rowLines.get(i), "cell " + label + "/" + labels.get(j) + " is NV" + nv[i][j],
                                "NV# only between two GPUs");
                    }
                }
            }
            devices.add(new ParsedMatrix.Device(label, name, gpu, rowLines.get(i) + 1, affinity.get(i), numa.get(i)));
        }
        for (String l : legend.keySet()) {
            if (!column.containsKey(l)) {
                throw error(legendLine(r), "the NIC Legend names " + l + ", which has no column", "legend entries for header columns only");
            }
        }
        String product = null;
        int productLine = 0;
        for (int i = 0; i < lines.size(); i++) {
            if (i >= h && i < r) { // the header and the rows; r is the first line after them
                continue;
            }
            for (Pattern p : PRODUCT) {
                Matcher pm = p.matcher(lines.get(i));
                if (pm.matches()) {
                    String named = pm.group(1).trim();
                    if (product == null) {
                        product = named;
                        productLine = i + 1;
                    } else if (!product.equals(named)) {
                        warnings.add(new ImportWarning(source, i + 1, "GPU product '" + named + "' differs from '" + product
                                + "' at line " + productLine + ": every GPU is taken as the first"));
                    }
                    break;
                }
            }
        }
        return new ParsedMatrix(source, h + 1, List.copyOf(devices), rel, nv, product, productLine);
    }

    /** A row's fields after its label: split on tabs when it has them (empty fields kept), else on blanks. */
    private static List<String> rowValues(String line) {
        if (line.indexOf('\t') < 0) {
            List<String> tok = tokens(line);
            return tok.subList(1, tok.size());
        }
        List<String> fields = new ArrayList<>();
        for (String f : line.split("\t", -1)) {
            fields.add(f.trim());
        }
        while (!fields.isEmpty() && fields.get(0).isEmpty()) {
            fields.remove(0);
        }
        while (!fields.isEmpty() && fields.get(fields.size() - 1).isEmpty()) {
            fields.remove(fields.size() - 1);
        }
        return fields.isEmpty() ? fields : fields.subList(1, fields.size());
    }

    /**
     * The values after the matrix, one per header column (empty where the row has none). Tab-separated
     * rows are positional; nvidia-smi puts one tab too many before GPU NUMA ID, so surplus empty fields
     * are dropped from the right. Blank-separated rows with fewer values than columns are aligned so each
     * value fits its column (a CPU list, a NUMA id), preferring an empty CPU Affinity, with a warning.
     */
    private List<String> trailingValues(List<String> values, List<String> columns, int line, String label, boolean tabs) {
        List<String> v = new ArrayList<>(values);
        if (tabs) {
            for (int k = v.size() - 1; k >= 0 && v.size() > columns.size(); k--) {
                if (v.get(k).isEmpty()) {
                    v.remove(k);
                }
            }
        }
        if (v.size() > columns.size()) {
            throw error(line, "row " + label + " has " + v.size() + " values after the matrix",
                    "at most " + columns.size() + " (" + (columns.isEmpty() ? "the header names none" : String.join(", ", columns)) + ")");
        }
        if (tabs || v.isEmpty() || v.size() == columns.size()) {
            while (v.size() < columns.size()) {
                v.add("");
            }
            for (int k = 0; k < v.size(); k++) {
                if (!v.get(k).isEmpty() && !fits(columns.get(k), v.get(k))) {
                    throw error(line, "row " + label + " has '" + v.get(k) + "' under " + columns.get(k),
                            columns.get(k).equals("CPU Affinity") ? "a CPU list such as 0-55,112-167, or N/A" : "a NUMA node number, or N/A");
                }
            }
            return v;
        }
        // Fewer values than columns, blanks only: try leaving out each set of columns, empty CPU Affinity first.
        List<List<String>> tries = new ArrayList<>();
        for (int mask = 0; mask < (1 << columns.size()); mask++) {
            if (Integer.bitCount(mask) == columns.size() - v.size()) {
                List<String> aligned = new ArrayList<>();
                int next = 0;
                boolean ok = true;
                for (int k = 0; k < columns.size(); k++) {
                    if ((mask & (1 << k)) != 0) {
                        aligned.add("");
                    } else {
                        ok &= fits(columns.get(k), v.get(next));
                        aligned.add(v.get(next++));
                    }
                }
                if (ok) {
                    tries.add(aligned);
                }
            }
        }
        if (tries.isEmpty()) {
            throw error(line, "row " + label + " has values " + String.join(" ", v) + " that fit no order of the columns "
                    + String.join(", ", columns), "a CPU list and NUMA node numbers in header order");
        }
        List<String> chosen = tries.get(0);
        List<String> read = new ArrayList<>();
        for (int k = 0; k < columns.size(); k++) {
            read.add(columns.get(k) + " " + (chosen.get(k).isEmpty() ? "empty" : chosen.get(k)));
        }
        warnings.add(new ImportWarning(source, line + 1, "row " + label + " has " + v.size() + " values for "
                + columns.size() + " columns and no tabs to place them: read as " + String.join(", ", read)));
        return chosen;
    }

    private static boolean fits(String column, String value) {
        return column.equals("CPU Affinity") ? CPU_LIST.matcher(value).matches() : NUMA_ID.matcher(value).matches();
    }

    private int findHeader() {
        for (int i = 0; i < lines.size(); i++) {
            List<String> tok = tokens(lines.get(i));
            if (!tok.isEmpty() && (tok.get(0).equals("GPU0") || tok.get(0).equals("NIC0") || tok.get(0).startsWith("mlx5_"))) {
                return i;
            }
        }
        throw error(0, "no header row found", "a header row naming the columns: GPU0 GPU1 ... NIC0 ... CPU Affinity NUMA Affinity");
    }

    private static boolean startsTrailing(List<String> tokens, int t) {
        String rest = String.join(" ", tokens.subList(t, tokens.size()));
        return TRAILING.stream().anyMatch(rest::startsWith);
    }

    private List<String> trailingColumns(String text, int h) {
        List<String> out = new ArrayList<>();
        String rest = text.trim();
        while (!rest.isEmpty()) {
            String found = null;
            for (String c : TRAILING) {
                if (rest.startsWith(c)) {
                    found = c;
                }
            }
            if (found == null) {
                throw error(h, "unknown header column '" + rest + "'", "device labels then " + String.join(", ", TRAILING));
            }
            out.add(found);
            rest = rest.substring(found.length()).trim();
        }
        return out;
    }

    private void checkLabels(List<String> labels, int h) {
        if (labels.isEmpty()) {
            throw error(h, "the header names no device", "GPU0 ... NIC0 ...");
        }
        int gpus = 0;
        boolean nicSeen = false;
        for (String l : labels) {
            Matcher g = GPU_LABEL.matcher(l);
            if (g.matches()) {
                if (nicSeen || smallCount(g.group(1)) != gpus) {
                    throw error(h, "column " + l + " is out of order", "GPU columns GPU0, GPU1, ... in order, before the NIC columns");
                }
                gpus++;
            } else {
                nicSeen = true;
            }
        }
        if (labels.stream().distinct().count() != labels.size()) {
            throw error(h, "a column label appears twice", "each device once");
        }
    }

    private void checkSymmetry(List<String> labels, PathType[][] rel, int[][] nv, List<Integer> rowLines) {
        for (int i = 0; i < rel.length; i++) {
            for (int j = 0; j < i; j++) {
                if (rel[i][j] != rel[j][i] || nv[i][j] != nv[j][i]) {
                    throw error(rowLines.get(i), "cell " + labels.get(i) + "/" + labels.get(j) + " is " + show(rel[i][j], nv[i][j])
                            + " but " + labels.get(j) + "/" + labels.get(i) + " (line " + (rowLines.get(j) + 1) + ") is "
                            + show(rel[j][i], nv[j][i]), "the same relation both ways");
                }
            }
        }
    }

    static String show(PathType t, int nv) {
        return t == PathType.NV ? "NV" + nv : t.name();
    }

    /** NIC label to device name from the "NIC Legend:" block; empty when the file has none. */
    private Map<String, String> nicLegend(int from) {
        Map<String, String> out = new LinkedHashMap<>();
        Map<String, Integer> lineOfLabel = new HashMap<>();
        Map<String, String> labelOfName = new HashMap<>();
        int start = legendLine(from);
        if (start < 0) {
            return out;
        }
        for (int i = start + 1; i < lines.size(); i++) {
            String l = lines.get(i);
            if (l.isBlank()) {
                continue;
            }
            Matcher m = LEGEND_ENTRY.matcher(l);
            if (!m.matches()) {
                break;
            }
            String label = m.group(1);
            String name = m.group(2);
            if (out.containsKey(label)) {
                throw error(i, "the NIC Legend names " + label + " twice (" + out.get(label) + " at line "
                        + (lineOfLabel.get(label) + 1) + ", " + name + " here)", "one entry per NIC");
            }
            if (labelOfName.containsKey(name)) {
                throw error(i, "the NIC Legend gives " + name + " to " + labelOfName.get(name) + " and to " + label,
                        "a different device name for each NIC");
            }
            out.put(label, name);
            lineOfLabel.put(label, i);
            labelOfName.put(name, label);
        }
        return out;
    }

    private int legendLine(int from) {
        for (int i = Math.max(from, 0); i < lines.size(); i++) {
            if (lines.get(i).trim().equals("NIC Legend:")) {
                return i;
            }
        }
        return -1;
    }

    private static PathType cell(String token) {
        if (NV.matcher(token).matches()) {
            return PathType.NV;
        }
        return switch (token) {
            case "X", "PIX", "PXB", "PHB", "NODE", "SYS" -> PathType.valueOf(token);
            case "SOC" -> PathType.SYS; // drivers before 384 printed SOC for what is now SYS
            default -> null;
        };
    }

    private static List<String> tokens(String line) {
        List<String> out = new ArrayList<>();
        for (String s : line.trim().split("[ \t]+")) {
            if (!s.isEmpty()) {
                out.add(s);
            }
        }
        return out;
    }

    /** An error at a 0-based line index. */
    /** A run of digits as an int, or -1 when it has more digits than any count here can. */
    private static int smallCount(String digits) {
        return digits.length() > 6 ? -1 : Integer.parseInt(digits);
    }

    private ImportException error(int index, String problem, String expected) {
        return new ImportException(source, index + 1, problem, expected);
    }
}
