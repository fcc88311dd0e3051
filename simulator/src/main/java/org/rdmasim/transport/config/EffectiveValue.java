package org.rdmasim.transport.config;

import java.util.Objects;

/**
 * One resolved variable.
 *
 * @param name     the variable, e.g. {@code UCX_MAX_RMA_RAILS}
 * @param rawValue the text the library parses, exactly as set
 * @param layer    the layer whose value is in effect
 * @param origin   where it came from: {@code file:line} for user entries, the source file for
 *                 defaults and overrides
 */
public record EffectiveValue(String name, String rawValue, ConfigLayer layer, String origin) {

    public EffectiveValue {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(rawValue, "rawValue");
        Objects.requireNonNull(layer, "layer");
        Objects.requireNonNull(origin, "origin");
    }
}
