package org.rdmasim.transport.config;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.rdmasim.transport.config.EnvEntry;

/**
 * Everything {@link ConfigResolver} needs to know about one process (one GPU worker).
 *
 * @param userEnv          the user's environment as read from a shell file or manifest
 * @param nixlVersion      the NIXL release, or empty when the process does not use NIXL
 * @param ucxVersion       the UCX release the process loads
 * @param nixlAgentDevices devices given to the NIXL agent ({@code ucx_devices} backend parameter);
 *                         empty means none, which is NIXL's default
 * @param gpu              the GPU this process drives, as {@link NicTopologyView} names it
 * @param gpuIndex         the GPU's CUDA-visible index (ModelExpress indexes explicit NIC lists by it)
 * @param topology         the host's NICs and GPU-to-NIC proximity
 * @param ucxConf          the installed {@code ucx.conf} section that applies to the host's CPU
 * @param modelExpress     the ModelExpress client build, which decides what {@code stripe} means
 */
public record StackSetup(List<EnvEntry> userEnv, Optional<StackVersion> nixlVersion, StackVersion ucxVersion,
        List<String> nixlAgentDevices, String gpu, int gpuIndex, NicTopologyView topology, UcxConfFile ucxConf,
        ModelExpressBuild modelExpress) {

    public StackSetup {
        userEnv = List.copyOf(userEnv);
        Objects.requireNonNull(nixlVersion, "nixlVersion");
        Objects.requireNonNull(ucxVersion, "ucxVersion");
        nixlAgentDevices = List.copyOf(nixlAgentDevices);
        Objects.requireNonNull(gpu, "gpu");
        Objects.requireNonNull(topology, "topology");
        Objects.requireNonNull(ucxConf, "ucxConf");
        Objects.requireNonNull(modelExpress, "modelExpress");
    }

    public StackSetup(List<EnvEntry> userEnv, Optional<StackVersion> nixlVersion, StackVersion ucxVersion,
            List<String> nixlAgentDevices, String gpu, int gpuIndex, NicTopologyView topology) {
        this(userEnv, nixlVersion, ucxVersion, nixlAgentDevices, gpu, gpuIndex, topology, UcxConfFile.NONE,
                ModelExpressBuild.LATEST_RELEASE);
    }

    /** A process without NIXL and without agent devices. */
    public static StackSetup of(List<EnvEntry> userEnv, StackVersion ucx, String gpu, int gpuIndex,
            NicTopologyView topology) {
        return new StackSetup(userEnv, Optional.empty(), ucx, List.of(), gpu, gpuIndex, topology);
    }

    public StackSetup withNixl(StackVersion nixl) {
        return new StackSetup(userEnv, Optional.of(nixl), ucxVersion, nixlAgentDevices, gpu, gpuIndex, topology, ucxConf, modelExpress);
    }

    public StackSetup withNixlAgentDevices(List<String> devices) {
        return new StackSetup(userEnv, nixlVersion, ucxVersion, devices, gpu, gpuIndex, topology, ucxConf, modelExpress);
    }

    public StackSetup withUcxConf(UcxConfFile conf) {
        return new StackSetup(userEnv, nixlVersion, ucxVersion, nixlAgentDevices, gpu, gpuIndex, topology, conf, modelExpress);
    }

    public StackSetup withModelExpress(ModelExpressBuild build) {
        return new StackSetup(userEnv, nixlVersion, ucxVersion, nixlAgentDevices, gpu, gpuIndex, topology, ucxConf, build);
    }
}
