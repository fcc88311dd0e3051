package org.rdmasim.fluid;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.spi.ToolProvider;
import org.junit.jupiter.api.Test;

/**
 * The classes of the fluid package depend on each other without any cycle, the data model included,
 * and the solver (the constraint system and its progressive filling) uses nothing of time, events,
 * completions or groups' bookkeeping: the split SimGrid keeps between src/kernel/lmm and the models of
 * src/kernel/resource. Edges are read from the compiled classes with the JDK's jdeps; a nested class
 * counts as its outer class.
 */
class FluidClassCycleTest {
    /**
     * What the solver may use: flows, resources and the flows crossing each resource (their crossings,
     * kept by the resource table) as the constraint system, their limits, and itself.
     */
    static final Set<String> SOLVER = Set.of("MaxMinSolver", "RegionSolve", "RateChanges");
    static final Set<String> SOLVER_MAY_USE = Set.of("MaxMinSolver", "RegionSolve", "RateChanges", "Flow",
            "Resource", "Limit", "Crossing", "ResourceTable");

    @Test
    void noClassCycle() {
        Map<String, Set<String>> graph = classEdges();
        assertTrue(graph.containsKey("FluidNetwork") && graph.containsKey("RegionSolve"), "fluid classes are read");
        assertTrue(graph.get("Flow").contains("Resource") && graph.get("FlowGroup").contains("Flow"), "the data model is read");
        assertEquals(List.of(), cycles(graph), "class cycles inside org.rdmasim.fluid");
        // The bottom of the data model: a resource knows no flow nor group, a flow no group nor listener.
        Set<String> resourceUses = new TreeSet<>(graph.get("Resource"));
        resourceUses.retainAll(Set.of("Flow", "FlowGroup", "FlowGroups", "Crossing", "FlowListener"));
        assertEquals(Set.of(), resourceUses, "Resource uses");
        Set<String> flowUses = new TreeSet<>(graph.get("Flow"));
        flowUses.retainAll(Set.of("FlowGroup", "FlowGroups", "FlowListener", "Crossing"));
        assertEquals(Set.of(), flowUses, "Flow uses");
    }

    @Test
    void theSolverKnowsNothingOfTimeEventsOrGroups() {
        Map<String, Set<String>> fluid = classEdges();
        for (String s : SOLVER) {
            Set<String> extra = new TreeSet<>(fluid.getOrDefault(s, Set.of()));
            extra.removeAll(SOLVER_MAY_USE);
            assertEquals(Set.of(), extra, s + " uses network-side classes");
        }
        Map<String, Set<String>> outside = jdeps("-e", "org\\.rdmasim\\..*");
        for (String s : SOLVER) {
            Set<String> rdmasim = new TreeSet<>();
            for (String to : outside.getOrDefault("org.rdmasim.fluid." + s, Set.of())) {
                if (!to.startsWith("org.rdmasim.fluid.")) {
                    rdmasim.add(to);
                }
            }
            assertEquals(Set.of(), rdmasim, s + " uses classes outside the fluid package (the clock, events)");
        }
    }

    @Test
    void aCycleIsFoundWhereverItIs() {
        Map<String, Set<String>> g = new TreeMap<>();
        g.put("A", Set.of("B"));
        g.put("B", Set.of("C"));
        g.put("C", Set.of("A", "D"));
        g.put("D", Set.of("E"));
        g.put("E", Set.of("D"));
        g.put("F", Set.of("A"));
        assertEquals(List.of(Set.of("A", "B", "C"), Set.of("D", "E")), cycles(g));
        g.put("E", Set.of());
        assertEquals(List.of(Set.of("A", "B", "C")), cycles(g));
    }

    /** Edges between classes of org.rdmasim.fluid, by simple name, nested classes merged into their outer class. */
    private static Map<String, Set<String>> classEdges() {
        Map<String, Set<String>> all = jdeps("-e", "org\\.rdmasim\\.fluid\\..*");
        Map<String, Set<String>> out = new TreeMap<>();
        String prefix = "org.rdmasim.fluid.";
        for (Map.Entry<String, Set<String>> e : all.entrySet()) {
            if (!inFluid(e.getKey())) {
                continue;
            }
            String from = outer(e.getKey().substring(prefix.length()));
            for (String to : e.getValue()) {
                if (inFluid(to)) {
                    String t = outer(to.substring(prefix.length()));
                    out.computeIfAbsent(from, k -> new TreeSet<>());
                    if (!t.equals(from)) {
                        out.get(from).add(t);
                    }
                }
            }
        }
        return out;
    }

    private static boolean inFluid(String cls) {
        return cls.startsWith("org.rdmasim.fluid.") && cls.lastIndexOf('.') == "org.rdmasim.fluid".length();
    }

    private static String outer(String simple) {
        int d = simple.indexOf('$');
        return d < 0 ? simple : simple.substring(0, d);
    }

    /** Class edges of the main classes, from class to the classes it uses, as jdeps reports them. */
    private static Map<String, Set<String>> jdeps(String... filter) {
        Path main = Path.of("target/classes");
        assertTrue(Files.isDirectory(main), "compiled classes are needed");
        ToolProvider jdeps = ToolProvider.findFirst("jdeps").orElseThrow(() -> new AssertionError("no jdeps in this JDK"));
        StringWriter out = new StringWriter();
        List<String> args = new ArrayList<>(List.of("-verbose:class", "-filter:none"));
        args.addAll(List.of(filter));
        args.add(main.toString());
        int code = jdeps.run(new PrintWriter(out), new PrintWriter(new StringWriter()), args.toArray(new String[0]));
        assertEquals(0, code, "jdeps failed");
        Pattern p = Pattern.compile("^\\s+(org\\.rdmasim\\.\\S+)\\s+->\\s+(org\\.rdmasim\\.\\S+)", Pattern.MULTILINE);
        Map<String, Set<String>> edges = new TreeMap<>();
        Matcher m = p.matcher(out.toString());
        while (m.find()) {
            edges.computeIfAbsent(m.group(1), k -> new TreeSet<>()).add(m.group(2));
        }
        return edges;
    }

    /** The strongly connected components of more than one class (Tarjan), each sorted, in order of their first class. */
    static List<Set<String>> cycles(Map<String, Set<String>> graph) {
        Map<String, Integer> index = new HashMap<>();
        Map<String, Integer> low = new HashMap<>();
        Deque<String> stack = new ArrayDeque<>();
        Set<String> onStack = new TreeSet<>();
        List<Set<String>> found = new ArrayList<>();
        for (String v : new TreeSet<>(graph.keySet())) {
            if (!index.containsKey(v)) {
                connect(v, graph, index, low, stack, onStack, found);
            }
        }
        found.sort((a, b) -> a.iterator().next().compareTo(b.iterator().next()));
        return found;
    }

    private static void connect(String v, Map<String, Set<String>> graph, Map<String, Integer> index,
            Map<String, Integer> low, Deque<String> stack, Set<String> onStack, List<Set<String>> found) {
        index.put(v, index.size());
        low.put(v, index.get(v));
        stack.push(v);
        onStack.add(v);
        for (String w : graph.getOrDefault(v, Set.of())) {
            if (!index.containsKey(w)) {
                connect(w, graph, index, low, stack, onStack, found);
                low.put(v, Math.min(low.get(v), low.get(w)));
            } else if (onStack.contains(w)) {
                low.put(v, Math.min(low.get(v), index.get(w)));
            }
        }
        if (low.get(v).equals(index.get(v))) {
            Set<String> component = new TreeSet<>();
            String w;
            do {
                w = stack.pop();
                onStack.remove(w);
                component.add(w);
            } while (!w.equals(v));
            if (component.size() > 1) {
                found.add(component);
            }
        }
    }
}
