package org.rdmasim.transport;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a transfer's bytes over lanes in proportion to weights, as UCX does for multi-lane RMA
 * (openucx/ucx src/ucp/proto/proto_multi.inl L45-58, v1.20.0): each lane's weight is
 * {@code ceil(bw x 65536 / sum_bw)} capped at 65536, a lane's share of a message is
 * {@code ceil(weight x length / 65536)}, and the last lane takes the remainder so the shares sum exactly.
 * A transfer smaller than {@code minChunk} per lane is not split: it goes whole on the heaviest lane.
 */
public final class LaneSplit {
    private LaneSplit() {
    }

    /** One lane of a plan before bytes are assigned. */
    public record Candidate(String sourceNic, String sinkNic, double weight, int path) {
        public Candidate(String sourceNic, String sinkNic, double weight) {
            this(sourceNic, sinkNic, weight, 0);
        }
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
            out.add(new Lane(heaviest.sourceNic(), heaviest.sinkNic(), bytes, heaviest.path()));
            return out;
        }
        long assigned = 0;
        for (int i = 0; i < candidates.size(); i++) {
            Candidate c = candidates.get(i);
            long share;
            if (i == candidates.size() - 1) {
                share = bytes - assigned;
            } else {
                // ucs_proto_multi_calc_weight and ucp_proto_multi_scaled_length: both round up
                long fixed = Math.min(65536L, (long) Math.ceil(c.weight() * 65536.0 / total));
                long scaled = (long) Math.ceil((double) bytes * fixed / 65536.0);
                share = Math.min(bytes - assigned, scaled);
            }
            assigned += share;
            out.add(new Lane(c.sourceNic(), c.sinkNic(), share, c.path()));
        }
        return out;
    }
}
