package org.rdmasim.layering;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Packages depend downward only, in main and in test code (DESIGN.md, "Layout"): cli -> sweep ->
 * validation, crosscheck, sizing -> run -> report, scenario -> importers -> workload -> memory -> transport
 * -> hardware -> fluid -> engine; and no set of packages, sub-packages included, depends on itself
 * round a cycle of any length. The edges are read from the compiled classes with the JDK's jdeps.
 */
class PackageLayeringTest {
    /**
     * Layer of each top-level package: a package may depend only on packages of a lower layer. Every
     * package that has classes must be named here. {@code sweep} (studies: shards, merge, cluster jobs)
     * sits above {@code run}, whose variants it runs, and {@code report}, whose charts it draws, and below
     * {@code cli}, which prints its progress. {@code sizing} ({@code size}: the search for the smallest knob
     * setting that meets a target) sits beside {@code validation}: above {@code run}, whose variants it runs, and
     * {@code report}, whose charts it draws, and below {@code cli}, which parses its options and prints what it
     * hands back. {@code layering} and {@code fuzz} hold tests only and sit above everything.
     */
    static final Map<String, Integer> LAYER = Map.ofEntries(Map.entry("engine", 0), Map.entry("fluid", 1),
            Map.entry("hardware", 2), Map.entry("transport", 3), Map.entry("memory", 4), Map.entry("workload", 5),
            Map.entry("importers", 6), Map.entry("refit", 6), Map.entry("scenario", 7), Map.entry("report", 7), Map.entry("run", 8),
            Map.entry("validation", 9), Map.entry("crosscheck", 9), Map.entry("sizing", 9), Map.entry("sweep", 10), Map.entry("cli", 11),
            Map.entry("layering", 12), Map.entry("fuzz", 12));

    /**
     * Edges against the rule that are known and not yet mended, each with why. The test fails on any
     * other upward or sideways edge, and on an allowance that no longer occurs (so the list shrinks).
     */
    static final Set<String> KNOWN = Set.of();

    private static PackageGraph main;
    private static PackageGraph test;

    @BeforeAll
    static void readTheClasses() {
        Path mainDir = Path.of("target/classes");
        Path testDir = Path.of("target/test-classes");
        assertTrue(Files.isDirectory(mainDir) && Files.isDirectory(testDir), "compiled classes are needed");
        main = PackageGraph.read(mainDir, null);
        test = PackageGraph.read(testDir, mainDir);
    }

    @Test
    void everyPackageHasALayer() {
        assertEquals(List.of(), unlayered(main.with(test)),
                "packages missing from PackageLayeringTest.LAYER: give each its place in DESIGN.md's order");
    }

    @Test
    void everyEdgeGoesDownOrIsAKnownAllowance() {
        Set<String> seen = new TreeSet<>();
        List<String> bad = new ArrayList<>(againstTheLayers(main, "", seen));
        Set<String> testOnly = new TreeSet<>(test.edges());
        testOnly.removeAll(main.edges());
        bad.addAll(againstTheLayers(PackageGraph.of(Set.of(), List.copyOf(testOnly)), "test: ", seen));
        assertEquals(List.of(), bad, "package edges against the layering (DESIGN.md)");
        Set<String> stale = new TreeSet<>(KNOWN);
        stale.removeAll(seen);
        assertEquals(Set.of(), stale, "allowances that no longer occur: remove them");
    }

    @Test
    void noPackagesFormACycleOfAnyLength() {
        assertEquals(List.of(), cycles(main), "cycles among main packages");
        assertEquals(List.of(), cycles(main.with(test)), "cycles among packages, main and test code together");
    }

    /** Packages whose top-level name has no layer (a class directly in org.rdmasim has none either). */
    static List<String> unlayered(PackageGraph g) {
        List<String> missing = new ArrayList<>();
        for (String p : g.packages()) {
            if (!LAYER.containsKey(top(p))) {
                missing.add(p);
            }
        }
        return missing;
    }

    /**
     * The edges of {@code g} that go up or sideways between top-level packages, as "prefix + edge",
     * except known allowances, which are added to {@code seen} instead. Edges inside one top-level
     * package are left to the cycle check.
     */
    static List<String> againstTheLayers(PackageGraph g, String prefix, Set<String> seen) {
        List<String> bad = new ArrayList<>();
        for (String e : g.edges()) {
            String[] ab = e.split(" -> ");
            String from = top(ab[0]);
            String to = top(ab[1]);
            if (from.equals(to)) {
                continue;
            }
            Integer fromLayer = LAYER.get(from);
            Integer toLayer = LAYER.get(to);
            if (fromLayer != null && toLayer != null && fromLayer > toLayer) {
                continue;
            }
            if (KNOWN.contains(prefix + e)) {
                seen.add(prefix + e);
            } else {
                bad.add(prefix + e + (fromLayer == null || toLayer == null ? " (unlayered package)"
                        : " (layer " + fromLayer + " -> " + toLayer + ")"));
            }
        }
        return bad;
    }

    /** Each cycle of {@code g}: its packages, and one shortest way round. */
    static List<String> cycles(PackageGraph g) {
        List<String> found = new ArrayList<>();
        for (List<String> component : g.cyclicComponents()) {
            found.add(component.size() + " packages " + component + ", e.g. " + g.cycleThrough(component));
        }
        return found;
    }

    /** The top-level package under org.rdmasim ("importers" for org.rdmasim.importers.nccl). */
    static String top(String pkg) {
        String[] parts = pkg.split("\\.");
        return parts.length > 2 && parts[0].equals("org") && parts[1].equals("rdmasim") ? parts[2] : "(none: " + pkg + ")";
    }
}
