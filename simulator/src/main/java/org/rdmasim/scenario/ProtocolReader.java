package org.rdmasim.scenario;

import java.util.Set;
import org.rdmasim.transport.ProtocolParameters;

/**
 * The {@code protocol} section: latencies and per-message costs; a field left out takes its declared default,
 * {@link ProtocolParameters}' own (the values of {@link ProtocolParameters#defaults()}).
 */
final class ProtocolReader {
    private ProtocolReader() {
    }

    static ProtocolParameters protocol(YamlTree v) {
        v.onlyFields(Set.of("nicLatency", "pcieHop", "perDescriptor", "perFragment", "maxOutstandingReads", "stagingCopy",
                "sendQueueDepth", "nicMessageRate"));
        return new ProtocolParameters(
                Parameters.NIC_LATENCY.fromYamlOrDefault(v),
                Parameters.PCIE_HOP.fromYamlOrDefault(v),
                Parameters.PER_DESCRIPTOR.fromYamlOrDefault(v),
                Parameters.PER_FRAGMENT.fromYamlOrDefault(v),
                Math.toIntExact(Parameters.MAX_OUTSTANDING_READS.fromYamlOrDefault(v)),
                Parameters.STAGING_COPY.fromYamlOrDefault(v),
                Math.toIntExact(Parameters.SEND_QUEUE_DEPTH.fromYamlOrDefault(v)),
                Parameters.NIC_MESSAGE_RATE.fromYamlOrDefault(v).doubleValue());
    }
}
