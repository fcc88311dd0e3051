package org.rdmasim.transport.config;

import java.util.List;

/**
 * The NICs a device-list variable selects on one host.
 *
 * @param devices  the selected NICs by verbs name ({@code mlx5_0}), in the host's order
 * @param warnings what the library would warn about (unknown devices, duplicates), in its wording
 */
public record DeviceSelection(List<String> devices, List<String> warnings) {

    public DeviceSelection {
        devices = List.copyOf(devices);
        warnings = List.copyOf(warnings);
    }
}
