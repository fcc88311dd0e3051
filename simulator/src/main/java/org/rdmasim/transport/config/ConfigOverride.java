package org.rdmasim.transport.config;

/**
 * A value the user set that a layer of the stack replaced or ignored: the process runs with something
 * other than what the scenario says. Reports show every one beside the answer it changed.
 *
 * @param variable       the variable, e.g. {@code UCX_NET_DEVICES}
 * @param userValue      what the user set
 * @param userOrigin     where the user set it ({@code file:line})
 * @param effectiveValue what the process runs with
 * @param layer          the layer that replaced it ({@code MODEL_EXPRESS}), or {@code DEFAULT} when the
 *                       library ignores the variable and keeps its default
 * @param why            the mechanism, with its source
 */
public record ConfigOverride(String variable, String userValue, String userOrigin, String effectiveValue,
        ConfigLayer layer, String why) {

    /**
     * {@code file:line} without the folders in front of the file, so a report says the same on every
     * machine; anything else is returned as it is.
     */
    public static String fileAndLine(String origin) {
        return origin.replaceAll("^.*/([^/]+:[0-9]+)$", "$1");
    }

    /** One line: {@code UCX_NET_DEVICES='mlx5_0:1,...' (s.yaml:12) -> 'mlx5_0:1' by ModelExpress: why}. */
    public String describe() {
        return variable + "='" + userValue + "' (" + userOrigin + ") -> '" + effectiveValue + "' by "
                + layerWords() + ": " + why;
    }

    /** The layer in plain words. */
    public String layerWords() {
        return switch (layer) {
            case MODEL_EXPRESS -> "ModelExpress";
            case NIXL -> "NIXL";
            case UCX_CONF -> "ucx.conf";
            case DEFAULT -> "the library's default";
            case USER -> "the user";
        };
    }
}
