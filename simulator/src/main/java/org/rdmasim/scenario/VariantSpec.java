package org.rdmasim.scenario;

import java.util.List;
import java.util.Map;
import org.rdmasim.hardware.FabricSpec;
import org.rdmasim.hardware.HostSpec;
import org.rdmasim.transport.ProtocolParameters;
import org.rdmasim.workload.Claim;
import org.rdmasim.workload.TransferItem;

/** One fully specified configuration to run; {@code claim} is null when the variant checks none. */
public record VariantSpec(String name, String description, Map<String, HostSpec> hosts, FabricSpec fabric,
        TransportSettings transport, ProtocolParameters protocol, RegistrationSettings registration,
        List<TransferItem> transfers, Claim claim) {
    public VariantSpec {
        hosts = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(hosts));
        transfers = List.copyOf(transfers);
    }
}
