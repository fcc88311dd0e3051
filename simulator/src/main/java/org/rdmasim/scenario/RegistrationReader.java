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
        if (v.has(Parameters.PAGE_SIZE.key())) {
            params = params.withPageSizeBytes(Parameters.PAGE_SIZE.fromYaml(v.get(Parameters.PAGE_SIZE.key())).bytes());
        }
        RegistrationCaps caps = RegistrationCaps.none();
        if (v.has(Parameters.FIRMWARE_PAGE_CAP.key())) {
            RegistrationLimits.FirmwareCapScope scope = Parameters.CAP_SCOPE.fromYamlOrDefault(v);
            caps = caps.withFirmwarePageCap(
                    Parameters.FIRMWARE_PAGE_CAP.fromYaml(v.get(Parameters.FIRMWARE_PAGE_CAP.key())), scope);
        } else if (v.has(Parameters.CAP_SCOPE.key())) {
            Parameters.CAP_SCOPE.fromYaml(v.get(Parameters.CAP_SCOPE.key()));
        }
        if (v.has(Parameters.HOST_MEMORY.key())) {
            caps = caps.withHostMemory(Parameters.HOST_MEMORY.fromYaml(v.get(Parameters.HOST_MEMORY.key())));
        }
        if (v.has("mttLimit")) {
            caps = caps.withMttLimit(Parameters.MTT_LIMIT.fromYaml(v.get("mttLimit")));
        }
        return new RegistrationSettings(params, caps);
    }
}
