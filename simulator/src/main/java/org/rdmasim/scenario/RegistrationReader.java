package org.rdmasim.scenario;

import java.util.Set;
import org.rdmasim.memory.RegistrationCaps;
import org.rdmasim.memory.RegistrationLimits;
import org.rdmasim.memory.RegistrationParameters;

/** The {@code registration} section: page size, firmware page cap and its scope, host memory, MTT limit. */
final class RegistrationReader {
    private RegistrationReader() {
    }

    static RegistrationSettings registration(YamlTree v) {
        v.onlyFields(Set.of("pageSize", "firmwarePageCap", "capScope", "hostMemory", "mttLimit"));
        RegistrationParameters params = RegistrationParameters.defaults();
        if (v.has("pageSize")) {
            YamlTree p = v.get("pageSize");
            long bytes = Quantities.bytes(p);
            try {
                params = params.withPageSizeBytes(bytes);
            } catch (IllegalArgumentException e) {
                throw p.error(e.getMessage());
            }
        }
        RegistrationCaps caps = RegistrationCaps.none();
        if (v.has("firmwarePageCap")) {
            RegistrationLimits.FirmwareCapScope scope = RegistrationLimits.FirmwareCapScope.PER_HCA;
            if (v.has("capScope")) {
                YamlTree sc = v.get("capScope");
                try {
                    scope = RegistrationLimits.FirmwareCapScope.parse(sc.text());
                } catch (IllegalArgumentException e) {
                    throw sc.error(e.getMessage());
                }
            }
            caps = caps.withFirmwarePageCap(Quantities.bytes(v.get("firmwarePageCap")), scope);
        }
        if (v.has("hostMemory")) {
            caps = caps.withHostMemory(Quantities.bytes(v.get("hostMemory")));
        }
        if (v.has("mttLimit")) {
            caps = caps.withMttLimit(Quantities.bytes(v.get("mttLimit")));
        }
        return new RegistrationSettings(params, caps);
    }
}
