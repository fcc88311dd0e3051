package org.rdmasim.workload;

import java.util.List;
import org.rdmasim.transport.config.ConfigOverride;

/**
 * What a variant's processes run with that differs from what the scenario says, for the reports: the
 * values a layer replaced or the library ignored, and the NICs the user listed for the first initiating
 * process (so a variant that uses fewer NICs than it lists can be called out).
 *
 * @param overrides    each replaced or ignored value once, in the order first seen
 * @param process      the first initiating process ({@code host:device}), or empty
 * @param listedNics   the NICs its user-set {@code UCX_NET_DEVICES} lists (as the user wrote it, before any
 *                     layer replaced it), or empty when the user listed none
 */
public record ConfigAudit(List<ConfigOverride> overrides, String process, List<String> listedNics) {
    public static final ConfigAudit NONE = new ConfigAudit(List.of(), "", List.of());

    public ConfigAudit {
        overrides = List.copyOf(overrides);
        listedNics = List.copyOf(listedNics);
    }

    /** The host of {@link #process}, or empty. */
    public String host() {
        int colon = process.indexOf(':');
        return colon < 0 ? process : process.substring(0, colon);
    }
}
