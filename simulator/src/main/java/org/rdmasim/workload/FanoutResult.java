package org.rdmasim.workload;

import java.util.List;
import org.rdmasim.hardware.Bottleneck;

/**
 * What a fan-out produced: one pull per receiver per cycle, and each cycle's phases.
 *
 * @param sourceHosts the hosts that held the model at the start (for source-side charts)
 */
public record FanoutResult(List<ReceiverPull> pulls, List<Cycle> cycles, List<String> sourceHosts) {
    public FanoutResult {
        pulls = List.copyOf(pulls);
        cycles = List.copyOf(cycles);
        sourceHosts = List.copyOf(sourceHosts);
    }

    /**
     * One receiver getting the model in one cycle. Times are absolute simulated seconds.
     *
     * @param source         the host it got the model from (an original source or, in a tree, a receiver)
     * @param arrivalSeconds when it asked for the model
     * @param postSeconds    when its transfers were posted (later than arrival when it waited for a tree slot)
     * @param finishSeconds  when its last GPU had its bytes
     * @param bottleneck     what limited the transfer that finished last
     */
    public record ReceiverPull(int cycle, String receiver, String source, boolean fromReceiver, long bytes,
            double arrivalSeconds, double postSeconds, double finishSeconds, Bottleneck bottleneck) {
        /** From asking to having the model: what a pod waits. */
        public double pullSeconds() {
            return finishSeconds - arrivalSeconds;
        }
    }

    /**
     * One refit cycle: metadata exchange, registration, then the pull phase (first arrival to last finish).
     *
     * @param wallSeconds metadata + registration + pull makespan
     */
    public record Cycle(int index, double startSeconds, double metadataSeconds, double registrationSeconds,
            double pullMakespanSeconds, double wallSeconds) {
    }
}
