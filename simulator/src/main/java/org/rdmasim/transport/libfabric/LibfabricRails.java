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
 * <p>Not modelled: host (DRAM_SEG) buffers, whose rails NIXL picks per NUMA node under a PCIe
 * bandwidth budget ({@code nixlLibfabricNumaRailSelectionPolicy}, L1345-): a host-memory endpoint is
 * refused. Nor the posting thread pool (num_threads) or SRD's own packet spraying inside one device.
 */
public final class LibfabricRails implements LanePolicy {
    /** {@code NIXL_LIBFABRIC_DEFAULT_STRIPING_THRESHOLD} (128 KiB), libfabric_common.h L42 (same since 0.7.0). */
    public static final long STRIPING_THRESHOLD = 128 * 1024;
    /** {@code NIXL_LIBFABRIC_FI_MORE_BATCH_SIZE}, libfabric_common.h L46. */
    static final int WRITE_BATCH = 16;

    private final Map<Host, EfaGroups> groups = new HashMap<>();
    private final List<String> visibleDevices;
    private final EfaGroups.ScarceDevices scarce;

    /** The latest release's rules; {@code visibleDevices}: the devices the process sees (empty: all). */
    public LibfabricRails(List<String> visibleDevices) {
        this(visibleDevices, java.util.Optional.empty());
    }

    /** The rules of NIXL release {@code nixl} (the latest when empty). */
    public LibfabricRails(List<String> visibleDevices, java.util.Optional<org.rdmasim.transport.config.StackVersion> nixl) {
        this.visibleDevices = List.copyOf(visibleDevices);
        this.scarce = EfaGroups.ScarceDevices.of(nixl);
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
        int m = remote.rails().size();
        boolean striped = descriptorBytes >= STRIPING_THRESHOLD && n > 1;
        boolean batch = spec.operation() == Operation.WRITE;
        Map<List<String>, Long> weight = new LinkedHashMap<>();
        if (striped) {
            for (int i = 0; i < n; i++) {
                weight.merge(List.of(local.rails().get(i), remote.rails().get(i % m)), 1L, Long::sum);
            }
        } else {
            countDescriptors(spec.descriptors(), batch ? WRITE_BATCH : 1, local.rails(), remote.rails(), weight);
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

    private EfaGroups.Group group(Hosts cluster, Endpoint e) {
        Host host = cluster.host(e.host());
        TopologyNode device = host.find(e.device()).orElseThrow(
                () -> new IllegalArgumentException("no device '" + e.device() + "' on host " + e.host()));
        if (device.kind() != TopologyNode.Kind.GPU) {
            throw new IllegalArgumentException("NIXL's libfabric backend: host memory (" + e + ") is not modelled; "
                    + "its rails depend on the DRAM_SEG NUMA policy (nixlLibfabricNumaRailSelectionPolicy)");
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
