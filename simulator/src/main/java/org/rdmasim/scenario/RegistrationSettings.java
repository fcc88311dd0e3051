package org.rdmasim.scenario;

import org.rdmasim.memory.RegistrationCaps;
import org.rdmasim.memory.RegistrationParameters;

/**
 * How a variant registers its buffers before transferring: the page size translations use and the
 * caps registration must stay under (a per-VF firmware page cap, host memory, an MTT limit).
 */
public record RegistrationSettings(RegistrationParameters parameters, RegistrationCaps caps) {
    public static RegistrationSettings defaults() {
        return new RegistrationSettings(RegistrationParameters.defaults(), RegistrationCaps.none());
    }
}
