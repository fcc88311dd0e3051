package org.rdmasim.transport;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a transfer's bytes over lanes in proportion to weights, as UCX does for multi-lane RMA
 * (src/ucp/proto/proto_multi.c): each lane's weight is a 16.16 fixed-point fraction of the total, each
 * share is rounded to whole bytes, and the last lane takes the remainder so the shares sum exactly.
 * A transfer smaller than {@code minChunk} per lane is not split: it goes whole on the heaviest lane.
 */
public final class LaneSplit {
    private LaneSplit() {
    }

    /** One lane of a plan before bytes are assigned. */
    public record Candidate(String sourceNic, String sinkNic, double weight) {
    }

    public static List<Lane> split(long bytes, List<Candidate> candidates, long minChunk) {
        if (candidates.isEmpty()) {
            throw new IllegalArgumentException("a transfer needs at least one lane");
        }
        double total = 0;
        for (Candidate c : candidates) {
            if (!(c.weight() > 0)) {
                throw new IllegalArgumentException("lane weight must be positive: " + c);
            }
            total += c.weight();
        }
        List<Lane> out = new ArrayList<>();
        if (candidates.size() == 1 || bytes < minChunk * candidates.size()) {
            Candidate heaviest = candidates.get(0);
            for (Candidate c : candidates) {
                if (c.weight() > heaviest.weight()) {
                    heaviest = c;
                }
            }
            out.add(new Lane(heaviest.sourceNic(), heaviest.sinkNic(), bytes));
            return out;
        }
        long assigned = 0;
        for (int i = 0; i < candidates.size(); i++) {
            Candidate c = candidates.get(i);
            long share;
            if (i == candidates.size() - 1) {
                share = bytes - assigned;
            } else {
                // 16.16 fixed point weight, as proto_multi.c stores lane weights.
                long fixed = Math.round(c.weight() / total * 65536.0);
                share = Math.min(bytes - assigned, (long) ((double) bytes * fixed / 65536.0));
            }
            assigned += share;
            out.add(new Lane(c.sourceNic(), c.sinkNic(), share));
        }
        return out;
    }
}
