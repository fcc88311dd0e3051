package org.rdmasim.memory;

import org.rdmasim.transport.ucx.HcaDistance;
import org.rdmasim.transport.ucx.UcxTopoDistance;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.HostSpec;
import org.rdmasim.hardware.TopologyNode;
import org.rdmasim.transport.backend.RegistrationSites;
import org.rdmasim.transport.config.DeviceSelection;
import org.rdmasim.transport.config.EffectiveConfig;
import org.rdmasim.transport.config.MemoryType;

/**
 * One process on a built {@link Host}, running with one resolved {@link EffectiveConfig}, as the
 * registration model sees it: which HCAs its buffers may go to, how far each is, and the UCX settings
 * that decide how many MRs each gets.
 *
 * <p>Candidates are the NICs {@code UCX_NET_DEVICES} selects (with UCX's matching rules for the
 * configured version), each with UCX's distance from the buffer's device ({@link UcxTopoDistance}),
 * relaxed-ordering support from {@link HostSpec.NicSpec#relaxedOrdering()}, and the host's CPU family
 * for {@code UCX_IB_PCI_RELAXED_ORDERING=auto}.
 */
public final class HostRegistration {

    /**
     * ASSUMPTION: UCX md index of the host's first NIC; the others follow in the host's order. UCX
     * numbers every memory domain of the context (self, sysv, posix, cuda_cpy, ...) before the HCAs;
     * the host in Crusoe's log [crusoe-kb-nixl] printed mlx5_5 as md[11], which this offset reproduces.
     * It only shows in messages.
     */
    public static final int FIRST_NIC_MD_INDEX = 6;

    private final Host host;
    private final EffectiveConfig config;
    private final DeviceSelection selection;

    /**
     * @throws org.rdmasim.transport.config.ConfigValueException when {@code UCX_NET_DEVICES} selects
     *         none of the host's NICs (UCX fails the same way)
     */
    public HostRegistration(Host host, EffectiveConfig config) {
        if (host == null || config == null) {
            throw new MemoryInputException("a host and an effective UCX configuration are required");
        }
        this.host = host;
        this.config = config;
        this.selection = config.selectNetDevices(nicNames(host), host.listedOnlyNics());
    }

    public Host host() {
        return host;
    }

    public EffectiveConfig config() {
        return config;
    }

    /** What UCX would warn about while selecting devices (unknown or repeated names). */
    public List<String> warnings() {
        return selection.warnings();
    }

    /** The registration-relevant UCX settings of this process on this host. */
    public UcxRegistrationConfig ucxConfig() {
        return new UcxRegistrationConfig(config.maxHcaPerGpu(), config.relaxedOrdering(), host.spec().cpuFamily(),
                config.ucxVersion());
    }

    /**
     * The HCAs a buffer on {@code deviceName} (a GPU, or a socket "CPU0" for host memory) may be
     * registered on, closest first, ties by name (as {@code UCX_MAX_HCA_PER_GPU} ranks them).
     */
    public List<HcaCandidate> candidates(String deviceName) {
        TopologyNode device = device(deviceName);
        List<HcaCandidate> list = new ArrayList<>();
        List<TopologyNode> nics = host.nics();
        for (int i = 0; i < nics.size(); i++) {
            TopologyNode nic = nics.get(i);
            if (!selection.devices().contains(nic.name())) {
                continue;
            }
            list.add(new HcaCandidate(nic.name(), FIRST_NIC_MD_INDEX + i, UcxTopoDistance.between(host, device, nic),
                    nic.nic().relaxedOrdering()));
        }
        list.sort(Comparator.comparing(HcaCandidate::distance, HcaDistance.CLOSEST_FIRST)
                .thenComparing(HcaCandidate::name));
        return List.copyOf(list);
    }

    /** Plans {@code region}'s registration with this process's settings. */
    public RegistrationPlan plan(RegistrationModel model, MemoryRegion region) {
        return plan(model, region, List.of());
    }

    /**
     * The same, and on {@code atFirstUse} too (candidates {@code ucp_mem_map} left out that a lane registers
     * the buffer on when it first uses it), with the same MRs per HCA as {@code ucp_mem_map}'s.
     */
    public RegistrationPlan plan(RegistrationModel model, MemoryRegion region, List<String> atFirstUse) {
        checkLivesOn(host, region);
        return model.plan(region, candidates(region.deviceName()), ucxConfig(), atFirstUse);
    }

    /**
     * Plans {@code region}'s registration where its backend places it ({@code sites}), each device with
     * its md index and distance as for a UCX process, so a report lists them alike.
     */
    public static RegistrationPlan planOnDevices(Host host, RegistrationModel model, MemoryRegion region,
            RegistrationSites.OnDevices sites) {
        TopologyNode device = checkLivesOn(host, region);
        List<HcaCandidate> list = new ArrayList<>();
        List<TopologyNode> nics = host.nics();
        for (String name : sites.devices()) {
            int i = nicNames(host).indexOf(name);
            if (i < 0) {
                throw new MemoryInputException("host " + host.name() + " has no network device " + name
                        + " (devices: " + String.join(", ", nicNames(host)) + ")");
            }
            TopologyNode nic = nics.get(i);
            list.add(new HcaCandidate(name, FIRST_NIC_MD_INDEX + i, UcxTopoDistance.between(host, device, nic),
                    nic.nic().relaxedOrdering()));
        }
        return model.planOnDevices(region, list, sites.mrsPerDevice());
    }

    /** The buffer's device, which must be a GPU for CUDA memory and a CPU socket for host memory. */
    private static TopologyNode checkLivesOn(Host host, MemoryRegion region) {
        TopologyNode.Kind expected = region.type() == MemoryType.CUDA ? TopologyNode.Kind.GPU : TopologyNode.Kind.SOCKET;
        TopologyNode device = device(host, region.deviceName());
        if (device.kind() != expected) {
            throw new MemoryInputException(region.type().ucxName() + " memory cannot live on " + region.deviceName()
                    + " (expected a " + (expected == TopologyNode.Kind.GPU ? "GPU" : "CPU socket such as CPU0") + ")");
        }
        return device;
    }

    /**
     * The host's own ceilings: its physical memory (all sockets) and the smallest BAR1 of its GPUs.
     * Firmware page caps and MTT limits are not properties of the host description; callers add them.
     */
    public static RegistrationLimits hostLimits(Host host) {
        long memory = 0;
        for (HostSpec.SocketSpec socket : host.spec().sockets()) {
            memory = Math.addExact(memory, socket.memoryBytes());
        }
        long bar1 = host.gpus().stream().mapToLong(g -> g.gpu().bar1Bytes()).min().orElse(RegistrationLimits.UNLIMITED);
        return RegistrationLimits.unlimited().withHostMemory(memory).withBar1PerGpu(bar1)
                .withLocalHostName(host.name());
    }


    private static List<String> nicNames(Host host) {
        return host.nics().stream().map(TopologyNode::name).toList();
    }

    private TopologyNode device(String deviceName) {
        return device(host, deviceName);
    }

    private static TopologyNode device(Host host, String deviceName) {
        TopologyNode node = host.find(deviceName).orElseThrow(() -> new MemoryInputException("host " + host.name()
                + " has no device " + deviceName + " (GPUs: "
                + String.join(", ", host.gpus().stream().map(TopologyNode::name).toList()) + ")"));
        if (node.kind() != TopologyNode.Kind.GPU && node.kind() != TopologyNode.Kind.SOCKET) {
            throw new MemoryInputException("buffers live on a GPU or a CPU socket, not on " + deviceName);
        }
        return node;
    }
}
