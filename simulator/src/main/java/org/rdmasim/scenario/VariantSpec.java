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

/**
 * One fully specified configuration to run; {@code claim} is null when the variant checks none;
 * {@code warnings} are what UCX and the configuration layers would warn about (unknown devices or
 * variables), found when the scenario was loaded. The workload is either a list of {@code transfers}
 * or a {@code fanout} plan (then {@code transfers} is empty): never both. {@code faults} are the
 * faults the run schedules ({@link FaultPlan#NONE} when it has none).
 */
public record VariantSpec(String name, String description, Map<String, HostSpec> hosts, FabricSpec fabric,
        TransportSettings transport, ProtocolParameters protocol, RegistrationSettings registration,
        List<TransferItem> transfers, Claim claim, List<String> warnings, FanoutPlan fanout, FaultPlan faults) {
    public VariantSpec {
        faults = faults == null ? FaultPlan.NONE : faults;
        hosts = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(hosts));
        transfers = List.copyOf(transfers);
        warnings = List.copyOf(warnings);
    }

    public VariantSpec(String name, String description, Map<String, HostSpec> hosts, FabricSpec fabric,
            TransportSettings transport, ProtocolParameters protocol, RegistrationSettings registration,
            List<TransferItem> transfers, Claim claim, List<String> warnings, FanoutPlan fanout) {
        this(name, description, hosts, fabric, transport, protocol, registration, transfers, claim, warnings, fanout, null);
    }

    public VariantSpec(String name, String description, Map<String, HostSpec> hosts, FabricSpec fabric,
            TransportSettings transport, ProtocolParameters protocol, RegistrationSettings registration,
            List<TransferItem> transfers, Claim claim) {
        this(name, description, hosts, fabric, transport, protocol, registration, transfers, claim, List.of(), null);
    }

    public VariantSpec(String name, String description, Map<String, HostSpec> hosts, FabricSpec fabric,
            TransportSettings transport, ProtocolParameters protocol, RegistrationSettings registration,
            List<TransferItem> transfers, Claim claim, List<String> warnings) {
        this(name, description, hosts, fabric, transport, protocol, registration, transfers, claim, warnings, null);
    }

    public VariantSpec withName(String newName) {
        return new VariantSpec(newName, description, hosts, fabric, transport, protocol, registration, transfers, claim,
                warnings, fanout, faults);
    }

    public VariantSpec withFanout(FanoutPlan plan, Map<String, HostSpec> newHosts) {
        return new VariantSpec(name, description, newHosts, fabric, transport, protocol, registration, transfers, claim,
                warnings, plan, faults);
    }

    public VariantSpec withTransport(TransportSettings t) {
        return new VariantSpec(name, description, hosts, fabric, t, protocol, registration, transfers, claim, warnings, fanout,
                faults);
    }

    public VariantSpec withFaults(FaultPlan plan) {
        return new VariantSpec(name, description, hosts, fabric, transport, protocol, registration, transfers, claim, warnings,
                fanout, plan);
    }
}
