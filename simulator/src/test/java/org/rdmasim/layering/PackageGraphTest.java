package org.rdmasim.layering;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The layering checks themselves fail when they should: cycles and bad edges planted on purpose. */
class PackageGraphTest {
    private static final String A = "org.rdmasim.engine.a";
    private static final String B = "org.rdmasim.engine.b";
    private static final String C = "org.rdmasim.engine.c";

    @Test
    void aThreeCycleIsOneComponentWithItsWayRound() {
        PackageGraph g = PackageGraph.of(Set.of(), List.of(B + " -> " + C, A + " -> " + B, C + " -> " + A));
        assertEquals(List.of(List.of(A, B, C)), g.cyclicComponents());
        assertEquals(A + " -> " + B + " -> " + C + " -> " + A, g.cycleThrough(List.of(A, B, C)));
    }

    @Test
    void aChainAndADiamondHaveNoCycle() {
        PackageGraph g = PackageGraph.of(Set.of(),
                List.of(A + " -> " + B, A + " -> " + C, B + " -> " + C, C + " -> org.rdmasim.fluid"));
        assertEquals(List.of(), g.cyclicComponents());
        assertEquals(List.of(), PackageLayeringTest.cycles(g));
    }

    @Test
    void selfEdgesAreNoCycle() {
        PackageGraph g = PackageGraph.of(Set.of(), List.of(A + " -> " + A));
        assertEquals(List.of(), g.cyclicComponents());
        assertEquals(Set.of(A), g.packages());
    }

    @Test
    void disjointCyclesAreReportedApartAndInOrder() {
        // A long cycle (five packages) behind a short one, given in shuffled order: both are found, the
        // long one whole, and the report does not depend on the order the edges came in.
        List<String> edges = new ArrayList<>(List.of("org.rdmasim.x.p4 -> org.rdmasim.x.p0", "org.rdmasim.w.q -> org.rdmasim.w.p",
                "org.rdmasim.x.p2 -> org.rdmasim.x.p3", "org.rdmasim.x.p0 -> org.rdmasim.x.p1",
                "org.rdmasim.w.p -> org.rdmasim.w.q", "org.rdmasim.x.p3 -> org.rdmasim.x.p4",
                "org.rdmasim.x.p1 -> org.rdmasim.x.p2", "org.rdmasim.w.p -> org.rdmasim.x.p0"));
        List<String> expected = List.of(
                "2 packages [org.rdmasim.w.p, org.rdmasim.w.q], e.g. org.rdmasim.w.p -> org.rdmasim.w.q -> org.rdmasim.w.p",
                "5 packages [org.rdmasim.x.p0, org.rdmasim.x.p1, org.rdmasim.x.p2, org.rdmasim.x.p3, org.rdmasim.x.p4],"
                        + " e.g. org.rdmasim.x.p0 -> org.rdmasim.x.p1 -> org.rdmasim.x.p2 -> org.rdmasim.x.p3"
                        + " -> org.rdmasim.x.p4 -> org.rdmasim.x.p0");
        assertEquals(expected, PackageLayeringTest.cycles(PackageGraph.of(Set.of(), edges)));
        java.util.Collections.reverse(edges);
        assertEquals(expected, PackageLayeringTest.cycles(PackageGraph.of(Set.of(), edges)));
    }

    @Test
    void theShortestWayRoundIsReportedWhenThereAreSeveral() {
        // a -> b -> c -> a and a -> c -> a: both cycles pass through a; the report names the shorter.
        PackageGraph g = PackageGraph.of(Set.of(), List.of(A + " -> " + B, B + " -> " + C, C + " -> " + A, A + " -> " + C));
        assertEquals(A + " -> " + C + " -> " + A, g.cycleThrough(g.cyclicComponents().get(0)));
    }

    @Test
    void upwardSidewaysAndUnlayeredEdgesAreCaught() {
        PackageGraph g = PackageGraph.of(Set.of("org.rdmasim.planted"), List.of(
                "org.rdmasim.fluid.x -> org.rdmasim.engine", // down: allowed
                "org.rdmasim.engine -> org.rdmasim.fluid", // up
                "org.rdmasim.report -> org.rdmasim.scenario", // sideways, same layer
                "org.rdmasim.cli -> org.rdmasim.planted"));
        Set<String> seen = new TreeSet<>();
        assertEquals(List.of("org.rdmasim.cli -> org.rdmasim.planted (unlayered package)",
                "org.rdmasim.engine -> org.rdmasim.fluid (layer 0 -> 1)",
                "org.rdmasim.report -> org.rdmasim.scenario (layer 7 -> 7)"),
                PackageLayeringTest.againstTheLayers(g, "", seen));
        assertEquals(List.of("org.rdmasim.planted"), PackageLayeringTest.unlayered(g));
        assertEquals(List.of("(none: org.rdmasim)"),
                List.of(PackageLayeringTest.top("org.rdmasim")));
    }

    /**
     * The real path, jdeps included: three tiny classes whose packages use each other round a circle
     * are compiled and read back, and the checks name the cycle and the unknown package.
     */
    @Test
    void compiledClassesInACycleAreFoundThroughJdeps(@TempDir Path dir) throws IOException {
        Path src = dir.resolve("src");
        Path classes = Files.createDirectories(dir.resolve("classes"));
        String[][] circle = {{"a", "b"}, {"b", "c"}, {"c", "a"}};
        List<String> files = new ArrayList<>();
        for (String[] step : circle) {
            Path file = src.resolve("org/rdmasim/planted/" + step[0] + "/Node.java");
            Files.createDirectories(file.getParent());
            Files.writeString(file, "package org.rdmasim.planted." + step[0] + ";\n"
                    + "public final class Node {\n"
                    + "    public static int depth() { return org.rdmasim.planted." + step[1] + ".Node.class.getName().length(); }\n"
                    + "}\n", StandardCharsets.UTF_8);
            files.add(file.toString());
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        assertTrue(javac != null, "this JDK has no compiler");
        List<String> args = new ArrayList<>(List.of("-d", classes.toString()));
        args.addAll(files);
        assertEquals(0, javac.run(null, null, null, args.toArray(new String[0])), "the planted classes compile");

        PackageGraph g = PackageGraph.read(classes, null);
        assertEquals(Set.of("org.rdmasim.planted.a", "org.rdmasim.planted.b", "org.rdmasim.planted.c"), g.packages());
        assertEquals(List.of("3 packages [org.rdmasim.planted.a, org.rdmasim.planted.b, org.rdmasim.planted.c], e.g. "
                + "org.rdmasim.planted.a -> org.rdmasim.planted.b -> org.rdmasim.planted.c -> org.rdmasim.planted.a"),
                PackageLayeringTest.cycles(g));
        assertEquals(List.of("org.rdmasim.planted.a", "org.rdmasim.planted.b", "org.rdmasim.planted.c"),
                PackageLayeringTest.unlayered(g));
    }
}
