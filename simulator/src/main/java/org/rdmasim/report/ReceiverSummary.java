package org.rdmasim.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.rdmasim.hardware.Bottleneck;
import org.rdmasim.transport.TransferResult;
import org.rdmasim.workload.FanoutResult;
import org.rdmasim.workload.RefitSummary;
import org.rdmasim.workload.RunResult;

/**
 * Key figures of one variant, derived from its transfers: a receiver is the buffer data lands in;
 * its pull time runs from its first transfer's post to its last transfer's completion.
 */
public record ReceiverSummary(double makespanSeconds, double aggregateGbps, double meanReceiverGbps,
        List<Receiver> receivers) {

    public record Receiver(String id, long bytes, double startSeconds, double finishSeconds, Bottleneck bottleneck) {
        public double pullSeconds() {
            return finishSeconds - startSeconds;
        }

        public double gbps() {
            double d = pullSeconds();
            return d > 0 ? bytes * 8.0 / d / 1e9 : 0;
        }
    }

    public static ReceiverSummary of(RunResult result) {
        if (result.fanout() != null) {
            return ofFanout(result.fanout());
        }
        if (result.refit() != null) {
            return ofRefit(result.refit());
        }
        Map<String, List<TransferResult>> byReceiver = new LinkedHashMap<>();
        for (TransferResult t : result.transfers()) {
            byReceiver.computeIfAbsent(t.spec().sink().toString(), k -> new ArrayList<>()).add(t);
        }
        List<Receiver> receivers = new ArrayList<>();
        double first = Double.POSITIVE_INFINITY;
        double last = 0;
        long total = 0;
        for (Map.Entry<String, List<TransferResult>> e : byReceiver.entrySet()) {
            long bytes = 0;
            double start = Double.POSITIVE_INFINITY;
            TransferResult lastDone = null;
            for (TransferResult t : e.getValue()) {
                bytes += t.failed() ? 0 : t.spec().bytes(); // a failed attempt delivered nothing the receiver can use
                start = Math.min(start, t.startSeconds());
                if (lastDone == null || t.finishSeconds() > lastDone.finishSeconds()) {
                    lastDone = t;
                }
            }
            receivers.add(new Receiver(e.getKey(), bytes, start, lastDone.finishSeconds(), lastDone.bottleneck()));
            first = Math.min(first, start);
            last = Math.max(last, lastDone.finishSeconds());
            total += bytes;
        }
        receivers.sort(Comparator.comparing(Receiver::id));
        double makespan = receivers.isEmpty() ? 0 : last - first;
        double mean = org.rdmasim.workload.ReplicationStats.mean(receivers.stream().mapToDouble(Receiver::gbps).toArray());
        return new ReceiverSummary(makespan, makespan > 0 ? total * 8.0 / makespan / 1e9 : 0, mean, receivers);
    }

    /**
     * A refit's figures come from its cycles, not its transfers: a broadcast posts none, and an inference
     * rank's transfers run in every cycle, so a span from its first to its last would add the cycles up and
     * call that one pull. The makespan is the refit's wall time (every cycle, back to back), the aggregate
     * rate the bytes the cycles delivered into GPUs over the wire in that time, and the mean per receiver
     * that rate over the inference ranks. No receiver is listed ({@link #REFIT_RECEIVERS} says why).
     */
    static ReceiverSummary ofRefit(RefitSummary refit) {
        double wall = refit.cycles().isEmpty() ? 0 : refit.wallSeconds();
        double aggregate = wall > 0 ? refit.wireBytes() * 8.0 / wall / 1e9 : 0;
        return new ReceiverSummary(wall, aggregate, refit.inferenceRanks() > 0 ? aggregate / refit.inferenceRanks() : 0,
                List.of());
    }

    /** Why a refit variant lists no receivers (summary.json's {@code receiversNote}). */
    public static final String REFIT_RECEIVERS = "a refit lists no receivers: every inference rank receives in every "
            + "cycle (a broadcast's ranks also relay), so no one pull per receiver exists; each cycle's time, stages, "
            + "wire bytes and bound are under refit.cycles, and makespanSeconds is the refit's wall time, every cycle";

    /**
     * A fan-out's receivers are hosts: a pull runs from the host's arrival to its last GPU's
     * completion. With several refit cycles each cycle is listed, as {@code host@cycleN}.
     */
    static ReceiverSummary ofFanout(FanoutResult f) {
        boolean cycles = f.cycles().size() > 1;
        List<Receiver> receivers = new ArrayList<>(f.pulls().size());
        double first = Double.POSITIVE_INFINITY;
        double last = 0;
        long total = 0;
        for (FanoutResult.ReceiverPull p : f.pulls()) {
            String id = cycles ? p.receiver() + "@cycle" + p.cycle() : p.receiver();
            receivers.add(new Receiver(id, p.bytes(), p.arrivalSeconds(), p.finishSeconds(), p.bottleneck()));
            first = Math.min(first, p.arrivalSeconds());
            last = Math.max(last, p.finishSeconds());
            total += p.bytes();
        }
        double makespan = receivers.isEmpty() ? 0 : f.cycles().stream().mapToDouble(FanoutResult.Cycle::pullMakespanSeconds).sum();
        double mean = org.rdmasim.workload.ReplicationStats.mean(receivers.stream().mapToDouble(Receiver::gbps).toArray());
        return new ReceiverSummary(makespan, makespan > 0 ? total * 8.0 / makespan / 1e9 : 0, mean, receivers);
    }
    /**
     * When a GPU link at one end of the receiver's last transfer held its lanes longest (the receiver's bound):
     * how long it held them and the floor it sets, in the words the report's Answer uses ("451.2 Gbps; it held
     * all 4 lanes for 60% of the pull: through that link alone 16 GB take at least 0.2837 s, the GPU-link
     * floor"), so a pull below that floor says why; empty otherwise.
     */
    public static java.util.Optional<String> gpuLinkHold(org.rdmasim.workload.RunResult result, Receiver receiver) {
        return LaneHolds.gpuLink(result, receiver).filter(g -> g.link().equals(receiver.bottleneck()))
                .map(g -> g.clause(receiver.bottleneck()).trim());
    }
}
