package org.rdmasim.scenario;

import java.util.List;
import org.rdmasim.workload.FaultPlan;
import java.util.Map;
import org.rdmasim.hardware.FabricSpec;
import org.rdmasim.hardware.HostSpec;
import org.rdmasim.transport.ProtocolParameters;
import org.rdmasim.workload.Claim;
import org.rdmasim.workload.FanoutPlan;
import org.rdmasim.workload.TransferItem;
import org.rdmasim.workload.Workload;

/**
 * One fully specified configuration to run; {@code claim} is null when the variant checks none;
 * {@code warnings} are what UCX and the configuration layers would warn about (unknown devices or
 * variables), found when the scenario was loaded. {@code workload} is a list of transfers or a fan-out,
 * never both. {@code faults} are the faults the run schedules ({@link FaultPlan#NONE} when it has none).
 */
public record VariantSpec(String name, String description, Map<String, HostSpec> hosts, FabricSpec fabric,
        TransportSettings transport, ProtocolParameters protocol, RegistrationSettings registration,
        Workload workload, Claim claim, List<String> warnings, FaultPlan faults) {
    public VariantSpec {
        faults = faults == null ? FaultPlan.NONE : faults;
        hosts = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(hosts));
        // each said once, in the order found: two host groups imported from one file (imported-h100-host's
        // source and receiver) gave the same warning, at the same file and line, twice
        warnings = List.copyOf(new java.util.LinkedHashSet<>(warnings));
        java.util.Objects.requireNonNull(workload, "workload");
    }

    public VariantSpec(String name, String description, Map<String, HostSpec> hosts, FabricSpec fabric,
            TransportSettings transport, ProtocolParameters protocol, RegistrationSettings registration,
            List<TransferItem> transfers, Claim claim) {
        this(name, description, hosts, fabric, transport, protocol, registration, new Workload.Transfers(transfers), claim,
                List.of(), null);
    }

    public VariantSpec(String name, String description, Map<String, HostSpec> hosts, FabricSpec fabric,
            TransportSettings transport, ProtocolParameters protocol, RegistrationSettings registration,
            List<TransferItem> transfers, Claim claim, List<String> warnings) {
        this(name, description, hosts, fabric, transport, protocol, registration, new Workload.Transfers(transfers), claim,
                warnings, null);
    }

    /**
     * Why this variant is a what-if, or empty when it is a setting a deployment can choose: the one place that
     * decides it. A variant is a what-if when some host runs on a calibration profile other than the one its
     * hardware matches ({@link HostSpec#otherProfile}); the answer ranks the others and states a what-if's figures
     * apart. Hosts are grouped by the profile they run on and their own (a counted group's hosts share one spec).
     */
    public java.util.Optional<org.rdmasim.workload.WhatIf> whatIf() {
        Map<List<String>, List<String>> byProfiles = new java.util.LinkedHashMap<>();
        // the profile a host runs on and its own, or empty for one on its own: decided once per spec
        Map<HostSpec, java.util.Optional<List<String>>> seen = new java.util.IdentityHashMap<>();
        for (Map.Entry<String, HostSpec> e : hosts.entrySet()) {
            seen.computeIfAbsent(e.getValue(), h -> h.otherProfile().map(p -> List.of(p,
                    org.rdmasim.hardware.CalibrationProfile.matching(h).name())))
                    .ifPresent(k -> byProfiles.computeIfAbsent(k, x -> new java.util.ArrayList<>()).add(e.getKey()));
        }
        if (byProfiles.isEmpty()) {
            return java.util.Optional.empty();
        }
        List<org.rdmasim.workload.WhatIf.Moved> moved = new java.util.ArrayList<>();
        byProfiles.forEach((k, names) -> moved.add(new org.rdmasim.workload.WhatIf.Moved(names, k.get(0), k.get(1))));
        return java.util.Optional.of(new org.rdmasim.workload.WhatIf(moved));
    }

    /** The transfers of a transfer-list workload; empty for a fan-out. */
    public List<TransferItem> transfers() {
        return workload instanceof Workload.Transfers t ? t.items() : List.of();
    }

    /** True for a fan-out. */
    public boolean isFanout() {
        return workload instanceof Workload.Fanout;
    }

    /** True for a refit. */
    public boolean isRefit() {
        return workload instanceof Workload.Refit;
    }

    /** The refit; only for a refit ({@link #isRefit()}). */
    public org.rdmasim.workload.RefitSpec refitSpec() {
        if (workload instanceof Workload.Refit r) {
            return r.spec();
        }
        throw new IllegalStateException("variant " + name + " does not run a refit");
    }

    public VariantSpec withRefit(org.rdmasim.workload.RefitSpec spec) {
        return new VariantSpec(name, description, hosts, fabric, transport, protocol, registration,
                new Workload.Refit(spec), claim, warnings, faults);
    }

    /** The fan-out plan; only for a fan-out ({@link #isFanout()}). */
    public FanoutPlan fanoutPlan() {
        if (workload instanceof Workload.Fanout f) {
            return f.plan();
        }
        throw new IllegalStateException("variant " + name + " runs a list of transfers, not a fan-out");
    }

    public VariantSpec withName(String newName) {
        return new VariantSpec(newName, description, hosts, fabric, transport, protocol, registration, workload, claim,
                warnings, faults);
    }

    public VariantSpec withFanout(FanoutPlan plan, Map<String, HostSpec> newHosts) {
        return new VariantSpec(name, description, newHosts, fabric, transport, protocol, registration,
                new Workload.Fanout(plan), claim, warnings, faults);
    }

    /** The same variant on {@code newHosts} (the same names; a rerun's hosts bound to another profile). */
    public VariantSpec withHosts(Map<String, HostSpec> newHosts) {
        if (!newHosts.keySet().equals(hosts.keySet())) {
            throw new IllegalArgumentException("variant " + name + ": a rerun keeps the hosts' names, got "
                    + newHosts.keySet() + " for " + hosts.keySet());
        }
        return new VariantSpec(name, description, newHosts, fabric, transport, protocol, registration, workload, claim,
                warnings, faults);
    }

    /** The same variant with other protocol costs (a rerun without an assumed one). */
    public VariantSpec withProtocol(ProtocolParameters p) {
        return new VariantSpec(name, description, hosts, fabric, transport, p, registration, workload, claim, warnings, faults);
    }

    public VariantSpec withTransport(TransportSettings t) {
        return new VariantSpec(name, description, hosts, fabric, t, protocol, registration, workload, claim, warnings, faults);
    }

    public VariantSpec withFaults(FaultPlan plan) {
        return new VariantSpec(name, description, hosts, fabric, transport, protocol, registration, workload, claim, warnings,
                plan);
    }

    public VariantSpec withClaim(Claim c) {
        return new VariantSpec(name, description, hosts, fabric, transport, protocol, registration, workload, c, warnings,
                faults);
    }
}
