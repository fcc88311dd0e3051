package org.rdmasim.scenario;

import java.util.Locale;
import java.util.Set;
import org.rdmasim.hardware.FabricSpec;

/** The {@code fabric} section: non-blocking, leaf-spine or rail-optimised, with its hop latency. */
final class FabricReader {
    private FabricReader() {
    }

    static FabricSpec fabric(YamlTree v) {
        v.onlyFields(Set.of("kind", "hostsPerLeaf", "oversubscription", "hopLatency"));
        FabricSpec.Kind kind = FabricSpec.Kind.NON_BLOCKING;
        if (v.has("kind")) {
            YamlTree k = v.get("kind");
            kind = switch (k.text().toLowerCase(Locale.ROOT)) {
                case "non-blocking", "nonblocking" -> FabricSpec.Kind.NON_BLOCKING;
                case "leaf-spine" -> FabricSpec.Kind.LEAF_SPINE;
                case "rail-optimized", "rail-optimised" -> FabricSpec.Kind.RAIL_OPTIMIZED;
                default -> throw k.notOneOf("non-blocking, leaf-spine or rail-optimized",
                        java.util.List.of("non-blocking", "leaf-spine", "rail-optimized"));
            };
        }
        int perLeaf = Math.toIntExact(Parameters.HOSTS_PER_LEAF.fromYamlOrDefault(v));
        double over = Parameters.OVERSUBSCRIPTION.fromYamlOrDefault(v);
        double hop = Parameters.HOP_LATENCY.fromYamlOrDefault(v);
        return new FabricSpec(kind, perLeaf, over, hop);
    }
}
