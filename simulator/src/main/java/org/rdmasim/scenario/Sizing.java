package org.rdmasim.scenario;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.HostSpec;
import org.rdmasim.hardware.TopologyNode;
import org.rdmasim.transport.config.EnvEntry;
import org.rdmasim.transport.ucx.StackProfile;
import org.rdmasim.workload.FanoutPlan;
import org.rdmasim.workload.TreeFanout;

/**
 * The knobs a sizing sweep turns on a fan-out variant, each applied as a user would: more source
 * hosts of the same shape, more NICs listed in {@code UCX_NET_DEVICES} (with as many rails), a higher
 * {@code UCX_MAX_RMA_RAILS}, or more children per tree source.
 */
public final class Sizing {
    public enum Knob {
        SOURCES("sources"), NICS("nics"), RAILS("rails"), TREE_DEGREE("tree-degree");

        private final String label;

        Knob(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }

        public static Knob parse(String text) {
            for (Knob k : values()) {
                if (k.label.equalsIgnoreCase(text)) {
                    return k;
                }
            }
            throw new IllegalArgumentException("expected sources, nics, rails or tree-degree, got '" + text + "'");
        }
    }

    private Sizing() {
    }

    /** Largest value worth trying when the user gives no --max. */
    public static int defaultMax(VariantSpec v, Knob knob) {
        return switch (knob) {
            case SOURCES -> Math.max(16, v.fanoutPlan().sources().size());
            case NICS, RAILS -> receiverNics(v).size();
            case TREE_DEGREE -> 8;
        };
    }

    public static VariantSpec apply(VariantSpec v, Knob knob, int value) {
        if (!v.isFanout()) {
            throw new IllegalArgumentException("variant '" + v.name() + "' has no fan-out workload to size");
        }
        if (value < 1) {
            throw new IllegalArgumentException("a sizing value must be at least 1, got " + value);
        }
        VariantSpec out = switch (knob) {
            case SOURCES -> sources(v, value);
            case NICS -> {
                List<String> nics = receiverNics(v);
                if (value > nics.size()) {
                    throw new IllegalArgumentException("receivers have " + nics.size() + " NIC(s), cannot list " + value);
                }
                List<String> devices = new ArrayList<>();
                for (int i = 0; i < value; i++) {
                    devices.add(nics.get(i) + ":1");
                }
                yield withEnv(v, List.of(new EnvEntry("UCX_NET_DEVICES", String.join(",", devices), "size --vary nics", 0),
                        new EnvEntry("UCX_MAX_RMA_RAILS", String.valueOf(value), "size --vary nics", 0)));
            }
            case RAILS -> withEnv(v, List.of(new EnvEntry("UCX_MAX_RMA_RAILS", String.valueOf(value), "size --vary rails", 0)));
            case TREE_DEGREE -> v.withFanout(v.fanoutPlan().withTree(new TreeFanout(value)), v.hosts());
        };
        return out.withName(v.name() + " " + knob.label() + "=" + value);
    }

    private static List<String> receiverNics(VariantSpec v) {
        String r = v.fanoutPlan().receivers().get(0).host();
        return new Host(r, v.hosts().get(r)).nics().stream().map(TopologyNode::name).toList();
    }

    private static VariantSpec withEnv(VariantSpec v, List<EnvEntry> extra) {
        TransportSettings t = v.transport();
        List<EnvEntry> env = new ArrayList<>(t.env());
        env.addAll(extra);
        return v.withTransport(t.withStack(t.stack().withEnv(env)));
    }

    /**
     * The first {@code count} sources: the variant's own, then new hosts of the first source's shape
     * named by its prefix (its name without trailing digits) and the next free index.
     */
    private static VariantSpec sources(VariantSpec v, int count) {
        List<FanoutPlan.Member> current = v.fanoutPlan().sources();
        List<FanoutPlan.Member> out = new ArrayList<>(current.subList(0, Math.min(count, current.size())));
        Map<String, HostSpec> hosts = new LinkedHashMap<>(v.hosts());
        FanoutPlan.Member first = current.get(0);
        HostSpec spec = hosts.get(first.host());
        String prefix = first.host().replaceAll("[0-9]+$", "");
        Set<String> used = new HashSet<>(hosts.keySet());
        int next = 0;
        while (out.size() < count) {
            String name;
            do {
                name = prefix + next++;
            } while (used.contains(name));
            used.add(name);
            hosts.put(name, spec);
            out.add(new FanoutPlan.Member(name, first.gpus()));
        }
        return v.withFanout(v.fanoutPlan().withSources(out), hosts);
    }
}
