package org.rdmasim.run;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.rdmasim.memory.VariantRegistration;
import org.rdmasim.scenario.TransportSettings;
import org.rdmasim.transport.NixlBackend;
import org.rdmasim.transport.config.EnvEntry;
import org.rdmasim.transport.libfabric.EfaGroups;
import org.rdmasim.transport.ucx.StackProfile;

/**
 * Which devices each process registers a buffer on, by backend. Under UCX, the stack's resolved
 * configuration decides (UCX_NET_DEVICES, UCX_MAX_HCA_PER_GPU, relaxed ordering). NIXL's libfabric
 * backend registers GPU memory once on each rail of the GPU's EFA group and nowhere else
 * ({@code registerMemory}, ai-dynamo/nixl v1.4.0 {@code libfabric_rail_manager.cpp} L745-800: one
 * {@code fi_mr_regattr} per selected rail); the registration model is handed that as a configuration
 * listing exactly those devices, with one MR each. What one EFA MR costs in translation and firmware
 * memory is the registration model's mlx5 figure: no EFA figure is public.
 */
final class BackendRegistration {
    private BackendRegistration() {
    }

    static VariantRegistration.ProcessConfigs configs(TransportSettings transport) {
        StackProfile stack = transport.stack();
        if (transport.backend().backend() != NixlBackend.LIBFABRIC) {
            return (host, device) -> stack.configFor(host, host.find(device).orElseThrow());
        }
        List<String> visible = transport.backend().visibleDevices();
        EfaGroups.ScarceDevices scarce = EfaGroups.ScarceDevices.of(stack.nixl());
        Map<String, StackProfile> perRails = new ConcurrentHashMap<>();
        return (host, device) -> {
            EfaGroups.Group g = EfaGroups.of(host, visible, scarce).of(device);
            String rails = String.join(",", g.rails().stream().map(r -> r + ":1").toList());
            StackProfile railsOnly = perRails.computeIfAbsent(rails, r -> {
                List<EnvEntry> env = new ArrayList<>(stack.env());
                String origin = "libfabric backend: the GPU's EFA group";
                env.add(new EnvEntry("UCX_NET_DEVICES", r, origin, 0));
                env.add(new EnvEntry("UCX_MAX_HCA_PER_GPU", "inf", origin, 0));
                env.add(new EnvEntry("UCX_IB_PCI_RELAXED_ORDERING", "no", origin, 0));
                return new StackProfile(env, stack.nixl(), stack.ucx(), stack.ucxConfInstalled(), stack.modelExpress());
            });
            return railsOnly.configFor(host, host.find(device).orElseThrow());
        };
    }

}
