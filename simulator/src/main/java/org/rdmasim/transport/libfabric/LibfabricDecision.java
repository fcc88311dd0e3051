package org.rdmasim.transport.libfabric;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.rdmasim.transport.LaneSplit;

/**
 * What NIXL's libfabric backend decides for one transfer, in its own terms: the initiator's rails (the
 * EFA devices its buffer is registered on), the remote endpoints (the peer's rails holding a key for
 * the remote buffer), whether each descriptor is striped across all rails or dealt to one rail in
 * turn, and the resulting (local rail, remote endpoint) lanes with the share of descriptors or chunks
 * each carries.
 *
 * @param descriptorBytes  bytes of one descriptor ({@code transfer_size} in the rail manager)
 * @param striped          {@code usesStriping}: descriptor at least the threshold and more than one rail
 * @param writeBatch       for unstriped WRITEs, descriptors go 16 at a time to one rail (FI_MORE batches)
 * @param lanes            lanes in rail order; weights count chunks (striped) or descriptors (unstriped)
 */
public record LibfabricDecision(EfaGroups.Group local, EfaGroups.Group remote, long descriptorBytes, int descriptors,
        long threshold, boolean striped, boolean writeBatch, List<LaneSplit.Candidate> lanes) {
    public LibfabricDecision {
        lanes = List.copyOf(lanes);
    }

    /** Lines for {@code explain}, in the plugin's vocabulary. */
    public List<String> describe(String initiator, String peer) {
        List<String> out = new ArrayList<>();
        out.add("NIXL libfabric backend (SRD over EFA), ai-dynamo/nixl v1.4.0 src/utils/libfabric:");
        out.add(group("initiator " + initiator, local));
        out.add(group("remote " + peer, remote));
        out.add(String.format(Locale.ROOT, "  striping threshold %d B (NIXL_LIBFABRIC_DEFAULT_STRIPING_THRESHOLD, "
                + "libfabric_common.h L42; the backend's striping_threshold parameter does not reach the rail manager "
                + "in v1.4.0, libfabric_backend.cpp L401, L436-450)", threshold));
        if (striped) {
            int n = local.rails().size();
            out.add(String.format(Locale.ROOT, "  each of %d descriptor(s) of %d B >= threshold and %d rails: striped, "
                    + "%d B per rail, remainder on the last (prepareAndSubmitTransfer, libfabric_rail_manager.cpp "
                    + "L486-512)", descriptors, descriptorBytes, n, descriptorBytes / n));
        } else if (local.rails().size() == 1) {
            out.add(String.format(Locale.ROOT, "  one rail: every descriptor of %d B goes whole on it", descriptorBytes));
        } else {
            out.add(String.format(Locale.ROOT, "  %d descriptor(s) of %d B < threshold: not striped; dealt to rails in turn%s "
                    + "(railSelectionIndex, libfabric_rail_manager.h L138-144, from a per-transfer base offset taken "
                    + "as 0)", descriptors, descriptorBytes, writeBatch ? ", 16 consecutive WRITEs per rail (FI_MORE batch)"
                            : ", one READ per rail"));
        }
        double total = lanes.stream().mapToDouble(LaneSplit.Candidate::weight).sum();
        out.add("  lanes (local rail -> remote endpoint), share of the bytes:");
        for (LaneSplit.Candidate c : lanes) {
            out.add(String.format(Locale.ROOT, "    %-12s -> %-12s %6.2f%%", c.sinkNic(), c.sourceNic(),
                    100.0 * c.weight() / total));
        }
        return out;
    }

    private static String group(String side, EfaGroups.Group g) {
        if (g.fallback()) {
            return "  " + side + ": no EFA group for this device; all " + g.rails().size() + " devices "
                    + "(getEfaDevicesForPci, libfabric_topology.cpp L176-196)";
        }
        return "  " + side + ": rails " + String.join(", ", g.rails()) + " (grouped at " + g.commonAncestor()
                + ", " + g.gpusSharing() + " GPU(s) there; groupNicsWithAccel, libfabric_topology.cpp L1162-1300)";
    }
}
