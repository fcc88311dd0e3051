package org.rdmasim.transport.config;

/**
 * A configuration value the library would reject, or a configuration that leaves nothing to run
 * on (for example {@code UCX_NET_DEVICES} selecting no device). The message names the variable,
 * the value, the layer that set it and what was expected.
 */
public final class ConfigValueException extends RuntimeException {

    private final String variable;
    private final String value;
    private final ConfigLayer layer;

    public ConfigValueException(String variable, String value, ConfigLayer layer, String origin,
            String expected) {
        super(variable + "='" + value + "' (set by " + layer + (origin.isEmpty() ? "" : ", " + origin)
                + "): expected " + expected);
        this.variable = variable;
        this.value = value;
        this.layer = layer;
    }

    public String variable() {
        return variable;
    }

    public String value() {
        return value;
    }

    public ConfigLayer layer() {
        return layer;
    }
}
