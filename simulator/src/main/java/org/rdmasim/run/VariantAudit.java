package org.rdmasim.run;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.rdmasim.hardware.CalibrationProfile;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.HostSpec;
import org.rdmasim.hardware.TopologyNode;
import org.rdmasim.hardware.Units;
import org.rdmasim.scenario.VariantSpec;
import org.rdmasim.transport.Endpoint;
import org.rdmasim.transport.Operation;
import org.rdmasim.transport.config.ConfigOverride;
import org.rdmasim.transport.config.EffectiveConfig;
import org.rdmasim.transport.config.EnvEntry;
import org.rdmasim.transport.config.NetDevices;
import org.rdmasim.transport.ucx.StackProfile;
import org.rdmasim.workload.ConfigAudit;
import org.rdmasim.workload.TransferItem;

/**
 * A variant's configuration audit: what its processes run with that the scenario does not say, and what
 * its answer rests on beyond mechanisms (calibrated and assumed parameters, importer defaults).
 */
final class VariantAudit {
    private VariantAudit() {
    }

    /**
     * What the variant's initiating processes run with that its scenario does not say: every value a layer
     * replaced or the library ignored (once each), and the NICs the first initiator's user-set
     * UCX_NET_DEVICES lists. Explicit lanes bypass UCX's choice, so they have nothing to audit.
     */
    static ConfigAudit audit(VariantSpec v) {
        List<ConfigAudit.Assumption> restsOn = restsOn(v);
        if (!v.transport().lanes().isEmpty()) {
            return new ConfigAudit(List.of(), "", List.of(), restsOn);
        }
        List<TransferItem> items = v.isFanout() ? v.fanoutPlan().firstPull() : v.transfers();
        Map<String, ConfigOverride> seen = new LinkedHashMap<>();
        // A process's configuration depends on its host's shape (StackProfile caches it per spec): one host
        // is built per shape (a counted group shares its spec instance), not one per initiating host.
        Map<HostSpec, Host> shapes = new java.util.IdentityHashMap<>();
        java.util.Set<String> processes = new java.util.HashSet<>();
        String first = "";
        Host firstHost = null;
        List<String> listed = List.of();
        for (TransferItem t : items) {
            Endpoint init = t.operation() == Operation.READ ? t.to() : t.from();
            if (!processes.add(init.toString())) {
                continue;
            }
            HostSpec spec = v.hosts().get(init.host());
            if (spec == null) {
                continue;
            }
            Host h = shapes.computeIfAbsent(spec, s -> new Host(init.host(), s));
            TopologyNode d = h.find(init.device()).orElse(null);
            if (d == null) {
                continue;
            }
            EffectiveConfig c = v.transport().stack().configFor(h, d);
            for (ConfigOverride o : c.overrides()) {
                seen.putIfAbsent(o.variable() + '\0' + o.userValue() + '\0' + o.effectiveValue(), o);
            }
            if (first.isEmpty()) {
                first = init.toString();
                firstHost = h;
                listed = listedNics(v.transport().stack(), c, h);
            }
        }
        if (!v.transport().stack().installStated() && firstHost != null) {
            if (v.transport().ucxInstallMatters(firstHost)) {
                var install = v.transport().stack().install();
                restsOn.add(0, new ConfigAudit.Assumption("UCX install: " + install.yamlName()
                        + " (not stated by the scenario: the common install for this stack)", "assumed",
                        install.description(v.transport().stack().nixl()) + "; `explain` shows the answer under ucxInstall: "
                                + install.other().yamlName()));
            }
        }
        return new ConfigAudit(new ArrayList<>(seen.values()), first, listed, restsOn);
    }

    /**
     * What the variant's answer rests on beyond mechanisms: the calibrated and assumed parameters of its
     * hosts' profiles, and the defaults an importer filled in for what a host file did not say.
     */
    private static List<ConfigAudit.Assumption> restsOn(VariantSpec v) {
        List<ConfigAudit.Assumption> out = new ArrayList<>();
        java.util.Set<String> profiles = new java.util.LinkedHashSet<>();
        java.util.Set<HostSpec> shapes = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        for (HostSpec spec : v.hosts().values()) {
            if (shapes.add(spec)) {
                profiles.add(CalibrationProfile.forHost(spec).name());
            }
        }
        for (String name : profiles) {
            for (var p : CalibrationProfile.named(name).assumptions()) {
                out.add(new ConfigAudit.Assumption("profile " + name + ": " + p.key() + " = "
                        + Units.number(p.value()) + " " + p.unit(),
                        p.kind().name().toLowerCase(java.util.Locale.ROOT),
                        p.source() + (p.assumption().isEmpty() ? "" : ". " + p.assumption())));
            }
        }
        // Registration time rests on calibrated and assumed terms by memory type (RegistrationParameters.terms).
        boolean gpu = false;
        boolean hostMemory = false;
        // Whether a device is a GPU is a fact about the host's shape: one host is built per shape (a
        // counted group shares its spec instance), not one per endpoint of a 4,096-transfer list.
        Map<HostSpec, Host> built = new java.util.IdentityHashMap<>();
        for (TransferItem t : v.isFanout() ? v.fanoutPlan().firstPull() : v.transfers()) {
            for (Endpoint e : List.of(t.from(), t.to())) {
                HostSpec spec = v.hosts().get(e.host());
                if (spec == null) {
                    continue;
                }
                Host h = built.computeIfAbsent(spec, s -> new Host(e.host(), s));
                boolean onGpu = h.find(e.device()).map(n -> n.kind() == TopologyNode.Kind.GPU).orElse(false);
                gpu |= onGpu;
                hostMemory |= !onGpu;
            }
        }
        for (var term : v.registration().parameters().terms(gpu, hostMemory)) {
            out.add(new ConfigAudit.Assumption(term.what(), term.kind().word(), term.source()));
        }
        for (String w : new java.util.LinkedHashSet<>(v.warnings())) {
            if (w.contains(" taken as ")) {
                out.add(new ConfigAudit.Assumption(w.replaceAll("^.*/([^/]+:[0-9]+): ", "$1: "),
                        "assumed", "an importer default for what the host file does not say"));
            }
        }
        return out;
    }

    /** The NICs the user's own UCX_NET_DEVICES names on {@code h} (before any layer replaced it), or none. */
    private static List<String> listedNics(StackProfile stack, EffectiveConfig c, Host h) {
        String raw = null;
        for (EnvEntry e : stack.env()) {
            if (e.name().equals("UCX_NET_DEVICES")) {
                raw = e.value(); // the last one set wins, as in a shell
            }
        }
        if (raw == null) {
            return List.of();
        }
        List<String> names = h.nics().stream().map(TopologyNode::name).toList();
        try {
            return NetDevices.parse(raw).resolve(names, h.listedOnlyNics(), c.ucxVersion()).devices().stream()
                    .map(dev -> dev.replaceFirst(":[0-9]+$", "")).distinct().toList();
        } catch (RuntimeException e) {
            return List.of();
        }
    }
}
