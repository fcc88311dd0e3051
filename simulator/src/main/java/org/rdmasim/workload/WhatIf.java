package org.rdmasim.workload;

import java.util.List;
import org.rdmasim.hardware.CalibrationProfile;

/**
 * Why a variant is a what-if rather than a setting a deployment can choose: some of its hosts run on a calibration
 * profile other than the one their hardware matches (a scenario naming {@code profile: generic} on a GB200 tray asks
 * what the answer would be without the tray's calibrated terms). The answer ranks deployable variants and states a
 * what-if's figures apart, labelled; {@code VariantSpec.whatIf} decides which variants are what-ifs.
 *
 * @param moved the hosts on another profile, grouped by the profile they run on and the one that is their own, in
 *              the order the scenario lists them; never empty
 */
public record WhatIf(List<Moved> moved) {
    /** Most host names a sentence lists before it says how many more there are (a fan-out has hundreds). */
    private static final int NAMED = 3;

    /**
     * The mark a what-if's name carries where variants are listed side by side (run's results table, compare):
     * as the page's "(what-if: see the answer)", so its figures are not read as a deployment's.
     */
    public static final String MARK = " (what-if)";

    /** {@code name} with {@link #MARK} when {@code whatIf}: summary.json's {@code whatIf} field, or the audit's. */
    public static String marked(String name, boolean whatIf) {
        return whatIf ? name + MARK : name;
    }

    /**
     * Hosts the scenario puts on {@code profile} in place of {@code ownProfile}.
     *
     * @param hosts      the hosts' names
     * @param profile    the profile they run on, e.g. {@code generic}
     * @param ownProfile the profile their hardware matches, e.g. {@code gb200-roce}
     */
    public record Moved(List<String> hosts, String profile, String ownProfile) {
        public Moved {
            hosts = List.copyOf(hosts);
            if (hosts.isEmpty()) {
                throw new IllegalArgumentException("a profile override names at least one host");
            }
        }

        /** "hosts source and receiver run on profile generic (no calibration) in place of gb200-roce". */
        String words() {
            String names = hosts.size() == 1 ? "host " + hosts.get(0) : "hosts " + names(hosts);
            return names + (hosts.size() == 1 ? " runs" : " run") + " on profile " + profile + " ("
                    + CalibrationProfile.named(profile).description() + ") in place of " + ownProfile;
        }

        private static String names(List<String> hosts) {
            if (hosts.size() > NAMED + 1) {
                return String.join(", ", hosts.subList(0, NAMED)) + " and " + (hosts.size() - NAMED) + " more";
            }
            return String.join(", ", hosts.subList(0, hosts.size() - 1)) + " and " + hosts.get(hosts.size() - 1);
        }
    }

    public WhatIf {
        moved = List.copyOf(moved);
        if (moved.isEmpty()) {
            throw new IllegalArgumentException("a what-if has at least one host on another profile");
        }
    }

    /**
     * Why, in one clause: "hosts source and receiver run on profile generic (no calibration) in place of
     * gb200-roce, the profile their hardware matches: what the answer would be on those terms, not a setting a
     * deployment can choose".
     */
    public String why() {
        List<String> each = moved.stream().map(Moved::words).toList();
        boolean one = moved.size() == 1 && moved.get(0).hosts().size() == 1;
        return String.join("; ", each) + (one ? ", the profile its hardware matches" : ", the profile their hardware matches")
                + ": what the answer would be on those terms, not a setting a deployment can choose";
    }
}
