package org.rdmasim.scenario;

import java.util.List;
import java.util.Map;
import org.rdmasim.hardware.FabricSpec;
import org.rdmasim.hardware.HostSpec;
import org.rdmasim.transport.ProtocolParameters;
import org.rdmasim.workload.Claim;
import org.rdmasim.workload.TransferItem;

/**
 * One fully specified configuration to run; {@code claim} is null when the variant checks none;
 * {@code warnings} are what UCX and the configuration layers would warn about (unknown devices or
 * variables), found when the scenario was loaded.
 */
public record VariantSpec(String name, String description, Map<String, HostSpec> hosts, FabricSpec fabric,
        TransportSettings transport, ProtocolParameters protocol, RegistrationSettings registration,
        List<TransferItem> transfers, Claim claim, List<String> warnings) {
    public VariantSpec {
        hosts = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(hosts));
        transfers = List.copyOf(transfers);
        warnings = List.copyOf(warnings);
    }
}
