package org.rdmasim.scenario;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.rdmasim.transport.backend.LibfabricBackend;
import org.rdmasim.transport.backend.MooncakeBackend;
import org.rdmasim.transport.backend.PegaflowBackend;
import org.rdmasim.transport.backend.TransferBackend;
import org.rdmasim.transport.backend.UcxBackend;
import org.rdmasim.transport.config.StackVersion;
import org.rdmasim.transport.ucx.StackProfile;
import org.rdmasim.transport.ucx.UcxLaneSelection;

/**
 * {@code transport.backend}: which NIXL backend plugin carries the transfers, {@code ucx} (the default),
 * {@code libfabric} (AWS EFA) or {@code mooncake} (Mooncake's Transfer Engine, standalone or through NIXL's
 * plugin, first in ai-dynamo/nixl tag 0.2.1 {@code src/plugins/mooncake}), or {@code pegaflow} (pegaflow's own
 * RC engine, no NIXL; {@code transport.qpsPerPeer}, default 2 since novitalabs/pegaflow PR #291). The libfabric plugin first ships in NIXL 0.6.1: ai-dynamo/nixl tag 0.6.1
 * is the first tag with {@code src/plugins/libfabric} (0.6.0 has none), built when libfabric is found
 * ({@code src/plugins/meson.build} L26-28 at 0.6.1). {@code transport.visibleDevices}: the network devices a libfabric
 * process can see (the EFA devices its container was given), or Mooncake's {@code MC_TE_FILTERS}; for UCX,
 * UCX_NET_DEVICES does that.
 *
 * <p>This is the one place that names a backend: everything after it asks the {@link TransferBackend}.
 */
final class BackendReader {
    private static final StackVersion FIRST_LIBFABRIC = new StackVersion(0, 6, 1);
    private static final StackVersion FIRST_MOONCAKE = new StackVersion(0, 2, 1);

    private BackendReader() {
    }

    /**
     * The backend the {@code transport} block names (UCX when it names none or there is no block).
     *
     * @param stack the releases the variant runs, for the first NIXL release with the backend
     * @param api   what {@code transport.api} names, for UCX's rail limit
     */
    static TransferBackend read(YamlTree transport, StackProfile stack, UcxLaneSelection.Api api) {
        if (transport != null && !transport.has("backend") && transport.has("sliceThread")) {
            throw transport.get("sliceThread").error("sliceThread applies to the mooncake backend (backend: mooncake)");
        }
        if (transport != null && !transport.has("backend") && transport.has("qpsPerPeer")) {
            throw transport.get("qpsPerPeer").error("qpsPerPeer applies to the pegaflow backend (backend: pegaflow)");
        }
        if (transport == null || !transport.has("backend")) {
            if (transport != null && transport.has("visibleDevices")) {
                throw transport.get("visibleDevices").error("visibleDevices applies to the libfabric backend "
                        + "(backend: libfabric); under UCX, UCX_NET_DEVICES chooses the devices");
            }
            return new UcxBackend(api);
        }
        YamlTree b = transport.get("backend");
        if (transport.has("sliceThread") && !b.text().trim().equalsIgnoreCase("mooncake")) {
            throw transport.get("sliceThread").error("sliceThread applies to the mooncake backend");
        }
        if (transport.has("qpsPerPeer") && !b.text().trim().equalsIgnoreCase("pegaflow")) {
            throw transport.get("qpsPerPeer").error("qpsPerPeer applies to the pegaflow backend");
        }
        String name = b.text().trim().toLowerCase(Locale.ROOT);
        switch (name) {
            case "ucx" -> {
                if (transport.has("visibleDevices")) {
                    throw transport.get("visibleDevices").error("visibleDevices applies to the libfabric backend; "
                            + "under UCX, UCX_NET_DEVICES chooses the devices");
                }
                return new UcxBackend(api);
            }
            case "libfabric" -> {
                if (stack.nixl().isPresent() && !stack.nixl().get().atLeast(FIRST_LIBFABRIC)) {
                    throw b.error("NIXL " + stack.nixl().get() + " has no libfabric backend (first in NIXL 0.6.1, "
                            + "ai-dynamo/nixl tag 0.6.1 src/plugins/libfabric)");
                }
                return new LibfabricBackend(visibleDevices(transport));
            }
            case "mooncake" -> {
                if (stack.nixl().isPresent() && !stack.nixl().get().atLeast(FIRST_MOONCAKE)) {
                    throw b.error("NIXL " + stack.nixl().get() + " has no Mooncake backend (first in NIXL 0.2.1, "
                            + "ai-dynamo/nixl tag 0.2.1 src/plugins/mooncake)");
                }
                // visibleDevices: the engine's MC_TE_FILTERS whitelist (kvcache-ai/Mooncake 3b5a59413
                // mooncake-transfer-engine/src/topology.cpp L161-190)
                return new MooncakeBackend(visibleDevices(transport), Parameters.SLICE_THREAD.fromYamlOrDefault(transport));
            }
            case "pegaflow" -> {
                if (stack.nixl().isPresent()) {
                    throw b.error("pegaflow's RDMA engine is not a NIXL plugin: drop transport.nixl");
                }
                int qps = Math.toIntExact(Parameters.QPS_PER_PEER.fromYamlOrDefault(transport));
                return new PegaflowBackend(visibleDevices(transport), qps);
            }
            default -> throw b.error("unknown backend '" + b.text() + "' (expected ucx, libfabric, mooncake or pegaflow)"
                    + YamlTree.suggestion(b.text().trim(), java.util.List.of("ucx", "libfabric", "mooncake", "pegaflow")));
        }
    }

    private static List<String> visibleDevices(YamlTree transport) {
        List<String> visible = new ArrayList<>();
        if (transport.has("visibleDevices")) {
            YamlTree d = transport.get("visibleDevices");
            for (YamlTree item : d.items()) {
                visible.add(item.text());
            }
            if (visible.isEmpty()) {
                throw d.error("the list of visible devices is empty");
            }
        }
        return visible;
    }
}
