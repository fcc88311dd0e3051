package org.rdmasim.transport.ucx;

import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.HostSpec;
import org.rdmasim.hardware.TopologyNode;
import org.rdmasim.transport.config.EnvEntry;
import org.rdmasim.transport.config.ConfigResolver;
import org.rdmasim.transport.config.EffectiveConfig;
import org.rdmasim.transport.config.ModelExpressBuild;
import org.rdmasim.transport.config.NicTopologyView;
import org.rdmasim.transport.config.StackSetup;
import org.rdmasim.transport.config.StackVersion;
import org.rdmasim.transport.config.UcxConfFile;
import org.rdmasim.transport.config.UcxInstall;

/**
 * The software stack of a variant: the user's environment, the NIXL release (empty for plain UCX)
 * and the UCX release. Every process (one per GPU, or one per host for host memory) resolves its own
 * effective configuration from it, since ModelExpress pins each GPU to its own NIC.
 */
public final class StackProfile {
    /** UCX release assumed when a scenario does not say (the last release before UCX_MAX_HCA_PER_GPU). */
    public static final StackVersion DEFAULT_UCX = new StackVersion(1, 20, 0);
    /**
     * NCCL release assumed when a scenario does not say: the last whose default {@code NCCL_NET_GDR_LEVEL}
     * is PXB (NVIDIA/nccl v2.28.9-1 src/graph/paths.cc L453; P2C from v2.29.2-1 L456), so an unnamed
     * release keeps the PXB default the model always had.
     */
    public static final StackVersion DEFAULT_NCCL = new StackVersion(2, 28, 9);

    private final List<EnvEntry> env;
    private final Optional<StackVersion> nixl;
    private final StackVersion ucx;
    private final UcxInstall install;
    private final boolean installStated;
    private final ModelExpressBuild modelExpress;
    private final Optional<StackVersion> nccl;
    /**
     * Resolved configurations by host shape, then device. {@link #resolve} reads only what a host's spec
     * decides (its devices, their tree, its CPU family), never its name, so hosts of one counted group
     * (which share one spec object) share one entry: at 16,384 receivers, one resolution instead of
     * 16,384.
     */
    private final Map<HostSpec, Map<String, EffectiveConfig>> cache = new IdentityHashMap<>();

    /** A stack whose UCX install is the common one for it ({@link UcxInstall#commonFor}), not stated. */
    public StackProfile(List<EnvEntry> env, Optional<StackVersion> nixl, StackVersion ucx) {
        this(env, nixl, ucx, UcxInstall.commonFor(nixl), false, ModelExpressBuild.LATEST_RELEASE, Optional.empty());
    }

    /**
     * @param install       how the UCX the process loads was installed (decides whether ucx.conf is read)
     * @param installStated whether the scenario names the install; when it does not, outputs show the
     *                      answer under the other install too
     */
    public StackProfile(List<EnvEntry> env, Optional<StackVersion> nixl, StackVersion ucx, UcxInstall install,
            boolean installStated, ModelExpressBuild modelExpress) {
        this(env, nixl, ucx, install, installStated, modelExpress, Optional.empty());
    }

    private StackProfile(List<EnvEntry> env, Optional<StackVersion> nixl, StackVersion ucx, UcxInstall install,
            boolean installStated, ModelExpressBuild modelExpress, Optional<StackVersion> nccl) {
        this.env = List.copyOf(env);
        this.nixl = nixl;
        this.ucx = ucx;
        this.install = install;
        this.installStated = installStated;
        this.modelExpress = modelExpress;
        this.nccl = nccl;
    }

    public ModelExpressBuild modelExpress() {
        return modelExpress;
    }

    /** How the UCX the process loads was installed. */
    public UcxInstall install() {
        return install;
    }

    /** Whether the scenario names the install (else it is {@link UcxInstall#commonFor} the stack). */
    public boolean installStated() {
        return installStated;
    }

    /** The same stack with another environment (a sizing knob, a backend's devices). */
    public StackProfile withEnv(List<EnvEntry> newEnv) {
        return new StackProfile(newEnv, nixl, ucx, install, installStated, modelExpress, nccl);
    }

    /** The same stack under another UCX install, stated: the answer had the deployment been that one. */
    public StackProfile withInstall(UcxInstall other) {
        return new StackProfile(env, nixl, ucx, other, true, modelExpress, nccl);
    }

    /** Where the install comes from, as outputs say it: the scenario's field, or that it is the common one. */
    public String installStatedWhere() {
        return installStated ? "transport.ucxInstall" : "not stated: the common install for this stack";
    }

    /**
     * Whether the install decides anything on {@code host}: the ucx.conf of this UCX release has a section
     * for the host's CPU, so the two installs configure it differently.
     */
    public boolean installMatters(Host host) {
        return !UcxConfFile.forHost(host.spec().cpuFamily(), ucx, true).settings().isEmpty();
    }

    public static StackProfile plainUcx() {
        return new StackProfile(List.of(), Optional.empty(), DEFAULT_UCX);
    }

    public List<EnvEntry> env() {
        return env;
    }

    public Optional<StackVersion> nixl() {
        return nixl;
    }

    public StackVersion ucx() {
        return ucx;
    }

    /** The same stack with the NCCL release the scenario names ({@code transport.nccl}). */
    public StackProfile withNccl(StackVersion release) {
        return new StackProfile(env, nixl, ucx, install, installStated, modelExpress, Optional.of(release));
    }

    /** The NCCL release the scenario names, if it does. */
    public Optional<StackVersion> nccl() {
        return nccl;
    }

    /** The NCCL release NCCL's rules are read at: the scenario's, else {@link #DEFAULT_NCCL}. */
    public StackVersion ncclRelease() {
        return nccl.orElse(DEFAULT_NCCL);
    }

    /** The effective configuration of the process that owns {@code device}'s memory on {@code host}. */
    public synchronized EffectiveConfig configFor(Host host, TopologyNode device) {
        return cache.computeIfAbsent(host.spec(), k -> new HashMap<>())
                .computeIfAbsent(device.name(), k -> resolve(host, device));
    }

    private EffectiveConfig resolve(Host host, TopologyNode device) {
        String gpu = device.kind() == TopologyNode.Kind.GPU ? device.name() : "";
        int index = device.kind() == TopologyNode.Kind.GPU ? host.gpus().indexOf(device) : 0;
        StackSetup setup = StackSetup.of(env, ucx, gpu, index, nicView(host))
                .withUcxConf(UcxConfFile.forHost(host.spec().cpuFamily(), ucx, install.readsUcxConf()))
                .withModelExpress(modelExpress);
        if (nixl.isPresent()) {
            setup = setup.withNixl(nixl.get());
        }
        return ConfigResolver.resolve(setup);
    }

    /**
     * The host's NICs as the configuration layer sees them, with the NIC ModelExpress' auto probe pins
     * each GPU to ([mx-src] {@code modelexpress_client/python/modelexpress/ucx_utils.py}; the rule as PR #255
     * [mx-pr-255] states it):
     * GPUs are assigned greedily in index order to the NIC with the longest common PCI path prefix with
     * the GPU, then the fewest GPUs already assigned, then the name (taken here as PCI order, which the
     * name follows on every preset but orders mlx5_10 after mlx5_9); storage ports ({@code NicRole}) are
     * not offered, the probe keeping to compute-rate NICs; so two GPUs equally near two NICs get
     * one each. The common sysfs prefix is read here as the depth of the GPU's and NIC's common ancestor in
     * the host tree.
     */
    public static NicTopologyView nicView(Host host) {
        java.util.Map<String, String> pinned = new java.util.HashMap<>();
        java.util.Map<String, Integer> assigned = new java.util.HashMap<>();
        for (TopologyNode gpu : host.gpus()) {
            TopologyNode best = null;
            int bestScore = -1;
            // compute ports only, visited in PCI order, so a tie goes to the earlier one
            for (TopologyNode nic : host.computeNics()) {
                TopologyNode common = host.commonAncestor(gpu, nic);
                int score = common == null ? 0 : common.depth();
                int count = assigned.getOrDefault(nic.name(), 0);
                if (best == null || score > bestScore
                        || (score == bestScore && count < assigned.getOrDefault(best.name(), 0))) {
                    best = nic;
                    bestScore = score;
                }
            }
            if (best != null) {
                pinned.put(gpu.name(), best.name());
                assigned.merge(best.name(), 1, Integer::sum);
            }
        }
        return NicTopologyView.of(host.computeNics().stream().map(TopologyNode::name).toList(),
                gpu -> gpu.isEmpty() ? null : pinned.get(gpu));
    }
}
