package org.rdmasim.scenario;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.rdmasim.hardware.HostSpec;

/** The {@code hosts} section: named hosts and counted groups of one shape, built once per shape. */
final class HostsSection {
    /**
     * Hosts one scenario may describe, counted groups included: ten times the largest GPU clusters built
     * (about 10^5 hosts); each host's name and spec reference are held for the whole run.
     */
    static final int MAX_HOSTS = 1_000_000;

    private HostsSection() {
    }

    /**
     * {@code hosts:} entries: {@code name: {preset: ...}} is one host; {@code name: {preset: ..., count: N,
     * prefix: p}} is a group of N hosts p0..p(N-1) sharing one spec (prefix defaults to the entry's name).
     */
    static HostTable hosts(YamlTree v, List<String> warnings) {
        Map<String, HostSpec> out = new LinkedHashMap<>();
        Map<String, List<String>> groups = new LinkedHashMap<>();
        for (Map.Entry<String, YamlTree> e : v.entries().entrySet()) {
            Names.checked(e.getValue(), e.getKey(), "host");
            if (!e.getKey().matches("[A-Za-z0-9._-]+")) {
                throw e.getValue().error("host names may use letters, digits, '.', '_' and '-' only");
            }
            YamlTree entry = e.getValue();
            if (entry.isMap() && (entry.has("count") || entry.has("prefix"))) {
                if (!entry.has("count")) {
                    throw entry.get("prefix").error("'prefix' names the hosts of a counted group; add 'count: N'");
                }
                long count = entry.get("count").integer();
                if (count < 1 || count > MAX_HOSTS) {
                    throw entry.get("count").error("expected 1 to " + MAX_HOSTS + " hosts, got " + count);
                }
                if (out.size() + count > MAX_HOSTS) {
                    throw entry.get("count").error("the scenario's hosts come to " + (out.size() + count)
                            + " with this group, over the limit of " + MAX_HOSTS + " in one scenario");
                }
                String prefix = entry.has("prefix") ? entry.get("prefix").text() : e.getKey();
                if (!prefix.matches("[A-Za-z0-9._-]+")) {
                    throw entry.get("prefix").error("a prefix may use letters, digits, '.', '_' and '-' only");
                }
                // the group's longest host name (prefix and the last number) obeys the host-name rules
                Names.checked(entry.has("prefix") ? entry.get("prefix") : entry, prefix + (count - 1), "host");
                HostSpec spec = HostReader.read(entry.without(Set.of("count", "prefix")), warnings);
                List<String> names = new ArrayList<>((int) count);
                for (int i = 0; i < count; i++) {
                    String n = prefix + i;
                    if (out.putIfAbsent(n, spec) != null) {
                        throw entry.get("count").error("host '" + n + "' of group '" + e.getKey() + "' is already defined");
                    }
                    names.add(n);
                }
                groups.put(e.getKey(), names);
            } else {
                if (out.putIfAbsent(e.getKey(), HostReader.read(entry, warnings)) != null) {
                    throw entry.error("host '" + e.getKey() + "' is already defined by a counted group");
                }
                groups.put(e.getKey(), List.of(e.getKey()));
            }
        }
        if (out.isEmpty()) {
            throw v.error("at least one host is needed");
        }
        return new HostTable(out, groups);
    }

    static String groupOf(HostTable hosts, String host) {
        for (Map.Entry<String, List<String>> g : hosts.groups().entrySet()) {
            if (g.getValue().contains(host)) {
                return g.getKey();
            }
        }
        return host;
    }
}
