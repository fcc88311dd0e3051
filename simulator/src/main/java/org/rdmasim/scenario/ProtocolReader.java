package org.rdmasim.scenario;

import java.util.Set;
import org.rdmasim.transport.ProtocolParameters;

/** The {@code protocol} section: latencies and per-message costs, defaulting to {@link ProtocolParameters#defaults()}. */
final class ProtocolReader {
    private ProtocolReader() {
    }

    static ProtocolParameters protocol(YamlTree v) {
        v.onlyFields(Set.of("nicLatency", "pcieHop", "perDescriptor", "perFragment", "maxOutstandingReads", "stagingCopy",
                "sendQueueDepth", "nicMessageRate"));
        ProtocolParameters d = ProtocolParameters.defaults();
        return new ProtocolParameters(
                Parameters.NIC_LATENCY.fromYaml(v, d.nicLatencySeconds()),
                Parameters.PCIE_HOP.fromYaml(v, d.pcieHopSeconds()),
                Parameters.PER_DESCRIPTOR.fromYaml(v, d.perDescriptorSeconds()),
                Parameters.PER_FRAGMENT.fromYaml(v, d.perFragmentSeconds()),
                Math.toIntExact(Parameters.MAX_OUTSTANDING_READS.fromYaml(v, (long) d.maxOutstandingReads())),
                Parameters.STAGING_COPY.fromYaml(v, d.stagingCopySeconds()),
                Math.toIntExact(Parameters.SEND_QUEUE_DEPTH.fromYaml(v, (long) d.sendQueueDepth())),
                Parameters.NIC_MESSAGE_RATE.fromYaml(v, (long) d.nicMessageRate()).doubleValue());
    }
}
