package org.rdmasim.scenario;

import java.util.Set;
import org.rdmasim.transport.ProtocolParameters;

/** The {@code protocol} section: latencies and per-message costs, defaulting to {@link ProtocolParameters#defaults()}. */
final class ProtocolReader {
    private ProtocolReader() {
    }

    static ProtocolParameters protocol(YamlTree v) {
        v.onlyFields(Set.of("nicLatency", "pcieHop", "perDescriptor", "perFragment", "maxOutstandingReads", "stagingCopy"));
        ProtocolParameters d = ProtocolParameters.defaults();
        int outstanding = d.maxOutstandingReads();
        if (v.has("maxOutstandingReads")) {
            long n = v.get("maxOutstandingReads").integer();
            if (n < 1 || n > 1024) {
                throw v.get("maxOutstandingReads").error("expected 1 to 1024");
            }
            outstanding = (int) n;
        }
        return new ProtocolParameters(
                v.has("nicLatency") ? Quantities.seconds(v.get("nicLatency")) : d.nicLatencySeconds(),
                v.has("pcieHop") ? Quantities.seconds(v.get("pcieHop")) : d.pcieHopSeconds(),
                v.has("perDescriptor") ? Quantities.seconds(v.get("perDescriptor")) : d.perDescriptorSeconds(),
                v.has("perFragment") ? Quantities.seconds(v.get("perFragment")) : d.perFragmentSeconds(),
                outstanding,
                v.has("stagingCopy") ? Quantities.seconds(v.get("stagingCopy")) : d.stagingCopySeconds());
    }
}
