package org.rdmasim.importers;

import java.util.Map;

/**
 * The identity a topology file gives a host's CPUs (by NUMA node: arch, vendor, familyid, modelid,
 * host_hash) and devices (by GPU or NIC port name), for an export that keeps them. Hosts from
 * presets or from {@code nvidia-smi} text have none.
 */
public record HostIdentity(Map<Integer, Map<String, String>> cpus, Map<String, DeviceIdentity> devices) {
    public HostIdentity {
        cpus = Map.copyOf(cpus);
        devices = Map.copyOf(devices);
    }

    public static HostIdentity none() {
        return new HostIdentity(Map.of(), Map.of());
    }
}
