package org.rdmasim.transport;

import java.util.List;

/**
 * The NIXL backend of a variant and, for libfabric, the network devices the process can see (a
 * container is given some EFA devices by the EFA Kubernetes device plugin, {@code vpc.amazonaws.com/efa};
 * NIXL's libfabric backend has no device list of its own in v1.4.0). Empty means every device.
 */
public record BackendChoice(NixlBackend backend, List<String> visibleDevices) {
    public static final BackendChoice UCX = new BackendChoice(NixlBackend.UCX, List.of());

    public BackendChoice {
        visibleDevices = List.copyOf(visibleDevices);
    }
}
