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

    /**
     * The parameter as its profile holds it. A limit is made on a profile's parameter only when the profile
     * has it (Cluster builds a calibrated READ or strict-order write limit from a profile that calibrates one,
     * LanePhysics a QP's READ rate only when the profile gives a finite one), so a missing one is a bug: it
     * fails here, naming profile and key, rather than be labelled CALIBRATED with no value.
     */
    private CalibrationProfile.Parameter held() {
        return lookup().orElseThrow(() -> new IllegalStateException("profile '" + profile + "' has no parameter '"
                + key.key() + "': no limit may stand on it"));
    }

    /** Whether the profile assumes the figure rather than fitting it to a measurement. */
    public boolean assumed() {
        return held().kind() == CalibrationProfile.Kind.ASSUMED;
    }

    /** CALIBRATED, ASSUMED or DERIVED: how the profile obtained it. */
    String kindWord() {
        return held().kind().name();
    }

    /**
     * What the figure was fitted to, short: its source up to the first colon, without bracketed reference keys
     * ({@code ai-dynamo/modelexpress #449}); for an assumed figure, its source alike.
     */
    public String measurement() {
        return shortSource(held().source());
    }

    /** A parameter's source up to the first colon, without bracketed reference keys, at most 70 characters. */
    public static String shortSource(String source) {
        // asked for each resource a report names (every receiver's NIC read limit): worked out once per source
        return SHORT_SOURCES.computeIfAbsent(source, ProfileParameter::shorten);
    }

    /** A profile's sources are a handful of texts; their short forms, by source. */
    private static final java.util.Map<String, String> SHORT_SOURCES = new java.util.concurrent.ConcurrentHashMap<>();
    private static final java.util.regex.Pattern CITATION_KEY = java.util.regex.Pattern.compile("\\s*\\[[^\\]]*\\]");

    private static String shorten(String source) {
        int colon = source.indexOf(": ");
        String head = colon > 0 ? source.substring(0, colon) : source;
        head = CITATION_KEY.matcher(head).replaceAll("").trim();
        return head.length() > 70 ? head.substring(0, 67) + "..." : head;
    }

    /** The value with its unit, e.g. {@code 308 Gbps}. */
    String valueText() {
        CalibrationProfile.Parameter p = held();
        return Units.number(p.value()) + " " + p.unit();
    }
}
