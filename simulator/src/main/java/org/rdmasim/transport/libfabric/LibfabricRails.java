package org.rdmasim.transport.libfabric;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.rdmasim.hardware.Hosts;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.TopologyNode;
import org.rdmasim.transport.Endpoint;
import org.rdmasim.transport.LanePolicy;
import org.rdmasim.transport.LaneSplit;
import org.rdmasim.transport.Operation;
import org.rdmasim.transport.TransferSpec;

/**
 * Lane choice of NIXL's libfabric backend (ai-dynamo/nixl v1.4.0). GPU memory is registered on the
 * GPU's own EFA group only ({@code selectRailsForMemory}, {@code libfabric_rail_manager.cpp} L676-724,
 * grouping in {@link EfaGroups}); the remote side offers the endpoints where the remote buffer has a
 * key ({@code derive_remote_selected_endpoints}, {@code libfabric_backend.cpp} L1092-1100). Each
 * descriptor is then posted by {@code prepareAndSubmitTransfer} (rail manager L376-570):
 * <ul>
 *   <li>when it is at least {@link #STRIPING_THRESHOLD} and there is more than one local rail
 *       ({@code usesStriping}, {@code libfabric_rail_manager.h} L248-251), it is cut into equal chunks,
 *       chunk {@code i} on local rail {@code i} to remote endpoint {@code i % remote} (L486-512);</li>
 *   <li>otherwise it goes whole to rail {@code (base + d) % rails} for READ, {@code (base + d / 16) % rails}
 *       for WRITE, and to remote endpoint by the same index over the remote count (L405-418;
 *       {@code railSelectionIndex}, header L138-144).</li>
 * </ul>
 * The per-transfer base offset is a process-wide counter ({@code reserveBaseOffset}, L371-373); it is
 * taken as 0, which changes which rails get one descriptor more only when the count is not a
 * multiple of the rails. The shares are handed to the byte splitter ({@link LaneSplit}) as weights
 * with its exact proportional rule (remainder on the last lane), not UCX's 16.16 rounding.
 *
 * <p>NIXL 0.6.x, the first releases with the backend (ai-dynamo/nixl tag 0.6.1 {@code src/plugins/libfabric};
 * 0.6.0 has none), pair rails differently: a chunk posted on local rail {@code r} (an index into the
 * process's device list) goes to the peer's rail {@code r} with the peer's key for that rail
 * ({@code req->remote_key = remote_keys[rail_id]}, {@code dest_addrs[rail_id]}, 0.6.1
 * {@code libfabric_rail_manager.cpp} L186-207 and L264-284), a connection needs the same number of
 * data rails on both sides ({@code createAgentConnection}, 0.6.1 {@code libfabric_backend.cpp} L547-550),
 * and a descriptor below the threshold goes to rail {@code counter % rails} whatever the operation (L160-161:
 * no write batching). Its topology recognises EFA device ids 0xefa0 to 0xefa2 only ({@code isEfaDevice},
 * 0.6.1 {@code libfabric_topology.cpp} L589-598; 0.7.0 matches any 0xefa*), so on 0xefa3 devices
 * (p6-b200) it finds no EFA device to group; that case is refused rather than guessed.
 *
 * <p>Not modelled: host (DRAM_SEG) buffers, whose rails NIXL picks per NUMA node under a PCIe
 * bandwidth budget ({@code nixlLibfabricNumaRailSelectionPolicy}, L1345-): a host-memory endpoint is
 * refused. Nor the posting thread pool (num_threads) or SRD's own packet spraying inside one device.
 */
public final class LibfabricRails implements LanePolicy {
    /** {@code NIXL_LIBFABRIC_DEFAULT_STRIPING_THRESHOLD} (128 KiB), libfabric_common.h L42 (the same since 0.6.1, L38 there). */
    public static final long STRIPING_THRESHOLD = 128 * 1024;
    /** {@code NIXL_LIBFABRIC_FI_MORE_BATCH_SIZE}, libfabric_common.h L46. */
    static final int WRITE_BATCH = 16;
    /** The first NIXL release whose remote endpoints are the peer's rails holding a key (0.7.0). */
    static final org.rdmasim.transport.config.StackVersion FIRST_REMOTE_ENDPOINTS =
            new org.rdmasim.transport.config.StackVersion(0, 7, 0);
    /** The first EFA device id NIXL 0.6.x does not recognise (0xefa3, fourth generation). */
    private static final int FIRST_UNKNOWN_TO_06 = 0xefa3;

    private final Map<Host, EfaGroups> groups = new HashMap<>();
    private final List<String> visibleDevices;
    private final EfaGroups.ScarceDevices scarce;
    /** NIXL 0.6.x: peer rail by local rail index, no write batching. */
    private final boolean sameIndexPeer;
    private final String release;

    /** The latest release's rules; {@code visibleDevices}: the devices the process sees (empty: all). */
    public LibfabricRails(List<String> visibleDevices) {
        this(visibleDevices, java.util.Optional.empty());
    }

    /** The rules of NIXL release {@code nixl} (the latest when empty). */
    public LibfabricRails(List<String> visibleDevices, java.util.Optional<org.rdmasim.transport.config.StackVersion> nixl) {
        this.visibleDevices = List.copyOf(visibleDevices);
        this.scarce = EfaGroups.ScarceDevices.of(nixl);
        this.sameIndexPeer = nixl.isPresent() && !nixl.get().atLeast(FIRST_REMOTE_ENDPOINTS);
        this.release = nixl.map(Object::toString).orElse("");
    }

    @Override
    public boolean dependsOnSize() {
        return true;
    }

    @Override
    public Plan plan(Hosts cluster, TransferSpec spec) {
        // no minimum chunk: NIXL cuts a striped descriptor into equal parts whatever their size
        return new Plan(decide(cluster, spec).lanes(), LaneSplit.MinChunk.PROPORTIONAL_SHARES);
    }

    /** The backend's decision for {@code spec}; IllegalArgumentException for a buffer it cannot register. */
    public LibfabricDecision decide(Hosts cluster, TransferSpec spec) {
        Endpoint initiator = spec.initiator();
        Endpoint peer = spec.operation() == Operation.READ ? spec.source() : spec.sink();
        EfaGroups.Group local = group(cluster, initiator);
        EfaGroups.Group remote = group(cluster, peer);
        long descriptorBytes = spec.bytes() / spec.descriptors();
        int n = local.rails().size();
        List<String> remoteRails = sameIndexPeer ? sameIndexPeers(cluster, initiator, peer, local, remote)
                : remote.rails();
        int m = remoteRails.size();
        boolean striped = descriptorBytes >= STRIPING_THRESHOLD && n > 1;
        boolean batch = spec.operation() == Operation.WRITE && !sameIndexPeer;
        Map<List<String>, Long> weight = new LinkedHashMap<>();
        if (striped) {
            for (int i = 0; i < n; i++) {
                weight.merge(List.of(local.rails().get(i), remoteRails.get(i % m)), 1L, Long::sum);
            }
        } else {
            countDescriptors(spec.descriptors(), batch ? WRITE_BATCH : 1, local.rails(), remoteRails, weight);
        }
        List<LaneSplit.Candidate> lanes = new ArrayList<>();
        for (Map.Entry<List<String>, Long> e : weight.entrySet()) {
            String localRail = e.getKey().get(0);
            String remoteRail = e.getKey().get(1);
            // a lane is named (source NIC, sink NIC): the initiator is the sink of a READ
            lanes.add(spec.operation() == Operation.READ
                    ? new LaneSplit.Candidate(remoteRail, localRail, e.getValue())
                    : new LaneSplit.Candidate(localRail, remoteRail, e.getValue()));
        }
        return new LibfabricDecision(local, remote, descriptorBytes, spec.descriptors(), STRIPING_THRESHOLD, striped,
                batch && !striped && n > 1, lanes);
    }

    /**
     * Descriptor {@code d} goes to local rail {@code (d / batch) % n} and remote endpoint {@code (d / batch) % m};
     * the pattern repeats every {@code batch * lcm(n, m)} descriptors, so whole periods are counted at once.
     */
    static void countDescriptors(int descriptors, int batch, List<String> local, List<String> remote,
            Map<List<String>, Long> weight) {
        int n = local.size();
        int m = remote.size();
        long period = (long) batch * lcm(n, m);
        long periods = descriptors / period;
        long rest = descriptors % period;
        for (long d = 0; d < period && d < descriptors; d++) {
            long k = d / batch;
            long count = periods + (d < rest ? 1 : 0);
            if (count > 0) {
                weight.merge(List.of(local.get((int) (k % n)), remote.get((int) (k % m))), count, Long::sum);
            }
        }
    }

    private static int lcm(int a, int b) {
        int x = a;
        int y = b;
        while (y != 0) {
            int t = x % y;
            x = y;
            y = t;
        }
        return a / x * b;
    }

    /**
     * NIXL 0.6.x: the peer rail of each local rail, the peer's device at the local rail's index; refused
     * when the two processes see different numbers of devices or the peer's buffer has no key there.
     */
    private List<String> sameIndexPeers(Hosts cluster, Endpoint initiator, Endpoint peer, EfaGroups.Group local,
            EfaGroups.Group remote) {
        List<String> mine = visible(cluster.host(initiator.host()));
        List<String> theirs = visible(cluster.host(peer.host()));
        if (mine.size() != theirs.size()) {
            throw new IllegalArgumentException("NIXL " + release + "'s libfabric backend connects only processes with "
                    + "as many data rails on each side (libfabric_backend.cpp 0.6.1 L547-550): " + initiator.host()
                    + " sees " + mine.size() + " devices, " + peer.host() + " " + theirs.size());
        }
        List<String> paired = new ArrayList<>();
        for (String rail : local.rails()) {
            String other = theirs.get(mine.indexOf(rail));
            if (!remote.rails().contains(other)) {
                throw new IllegalArgumentException("NIXL " + release + "'s libfabric backend sends rail " + rail
                        + "'s share to the peer's rail of the same index, " + peer.host() + ":" + other
                        + ", where " + peer + "'s buffer is not registered (remote_keys[rail_id], "
                        + "libfabric_rail_manager.cpp 0.6.1 L186); NIXL 0.7.0 and later use the peer's own rails");
            }
            paired.add(other);
        }
        return paired;
    }

    private List<String> visible(Host host) {
        return host.nics().stream().map(TopologyNode::name)
                .filter(n -> visibleDevices.isEmpty() || visibleDevices.contains(n)).toList();
    }

    private EfaGroups.Group group(Hosts cluster, Endpoint e) {
        Host host = cluster.host(e.host());
        TopologyNode device = host.find(e.device()).orElseThrow(
                () -> new IllegalArgumentException("no device '" + e.device() + "' on host " + e.host()));
        if (device.kind() != TopologyNode.Kind.GPU) {
            throw new IllegalArgumentException("NIXL's libfabric backend: host memory (" + e + ") is not modelled; "
                    + "its rails depend on the DRAM_SEG NUMA policy (nixlLibfabricNumaRailSelectionPolicy)");
        }
        if (sameIndexPeer) {
            for (TopologyNode nic : host.nics()) {
                if (nic.nic().model().efaDeviceId() >= FIRST_UNKNOWN_TO_06
                        && (visibleDevices.isEmpty() || visibleDevices.contains(nic.name()))) {
                    throw new IllegalArgumentException("NIXL " + release + "'s libfabric backend does not recognise "
                            + "EFA device id 0x" + Integer.toHexString(nic.nic().model().efaDeviceId()) + " (" + e.host()
                            + ":" + nic.name() + "; isEfaDevice, libfabric_topology.cpp 0.6.1 L589-598, knows 0xefa0 "
                            + "to 0xefa2), so it groups no EFA device with a GPU; not modelled, NIXL 0.7.0 knows it");
                }
            }
        }
        EfaGroups g;
        synchronized (groups) {
            g = groups.computeIfAbsent(host, h -> EfaGroups.of(h, visibleDevices, scarce));
        }
        if (g.isEmpty()) {
            throw new IllegalArgumentException("NIXL's libfabric backend: host " + e.host() + " has no visible network device"
                    + (visibleDevices.isEmpty() ? "" : " among " + String.join(", ", visibleDevices)));
        }
        return g.of(e.device());
    }
}
