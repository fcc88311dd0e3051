package org.rdmasim.memory;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.TopologyNode;
import org.rdmasim.transport.config.EffectiveConfig;
import org.rdmasim.transport.config.HcaPerGpuLimit;
import org.rdmasim.transport.ucx.StackProfile;
import org.rdmasim.transport.ucx.UcxLaneSelection;

/**
 * The HCAs {@code ucp_mem_map} puts a GPU buffer's memory key on, per process, before any transfer: every HCA
 * its {@code UCX_NET_DEVICES} selects, narrowed by {@code UCX_MAX_HCA_PER_GPU} ({@link RegistrationModel#selectHcas};
 * UCX >= 1.21, and NIXL >= 1.2.0 sets it to {@code auto} there). A peer's lane to an HCA outside that set finds no
 * key for it and is skipped ({@code ucp_proto_common_find_lanes}: a lane whose destination md is not in the
 * rkey's md map, openucx/ucx v1.21.0 src/ucp/proto/proto_common.c:654-665), which is what the lane choice asks
 * of {@link #holds}. Host memory and
 * {@code inf} keep every selected HCA, so where the limit is not set this holds everywhere, as before.
 */
public final class MemMapHcas implements UcxLaneSelection.Registrations {

    private final StackProfile stack;
    private final Function<String, Host> hosts;
    private final Map<String, Map<String, Set<String>>> cache = new HashMap<>();

    public MemMapHcas(StackProfile stack, Function<String, Host> hosts) {
        this.stack = stack;
        this.hosts = hosts;
    }

    @Override
    public boolean holds(String host, String device, String nic) {
        Set<String> keyed = cache.computeIfAbsent(host, k -> new HashMap<>()).computeIfAbsent(device,
                d -> keyedOn(host, d));
        return keyed == null || keyed.contains(nic);
    }

    /**
     * How many HCAs {@code ucp_mem_map} registers a buffer on {@code gpu} on, for the process that owns it: the HCAs
     * its {@code UCX_NET_DEVICES} selects (after a NIC pin or NIXL's device list), narrowed by
     * {@code UCX_MAX_HCA_PER_GPU}; at least 1.
     */
    public static int registeredOn(StackProfile stack, Host host, TopologyNode gpu) {
        return Math.max(1, mapped(stack.configFor(host, gpu), host, gpu.name()).size());
    }

    /** The HCAs a buffer on {@code device} is keyed on, or null when nothing narrows them (every HCA holds). */
    private Set<String> keyedOn(String hostName, String device) {
        Host host = hosts.apply(hostName);
        if (host == null) {
            return null;
        }
        TopologyNode node = host.find(device).orElse(null);
        if (node == null || node.kind() != TopologyNode.Kind.GPU) {
            return null;
        }
        EffectiveConfig config = stack.configFor(host, node);
        if (config.maxHcaPerGpu().kind() == HcaPerGpuLimit.Kind.INF) {
            return null;
        }
        return mapped(config, host, device).stream().map(HcaCandidate::name)
                .collect(Collectors.toUnmodifiableSet());
    }

    /** The HCAs {@code ucp_mem_map} maps a CUDA buffer on {@code gpu} on under {@code config}. */
    private static List<HcaCandidate> mapped(EffectiveConfig config, Host host, String gpu) {
        return new RegistrationModel().selectHcas(MemoryRegion.cuda(gpu, 1),
                new HostRegistration(host, config).candidates(gpu), config.maxHcaPerGpu());
    }
}
