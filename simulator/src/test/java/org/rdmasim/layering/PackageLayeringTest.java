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
 * Packages depend downward only, in main and in test code: cli -> validation, crosscheck -> run ->
 * report, scenario -> importers -> workload -> memory -> transport -> hardware -> fluid -> engine; and
 * no two sub-packages depend on each other through any chain (no cycle of any length, main and test
 * code read together). The edges are read from the compiled classes with the JDK's jdeps.
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
        assertEquals(List.of(), bad, "package edges against the layering");
        Set<String> stale = new TreeSet<>(KNOWN);
        stale.removeAll(seen);
        assertEquals(Set.of(), stale, "allowances that no longer occur: remove them");
    }

    @Test
    void noCycleOfAnyLengthAmongPackagesInMainAndTestCode() throws Exception {
        Set<String> all = new TreeSet<>(edges(Path.of("target/classes"), null));
        all.addAll(edges(Path.of("target/test-classes"), Path.of("target/classes")));
        assertEquals(List.of(), cycles(all), "package cycles (each a strongly connected component)");
    }

    @Test
    void theCycleCheckFindsAPlantedThreePackageCycleAndNothingInAChain() {
        Set<String> planted = Set.of("org.rdmasim.importers -> org.rdmasim.importers.nccl",
                "org.rdmasim.importers.nccl -> org.rdmasim.importers.smi",
                "org.rdmasim.importers.smi -> org.rdmasim.importers", "org.rdmasim.cli -> org.rdmasim.run");
        assertEquals(List.of("org.rdmasim.importers -> org.rdmasim.importers.nccl -> org.rdmasim.importers.smi"),
                cycles(planted));
        assertEquals(List.of(), cycles(Set.of("org.rdmasim.a -> org.rdmasim.b", "org.rdmasim.b -> org.rdmasim.c",
                "org.rdmasim.a -> org.rdmasim.c")));
    }

    @Test
    void everyPackageOfMainAndTestCodeHasALayer() throws Exception {
        List<String> unknown = new ArrayList<>();
        for (Path root : List.of(Path.of("target/classes"), Path.of("target/test-classes"))) {
            try (var files = Files.walk(root.resolve("org/rdmasim"))) {
                for (Path f : files.filter(f -> f.toString().endsWith(".class")).toList()) {
                    Path rel = root.resolve("org/rdmasim").relativize(f);
                    if (rel.getNameCount() < 2) {
                        continue;
                    }
                    String top = rel.getName(0).toString();
                    if (!LAYER.containsKey(top) && !unknown.contains(top)) {
                        unknown.add(top);
                    }
                }
            }
        }
        assertEquals(List.of(), unknown, "packages with no layer in PackageLayeringTest.LAYER");
    }

    /**
     * The strongly connected components of more than one package in the graph of {@code edges}
     * ({@code "a -> b"}), each as its packages in name order joined by " -> " (Tarjan's algorithm).
     */
    static List<String> cycles(Set<String> edges) {
        Map<String, Set<String>> out = new java.util.TreeMap<>();
        for (String e : edges) {
            String[] ab = e.split(" -> ");
            out.computeIfAbsent(ab[0], k -> new TreeSet<>()).add(ab[1]);
            out.computeIfAbsent(ab[1], k -> new TreeSet<>());
        }
        Map<String, Integer> index = new HashMap<>();
        Map<String, Integer> low = new HashMap<>();
        java.util.Deque<String> stack = new java.util.ArrayDeque<>();
        Set<String> onStack = new java.util.HashSet<>();
        List<String> found = new ArrayList<>();
        for (String v : out.keySet()) {
            if (!index.containsKey(v)) {
                strongConnect(v, out, index, low, stack, onStack, found);
            }
        }
        java.util.Collections.sort(found);
        return found;
    }

    private static void strongConnect(String v, Map<String, Set<String>> out, Map<String, Integer> index,
            Map<String, Integer> low, java.util.Deque<String> stack, Set<String> onStack, List<String> found) {
        index.put(v, index.size());
        low.put(v, index.get(v));
        stack.push(v);
        onStack.add(v);
        for (String w : out.get(v)) {
            if (!index.containsKey(w)) {
                strongConnect(w, out, index, low, stack, onStack, found);
                low.put(v, Math.min(low.get(v), low.get(w)));
            } else if (onStack.contains(w)) {
                low.put(v, Math.min(low.get(v), index.get(w)));
            }
        }
        if (low.get(v).equals(index.get(v))) {
            List<String> component = new ArrayList<>();
            String w;
            do {
                w = stack.pop();
                onStack.remove(w);
                component.add(w);
            } while (!w.equals(v));
            if (component.size() > 1) {
                java.util.Collections.sort(component);
                found.add(String.join(" -> ", component));
            }
        }
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
