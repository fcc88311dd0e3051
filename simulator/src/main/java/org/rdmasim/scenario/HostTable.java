package org.rdmasim.scenario;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.HostSpec;

/**
 * The hosts of a variant as the loader sees them: specs by name, the groups that counted entries
 * ({@code {preset: gb200-tray, count: 256, prefix: r}}) expand to, and built hosts on demand. A
 * counted group shares one spec instance, so checks that depend only on a host's shape run once per
 * shape, not once per host: loading a 16k-host scenario stays linear and cheap.
 */
final class HostTable {
    private final Map<String, HostSpec> specs;
    private final Map<String, List<String>> groups;
    private final Map<String, Host> built = new HashMap<>();
    private final Map<HostSpec, String> firstOfShape = new IdentityHashMap<>();

    HostTable(Map<String, HostSpec> specs, Map<String, List<String>> groups) {
        this.specs = Collections.unmodifiableMap(new LinkedHashMap<>(specs));
        this.groups = Collections.unmodifiableMap(new LinkedHashMap<>(groups));
        for (Map.Entry<String, HostSpec> e : specs.entrySet()) {
            firstOfShape.putIfAbsent(e.getValue(), e.getKey());
        }
    }

    Map<String, HostSpec> specs() {
        return specs;
    }

    /** Group name to its member hosts, in order; an uncounted entry is a group of itself. */
    Map<String, List<String>> groups() {
        return groups;
    }

    /** Whether a host is named {@code name}. */
    boolean has(String name) {
        return specs.containsKey(name);
    }

    /** The built host named {@code name}, or null when there is none. */
    Host get(String name) {
        HostSpec spec = specs.get(name);
        if (spec == null) {
            return null;
        }
        return built.computeIfAbsent(name, n -> new Host(n, spec));
    }

    /** One host of the same shape as {@code name} (the first of its group), built once per shape. */
    Host representative(String name) {
        return get(firstOfShape.get(specs.get(name)));
    }

    /** The first host of every distinct shape, in file order. */
    List<String> representatives() {
        return new ArrayList<>(firstOfShape.values());
    }

    Set<String> keySet() {
        return specs.keySet();
    }

    /** Host names for an error message: all of them when few, else the groups. */
    String describe() {
        if (specs.size() <= 12) {
            return String.join(", ", specs.keySet());
        }
        List<String> parts = new ArrayList<>();
        for (Map.Entry<String, List<String>> g : groups.entrySet()) {
            List<String> m = g.getValue();
            parts.add(m.size() == 1 ? m.get(0) : g.getKey() + " = " + m.get(0) + ".." + m.get(m.size() - 1));
        }
        return String.join(", ", parts);
    }
}
