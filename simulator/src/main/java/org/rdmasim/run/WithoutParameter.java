package org.rdmasim.run;

import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.rdmasim.hardware.CalibrationProfile;
import org.rdmasim.hardware.HostSpec;
import org.rdmasim.scenario.VariantSpec;
import org.rdmasim.workload.VariantOutcome;

/**
 * A variant rerun without one calibrated or assumed parameter of one profile: every host bound to that profile
 * is bound instead to the profile's copy without the parameter ({@link CalibrationProfile#without}, as the
 * parameter's {@code without} in the profile file says), the rest of the variant unchanged. It answers "what
 * would the answer be without this assumption" beside the answer that rests on it.
 *
 * @param profile   the profile whose parameter is taken away, e.g. {@code gb200-roce}
 * @param key       the parameter, e.g. {@code nicReadRate}
 * @param variant   the variant as rerun (its hosts bound to the copy)
 */
public record WithoutParameter(String profile, String key, VariantSpec variant) {

    /**
     * {@code v} without {@code profile}'s parameter {@code key}; empty when the parameter has no "without" or no
     * host of the variant is bound to that profile.
     */
    public static Optional<WithoutParameter> of(VariantSpec v, String profile, String key) {
        // a counted group shares one spec instance: its hosts keep sharing one rebound instance (one shape)
        Map<HostSpec, HostSpec> rebound = new IdentityHashMap<>();
        Map<String, HostSpec> hosts = new LinkedHashMap<>();
        boolean changed = false;
        for (Map.Entry<String, HostSpec> e : v.hosts().entrySet()) {
            HostSpec spec = e.getValue();
            HostSpec r = rebound.computeIfAbsent(spec, s -> {
                CalibrationProfile bound = CalibrationProfile.forHost(s);
                return bound.name().equals(profile) ? bound.without(key).map(s::withCalibration).orElse(s) : s;
            });
            changed |= r != spec;
            hosts.put(e.getKey(), r);
        }
        return changed ? Optional.of(new WithoutParameter(profile, key, v.withHosts(hosts))) : Optional.empty();
    }

    /**
     * The rerun's outcome, with the seed of the variant's own run. A refit runs once, without the reruns that
     * price "what would halve it" (they would multiply its time by the number of changes).
     */
    public VariantOutcome run(long seed) {
        return variant.isRefit() ? VariantRunner.runRefitOnly(variant) : VariantRunner.run(variant, seed);
    }
}
