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
 * @param warnings     what UCX and the configuration layers would warn of (a misspelt variable, an unknown device),
 *                     shown beside the answer as well as on stderr
 */
public record ConfigAudit(List<ConfigOverride> overrides, String process, List<String> listedNics,
        List<Assumption> restsOn, String unusedWhy, WhatIf whatIf, List<String> warnings) {
    public static final ConfigAudit NONE = new ConfigAudit(List.of(), "", List.of(), List.of());

    public ConfigAudit {
        overrides = List.copyOf(overrides);
        listedNics = List.copyOf(listedNics);
        restsOn = List.copyOf(restsOn);
        warnings = List.copyOf(warnings);
    }

    public ConfigAudit(List<ConfigOverride> overrides, String process, List<String> listedNics, List<Assumption> restsOn) {
        this(overrides, process, listedNics, restsOn, "", null, List.of());
    }

    /**
     * With why the first initiator's lane choice left out listed NICs, as one clause from UCX's decision (its
     * ratio filter, its rail limit, a registration), or empty.
     */
    public ConfigAudit withUnusedWhy(String why) {
        return new ConfigAudit(overrides, process, listedNics, restsOn, why, whatIf, warnings);
    }

    /** With why the variant is a what-if ({@code VariantSpec.whatIf}), or null for a deployable one. */
    public ConfigAudit withWhatIf(WhatIf why) {
        return new ConfigAudit(overrides, process, listedNics, restsOn, unusedWhy, why, warnings);
    }

    /** A path of two or more folders: a warning names the file it read ("/home/me/hosts/h100-topo.txt:2"). */
    private static final java.util.regex.Pattern FOLDERS = java.util.regex.Pattern.compile("(?:/[^/\\s:()',]+)+/");

    /**
     * The warnings as a report shows them, less those an override already says: each file named without its folders, so the same scenario's report reads
     * the same on every machine (as an override's source line does).
     */
    public List<String> reportedWarnings() {
        // a warning that restates an override (a layer replaced a value) is already said by the override
        return warnings.stream()
                .filter(w -> overrides.stream().noneMatch(o -> w.contains(o.variable() + "='" + o.userValue() + "'")))
                .map(w -> FOLDERS.matcher(w).replaceAll("")).toList();
    }

    /** With the variant's warnings ({@code VariantSpec.warnings}). */
    public ConfigAudit withWarnings(List<String> newWarnings) {
        return new ConfigAudit(overrides, process, listedNics, restsOn, unusedWhy, whatIf, newWarnings);
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
