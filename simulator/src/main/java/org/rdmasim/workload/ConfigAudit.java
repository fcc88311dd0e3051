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
 * @param unusedWhy    why its lanes left some listed NICs out, in one clause from UCX's lane decision, or empty
 * @param whatIf       why the variant is a what-if (hosts on a profile other than their own), or null when it is a
 *                     setting a deployment can choose
 */
public record ConfigAudit(List<ConfigOverride> overrides, String process, List<String> listedNics,
        List<Assumption> restsOn, String unusedWhy, WhatIf whatIf) {
    public static final ConfigAudit NONE = new ConfigAudit(List.of(), "", List.of(), List.of());

    public ConfigAudit {
        overrides = List.copyOf(overrides);
        listedNics = List.copyOf(listedNics);
        restsOn = List.copyOf(restsOn);
    }

    public ConfigAudit(List<ConfigOverride> overrides, String process, List<String> listedNics, List<Assumption> restsOn) {
        this(overrides, process, listedNics, restsOn, "", null);
    }

    /**
     * With why the first initiator's lane choice left out listed NICs, as one clause from UCX's decision (its
     * ratio filter, its rail limit, a registration), or empty.
     */
    public ConfigAudit withUnusedWhy(String why) {
        return new ConfigAudit(overrides, process, listedNics, restsOn, why, whatIf);
    }

    /** With why the variant is a what-if ({@code VariantSpec.whatIf}), or null for a deployable one. */
    public ConfigAudit withWhatIf(WhatIf why) {
        return new ConfigAudit(overrides, process, listedNics, restsOn, unusedWhy, why);
    }

    /** Whether the variant is a what-if, not a setting a deployment can choose. */
    public boolean isWhatIf() {
        return whatIf != null;
    }

    /**
     * One thing the variant's answer rests on that no mechanism derives: a calibrated or assumed profile
     * parameter, a deployment the scenario does not name, a default an importer filled in.
     *
     * @param what   the parameter and its value, in words
     * @param kind   {@code calibrated} (fitted to a named measurement) or {@code assumed}
     * @param source where the value comes from, and what the answer would be without it where known
     */
    public record Assumption(String what, String kind, String source) {
    }

    /** The host of {@link #process}, or empty. */
    public String host() {
        int colon = process.indexOf(':');
        return colon < 0 ? process : process.substring(0, colon);
    }
}
