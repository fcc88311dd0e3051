package org.rdmasim.scenario;

import java.util.List;
import org.rdmasim.hardware.Hosts;
import java.util.ArrayList;
import org.rdmasim.transport.BackendChoice;
import org.rdmasim.transport.DataPath;
import org.rdmasim.transport.NixlBackend;
import org.rdmasim.transport.TransferSpec;
import org.rdmasim.transport.config.StackVersion;
import org.rdmasim.transport.libfabric.LibfabricRails;
import org.rdmasim.workload.TransferItem;

/**
 * {@code transport.backend}: which NIXL backend plugin carries the transfers, {@code ucx} (the default)
 * or {@code libfabric} (AWS EFA). The libfabric plugin first ships in NIXL 0.7.0 (ai-dynamo/nixl tag
 * 0.7.0, {@code src/plugins/libfabric}). {@code transport.visibleDevices}: the network devices a libfabric
 * process can see (the EFA devices its container was given); for UCX, UCX_NET_DEVICES does that.
 */
final class BackendReader {
    private static final StackVersion FIRST_LIBFABRIC = new StackVersion(0, 7, 0);

    private BackendReader() {
    }

    /** {@code settings} with the backend the {@code transport} block names. */
    static TransportSettings read(YamlTree transport, TransportSettings settings) {
        if (transport == null || !transport.has("backend")) {
            if (transport != null && transport.has("visibleDevices")) {
                throw transport.get("visibleDevices").error("visibleDevices applies to the libfabric backend "
                        + "(backend: libfabric); under UCX, UCX_NET_DEVICES chooses the devices");
            }
            return settings;
        }
        YamlTree b = transport.get("backend");
        NixlBackend backend;
        try {
            backend = NixlBackend.parse(b.text());
        } catch (IllegalArgumentException e) {
            throw b.error(e.getMessage());
        }
        if (backend == NixlBackend.LIBFABRIC && settings.stack().nixl().isPresent()
                && !settings.stack().nixl().get().atLeast(FIRST_LIBFABRIC)) {
            throw b.error("NIXL " + settings.stack().nixl().get() + " has no libfabric backend (first in 0.7.0)");
        }
        List<String> visible = new ArrayList<>();
        if (transport.has("visibleDevices")) {
            YamlTree d = transport.get("visibleDevices");
            if (backend != NixlBackend.LIBFABRIC) {
                throw d.error("visibleDevices applies to the libfabric backend; under UCX, UCX_NET_DEVICES chooses the devices");
            }
            for (YamlTree item : d.items()) {
                visible.add(item.text());
            }
            if (visible.isEmpty()) {
                throw d.error("the list of visible devices is empty");
            }
        }
        return settings.withBackend(new BackendChoice(backend, visible));
    }

    /** Each transfer's rails under the libfabric backend, so a buffer it cannot register is reported now. */
    static void checkLanes(YamlTree where, Hosts cluster, List<TransferItem> transfers, BackendChoice backend,
            java.util.Optional<StackVersion> nixl) {
        LibfabricRails rails = new LibfabricRails(backend.visibleDevices(), nixl);
        for (TransferItem t : transfers) {
            TransferSpec spec = new TransferSpec(t.id(), t.from(), t.to(), t.bytes(), t.operation(), t.descriptors(),
                    DataPath.GPUDIRECT, DataPath.GPUDIRECT, false, 0);
            try {
                rails.decide(cluster, spec);
            } catch (IllegalArgumentException e) {
                throw where.error("transfer " + t.id() + ": " + e.getMessage());
            }
        }
    }
}
