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
                default -> throw k.error("expected non-blocking, leaf-spine or rail-optimized, got '" + k.text() + "'");
            };
        }
        int perLeaf = 1;
        if (v.has("hostsPerLeaf")) {
            long n = v.get("hostsPerLeaf").integer();
            if (n < 1) {
                throw v.get("hostsPerLeaf").error("must be at least 1");
            }
            perLeaf = (int) n;
        }
        double over = 1.0;
        if (v.has("oversubscription")) {
            over = v.get("oversubscription").number();
            if (!(over >= 1.0)) {
                throw v.get("oversubscription").error("must be >= 1 (1 = non-blocking, 2 = 2:1), got " + over);
            }
        }
        double hop = v.has("hopLatency") ? Quantities.seconds(v.get("hopLatency")) : FabricSpec.DEFAULT_HOP_LATENCY;
        return new FabricSpec(kind, perLeaf, over, hop);
    }
}
