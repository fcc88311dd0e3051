package org.rdmasim.transport.libfabric;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.rdmasim.transport.LaneSplit;
import org.rdmasim.transport.citation.Citation;
import org.rdmasim.transport.citation.CitedNote;

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

    /** Where the plugin's code is read (tag v1.4.0). */
    private static Citation nixl(String fileLinesSymbol) {
        return Citation.parse("ai-dynamo/nixl v1.4.0 " + fileLinesSymbol);
    }

    private static final Citation GROUPS = nixl("src/utils/libfabric/libfabric_topology.cpp:1162-1300 groupNicsWithAccel");
    private static final Citation NO_GROUP = nixl("src/utils/libfabric/libfabric_topology.cpp:176-196 getEfaDevicesForPci");
    private static final Citation THRESHOLD = nixl(
            "src/utils/libfabric/libfabric_common.h:42 NIXL_LIBFABRIC_DEFAULT_STRIPING_THRESHOLD");
    /** The engine builds its rail manager with the default; the parameter parsed at L436-450 goes elsewhere. */
    private static final Citation THRESHOLD_UNUSED = nixl(
            "src/plugins/libfabric/libfabric_backend.cpp:401 nixlLibfabricEngine::nixlLibfabricEngine");
    private static final Citation STRIPE = nixl(
            "src/utils/libfabric/libfabric_rail_manager.cpp:486-512 prepareAndSubmitTransfer");
    private static final Citation ROUND_ROBIN = nixl("src/utils/libfabric/libfabric_rail_manager.h:138-144 railSelectionIndex");

    /** Lines for {@code explain}, in the plugin's vocabulary, each decision with the code it follows. */
    public List<CitedNote> describe(String initiator, String peer) {
        List<CitedNote> out = new ArrayList<>();
        out.add(CitedNote.uncited("NIXL libfabric backend (SRD over EFA), ai-dynamo/nixl v1.4.0:"));
        out.add(group("initiator " + initiator, local));
        out.add(group("remote " + peer, remote));
        out.add(CitedNote.cited(String.format(Locale.ROOT, "  striping threshold %d B (NIXL_LIBFABRIC_DEFAULT_STRIPING_"
                + "THRESHOLD; the backend's striping_threshold parameter does not reach the rail manager in v1.4.0)",
                threshold), THRESHOLD, THRESHOLD_UNUSED));
        if (striped) {
            int n = local.rails().size();
            out.add(CitedNote.cited(String.format(Locale.ROOT, "  each of %d descriptor(s) of %d B >= threshold and %d "
                    + "rails: striped, %d B per rail, remainder on the last", descriptors, descriptorBytes, n,
                    descriptorBytes / n), STRIPE));
        } else if (local.rails().size() == 1) {
            out.add(CitedNote.uncited(String.format(Locale.ROOT, "  one rail: every descriptor of %d B goes whole on it",
                    descriptorBytes)));
        } else {
            out.add(CitedNote.cited(String.format(Locale.ROOT, "  %d descriptor(s) of %d B < threshold: not striped; "
                    + "dealt to rails in turn%s, from a per-transfer base offset taken as 0", descriptors,
                    descriptorBytes, writeBatch ? ", 16 consecutive WRITEs per rail (FI_MORE batch)" : ", one READ per rail"),
                    ROUND_ROBIN));
        }
        double total = lanes.stream().mapToDouble(LaneSplit.Candidate::weight).sum();
        out.add(CitedNote.uncited("  lanes (local rail -> remote endpoint), share of the bytes:"));
        for (LaneSplit.Candidate c : lanes) {
            out.add(CitedNote.uncited(String.format(Locale.ROOT, "    %-12s -> %-12s %6.2f%%", c.sinkNic(),
                    c.sourceNic(), 100.0 * c.weight() / total)));
        }
        return out;
    }

    private static CitedNote group(String side, EfaGroups.Group g) {
        if (g.fallback()) {
            return CitedNote.cited("  " + side + ": no EFA group for this device; all " + g.rails().size()
                    + " devices", NO_GROUP);
        }
        return CitedNote.cited("  " + side + ": rails " + String.join(", ", g.rails()) + " (grouped at "
                + g.commonAncestor() + ", " + g.gpusSharing() + " GPU(s) there)", GROUPS);
    }
}
