package org.rdmasim.importers.smi;

import java.util.ArrayList;
import java.util.List;
import org.rdmasim.hardware.HostSpec;

/** Test support: the leaf devices (GPUs, NICs) under a list of devices, depth first, by name. */
final class DeviceNames {
    private DeviceNames() {
    }

    static List<String> of(List<HostSpec.DeviceSpec> devices) {
        List<String> out = new ArrayList<>();
        for (HostSpec.DeviceSpec d : devices) {
            if (d instanceof HostSpec.SwitchSpec s) {
                out.addAll(of(s.devices()));
            } else if (d instanceof HostSpec.HostBridgeSpec b) {
                out.addAll(of(b.devices()));
            } else {
                out.add(d.name());
            }
        }
        return out;
    }
}
