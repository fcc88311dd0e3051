package org.rdmasim.sizing;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.HostSpec;
import org.rdmasim.hardware.TopologyNode;
import org.rdmasim.scenario.TransportSettings;
import org.rdmasim.scenario.VariantSpec;
import org.rdmasim.transport.config.EnvEntry;
import org.rdmasim.transport.ucx.StackProfile;
import org.rdmasim.transport.ucx.UcxPaths;
import org.rdmasim.workload.FanoutPlan;
import org.rdmasim.workload.TreeFanout;

/**
 * The knobs a sizing sweep turns on a fan-out variant, each applied as a user would: more source
 * hosts of the same shape, more NICs listed in {@code UCX_NET_DEVICES} (with as many rails), a higher
 * {@code UCX_MAX_RMA_RAILS}, or more children per tree source.
 */
public final class FanoutSizing {
    public enum Knob implements SizingKnob {
        SOURCES, NICS, RAILS, TREE_DEGREE;

        /** The knob named {@code text}, or empty when it is not a fan-out knob. */
        public static Optional<Knob> find(String text) {
            return SizingKnob.named(values(), text);
        }
    }

    private FanoutSizing() {
    }

    /** The largest value a knob can usefully take on a variant, and why. */
    public record Bound(int value, String why) {
    }

    /**
     * The largest value worth trying: past it the knob either cannot be set (NICs the host does not
     * have) or adds nothing the model can use.
     * <ul>
     *   <li>sources: one per receiver host, since each receiver pulls from a single source and an
     *       extra source would stay idle;
     *   <li>nics: the receiver host's NICs;
     *   <li>rails: the lanes a receiver GPU can have, its NICs times the paths UCX opens per port
     *       ({@code UCX_IB_NUM_PATHS}, auto: 2 on NDR and XDR ports, openucx/ucx
     *       src/uct/ib/base/ib_iface.c {@code uct_ib_iface_set_num_paths}, v1.20.0): a rail limit above
     *       the lanes there are selects no more lanes;
     *   <li>tree-degree: one child per receiver, the degree at which a source serves every receiver
     *       directly.
     * </ul>
     */
    public static Bound bound(VariantSpec v, Knob knob) {
        FanoutPlan plan = v.fanoutPlan();
        int receivers = plan.receivers().size();
        return switch (knob) {
            case SOURCES -> new Bound(receivers, receivers + " receiver host(s), each pulling from one source");
            case NICS -> {
                int nics = receiverNics(v).size();
                yield new Bound(nics, "the receiver host has " + nics + " NIC(s)");
            }
            case RAILS -> {
                FanoutPlan.Member r = plan.receivers().get(0);
                Host host = new Host(r.host(), v.hosts().get(r.host()));
                StackProfile stack = v.transport().stack();
                var numPaths = stack.configFor(host, host.gpu(r.gpus().get(0))).ibNumPaths();
                int lanes = 0;
                for (TopologyNode nic : host.computeNics()) {
                    lanes += UcxPaths.pathsPerPort(nic.nic(), stack.ucx(), numPaths);
                }
                yield new Bound(Math.max(1, lanes), host.computeNics().size() + " compute NIC(s) x paths per port (UCX_IB_NUM_PATHS) = "
                        + lanes + " lane(s) a receiver GPU can have");
            }
            case TREE_DEGREE -> new Bound(receivers, receivers + " receiver host(s): at that degree a source serves all directly");
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

    /**
     * The receiver's compute NICs in the order the knob lists them: nearest its GPU(s) first
     * ({@link NicOrder}), so N = 1 is the receiving GPU's own NIC, not the host's first in PCI order.
     */
    private static List<String> receiverNics(VariantSpec v) {
        FanoutPlan.Member r = v.fanoutPlan().receivers().get(0);
        Host host = new Host(r.host(), v.hosts().get(r.host()));
        return NicOrder.nearestFirst(host, r.gpus().stream().map(host::gpu).toList());
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
