package org.rdmasim.layering;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.spi.ToolProvider;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Packages depend downward only, in main and in test code (DESIGN.md): cli -> validation, crosscheck
 * -> run -> report, scenario -> importers -> workload -> memory -> transport -> hardware -> fluid ->
 * engine. The edges are read from the compiled classes with the JDK's jdeps.
 */
class PackageLayeringTest {
    /** Layer of each top-level package: a package may depend only on packages of a lower layer. */
    static final Map<String, Integer> LAYER = Map.ofEntries(Map.entry("engine", 0), Map.entry("fluid", 1),
            Map.entry("hardware", 2), Map.entry("transport", 3), Map.entry("memory", 4), Map.entry("workload", 5),
            Map.entry("importers", 6), Map.entry("scenario", 7), Map.entry("report", 7), Map.entry("run", 8),
            Map.entry("validation", 9), Map.entry("crosscheck", 9), Map.entry("cli", 10), Map.entry("layering", 10),
            Map.entry("fuzz", 10));

    /**
     * Edges against the rule that are known and not yet mended, each with why. The test fails on any
     * other upward or sideways edge, and on an allowance that no longer occurs (so the list shrinks).
     */
    static final Set<String> KNOWN = Set.of();

    @Test
    void everyEdgeGoesDownOrIsAKnownAllowance() throws Exception {
        Path main = Path.of("target/classes");
        Path test = Path.of("target/test-classes");
        assertTrue(Files.isDirectory(main) && Files.isDirectory(test), "compiled classes are needed");
        Set<String> mainEdges = edges(main, null);
        Set<String> testEdges = edges(test, main);
        testEdges.removeAll(mainEdges);
        List<String> bad = new ArrayList<>();
        Set<String> seen = new TreeSet<>();
        for (String e : mainEdges) {
            check(e, e, bad, seen);
        }
        for (String e : testEdges) {
            check(e, "test: " + e, bad, seen);
        }
        assertEquals(List.of(), bad, "package edges against the layering (DESIGN.md)");
        Set<String> stale = new TreeSet<>(KNOWN);
        stale.removeAll(seen);
        assertEquals(Set.of(), stale, "allowances that no longer occur: remove them");
    }

    @Test
    void subpackagesOfOneLayerFormNoCycle() throws Exception {
        Set<String> all = edges(Path.of("target/classes"), null);
        Map<String, Set<String>> out = new HashMap<>();
        for (String e : all) {
            String[] ab = e.split(" -> ");
            out.computeIfAbsent(ab[0], k -> new TreeSet<>()).add(ab[1]);
        }
        List<String> cycles = new ArrayList<>();
        for (String e : all) {
            String[] ab = e.split(" -> ");
            if (out.getOrDefault(ab[1], Set.of()).contains(ab[0]) && ab[0].compareTo(ab[1]) < 0) {
                cycles.add(ab[0] + " <-> " + ab[1]);
            }
        }
        assertEquals(List.of(), cycles);
    }

    private static void check(String edge, String key, List<String> bad, Set<String> seen) {
        String[] ab = edge.split(" -> ");
        int from = layer(ab[0]);
        int to = layer(ab[1]);
        if (top(ab[0]).equals(top(ab[1])) || from > to) {
            return;
        }
        if (KNOWN.contains(key)) {
            seen.add(key);
        } else {
            bad.add(key);
        }
    }

    private static String top(String pkg) {
        return pkg.split("\\.")[2];
    }

    private static int layer(String pkg) {
        Integer l = LAYER.get(top(pkg));
        if (l == null) {
            throw new AssertionError("package " + pkg + " has no layer in PackageLayeringTest.LAYER");
        }
        return l;
    }

    /** Package edges among org.rdmasim packages of the classes in {@code dir}. */
    private static Set<String> edges(Path dir, Path classpath) {
        ToolProvider jdeps = ToolProvider.findFirst("jdeps").orElseThrow(() -> new AssertionError("no jdeps in this JDK"));
        StringWriter out = new StringWriter();
        List<String> args = new ArrayList<>(List.of("-verbose:package", "-filter:none"));
        if (classpath != null) {
            args.addAll(List.of("-cp", classpath.toString()));
        }
        args.add(dir.toString());
        int code = jdeps.run(new PrintWriter(out), new PrintWriter(new StringWriter()), args.toArray(new String[0]));
        assertEquals(0, code, "jdeps failed");
        Pattern p = Pattern.compile("^\\s+(org\\.rdmasim\\S*)\\s+->\\s+(org\\.rdmasim\\S*)", Pattern.MULTILINE);
        Set<String> edges = new TreeSet<>();
        Matcher m = p.matcher(out.toString());
        while (m.find()) {
            if (!m.group(1).equals(m.group(2))) {
                edges.add(m.group(1) + " -> " + m.group(2));
            }
        }
        return edges;
    }
}
