package org.rdmasim.hardware;

import java.util.Objects;
import java.util.Optional;

/**
 * One parameter of one calibration profile, by name: what a {@link Bottleneck}'s number is when a profile
 * holds it (a fitted or assumed figure, not a mechanism). Each kind of limit names its own through
 * {@link Bottleneck#parameters()}; everything that says which parameter a limit stands on asks it there.
 *
 * @param profile the profile's name, e.g. {@code gb200-roce}
 * @param key     the parameter, e.g. {@link ProfileKey#NIC_READ_RATE}
 */
public record ProfileParameter(String profile, ProfileKey key) {
    public ProfileParameter {
        Objects.requireNonNull(profile, "profile");
        Objects.requireNonNull(key, "key");
    }

    /** The parameter as its profile holds it; empty when no profile has that name or it lacks the key. */
    public Optional<CalibrationProfile.Parameter> lookup() {
        if (!CalibrationProfile.NAMES.contains(profile)) {
            return Optional.empty();
        }
        return CalibrationProfile.named(profile).parameter(key);
    }

    /** Whether the profile assumes the figure rather than fitting it to a measurement. */
    public boolean assumed() {
        return lookup().map(p -> p.kind() == CalibrationProfile.Kind.ASSUMED).orElse(false);
    }

    /** CALIBRATED or ASSUMED (or DERIVED): how the profile obtained it; CALIBRATED when the profile lacks it. */
    String kindWord() {
        return lookup().map(p -> p.kind().name()).orElse("CALIBRATED");
    }

    /** The value with its unit, e.g. {@code 308 Gbps}; the key itself when the profile lacks it. */
    String valueText() {
        return lookup().map(p -> Units.number(p.value()) + " " + p.unit()).orElse(key.key());
    }
}
