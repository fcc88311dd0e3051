package org.rdmasim.layering;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.spi.ToolProvider;

/**
 * Dependencies between the org.rdmasim packages of some compiled classes, one node per package
 * (sub-packages are nodes of their own). Everything is kept sorted so that the checks built on it
 * report in the same order on every run.
 */
final class PackageGraph {
    private static final Pattern EDGE = Pattern.compile("^\\s+(org\\.rdmasim\\S*)\\s+->\\s+(\\S+)", Pattern.MULTILINE);

    private final SortedSet<String> packages;
    private final SortedMap<String, SortedSet<String>> out;

    private PackageGraph(SortedSet<String> packages, SortedMap<String, SortedSet<String>> out) {
        this.packages = packages;
        this.out = out;
    }

    /**
     * A graph from "from -> to" edges; every package named on either side is a node. Edges from a
     * package to itself are dropped: they say nothing about layering or cycles.
     */
    static PackageGraph of(Set<String> packages, List<String> edges) {
        SortedSet<String> nodes = new TreeSet<>(packages);
        SortedMap<String, SortedSet<String>> out = new TreeMap<>();
        for (String e : edges) {
            String[] ab = e.split(" -> ");
            if (ab.length != 2) {
                throw new IllegalArgumentException("an edge reads 'from -> to', not '" + e + "'");
            }
            nodes.add(ab[0]);
            nodes.add(ab[1]);
            if (!ab[0].equals(ab[1])) {
                out.computeIfAbsent(ab[0], k -> new TreeSet<>()).add(ab[1]);
            }
        }
        return new PackageGraph(nodes, out);
    }

    /**
     * The packages of the classes under {@code dir} and their edges to org.rdmasim packages, read with
     * the JDK's {@code jdeps -verbose:package}. Classes on {@code classpath} resolve the targets (the
     * main classes, when reading the tests) but are not themselves read.
     */
    static PackageGraph read(Path dir, Path classpath) {
        ToolProvider jdeps = ToolProvider.findFirst("jdeps").orElseThrow(() -> new AssertionError("no jdeps in this JDK"));
        StringWriter text = new StringWriter();
        StringWriter errors = new StringWriter();
        List<String> args = new ArrayList<>(List.of("-verbose:package", "-filter:none"));
        if (classpath != null) {
            args.addAll(List.of("-cp", classpath.toString()));
        }
        args.add(dir.toString());
        int code = jdeps.run(new PrintWriter(text), new PrintWriter(errors), args.toArray(new String[0]));
        if (code != 0) {
            throw new AssertionError("jdeps " + String.join(" ", args) + " exited with " + code + ": " + errors);
        }
        Set<String> packages = new TreeSet<>();
        List<String> edges = new ArrayList<>();
        Matcher m = EDGE.matcher(text.toString());
        while (m.find()) {
            // Every package of ours depends on something (java.lang at least), so each one turns up
            // on the left of some line; only edges to our own packages matter.
            packages.add(m.group(1));
            if (m.group(2).equals("org.rdmasim") || m.group(2).startsWith("org.rdmasim.")) {
                edges.add(m.group(1) + " -> " + m.group(2));
            }
        }
        return of(packages, edges);
    }

    /** Both graphs in one: the nodes and edges of each. */
    PackageGraph with(PackageGraph other) {
        List<String> all = new ArrayList<>(edges());
        all.addAll(other.edges());
        Set<String> nodes = new TreeSet<>(packages);
        nodes.addAll(other.packages);
        return of(nodes, all);
    }

    SortedSet<String> packages() {
        return Collections.unmodifiableSortedSet(packages);
    }

    /** Every edge as "from -> to", sorted. */
    List<String> edges() {
        List<String> list = new ArrayList<>();
        out.forEach((from, tos) -> tos.forEach(to -> list.add(from + " -> " + to)));
        return list;
    }

    /**
     * The strongly connected components of more than one package (Tarjan 1972), each sorted, the
     * list sorted by first member: every package in one of them lies on a cycle of some length.
     */
    List<List<String>> cyclicComponents() {
        Tarjan t = new Tarjan();
        for (String p : packages) {
            if (!t.index.containsKey(p)) {
                t.visit(p);
            }
        }
        t.components.sort((a, b) -> a.get(0).compareTo(b.get(0)));
        return t.components;
    }

    /**
     * One shortest cycle through the first package of {@code component}, staying inside it, written
     * "a -> b -> c -> a" (breadth-first, neighbours in sorted order, so always the same one).
     */
    String cycleThrough(List<String> component) {
        Set<String> inside = new TreeSet<>(component);
        String start = component.get(0);
        Map<String, String> cameFrom = new HashMap<>();
        Deque<String> queue = new ArrayDeque<>(List.of(start));
        while (!queue.isEmpty()) {
            String p = queue.removeFirst();
            for (String q : out.getOrDefault(p, Collections.emptySortedSet())) {
                if (q.equals(start)) {
                    List<String> path = new ArrayList<>(List.of(start));
                    for (String at = p; !at.equals(start); at = cameFrom.get(at)) {
                        path.add(1, at);
                    }
                    path.add(start);
                    return String.join(" -> ", path);
                }
                if (inside.contains(q) && !cameFrom.containsKey(q)) {
                    cameFrom.put(q, p);
                    queue.addLast(q);
                }
            }
        }
        throw new IllegalArgumentException(component + " is not a cycle of this graph");
    }

    /** Tarjan's algorithm, recursive: the package graph has tens of nodes, not thousands. */
    private final class Tarjan {
        final Map<String, Integer> index = new HashMap<>();
        final Map<String, Integer> low = new HashMap<>();
        final Deque<String> stack = new ArrayDeque<>();
        final Set<String> onStack = new TreeSet<>();
        final List<List<String>> components = new ArrayList<>();

        void visit(String p) {
            index.put(p, index.size());
            low.put(p, index.get(p));
            stack.push(p);
            onStack.add(p);
            for (String q : out.getOrDefault(p, Collections.emptySortedSet())) {
                if (!index.containsKey(q)) {
                    visit(q);
                    low.put(p, Math.min(low.get(p), low.get(q)));
                } else if (onStack.contains(q)) {
                    low.put(p, Math.min(low.get(p), index.get(q)));
                }
            }
            if (low.get(p).equals(index.get(p))) {
                List<String> component = new ArrayList<>();
                String q;
                do {
                    q = stack.pop();
                    onStack.remove(q);
                    component.add(q);
                } while (!q.equals(p));
                if (component.size() > 1) {
                    Collections.sort(component);
                    components.add(component);
                }
            }
        }
    }
}
