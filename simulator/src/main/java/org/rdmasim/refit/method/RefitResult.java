package org.rdmasim.refit.method;

import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.rdmasim.transport.TransferResult;
import org.rdmasim.workload.CycleBound;
import org.rdmasim.workload.StageParameter;

/**
 * What a refit did.
 *
 * @param method        the method's name
 * @param cycles        each cycle, in order
 * @param minimumBytes  the slice map's bytes (sum of the routes): what the inference ranks need at least
 * @param restsOn       the named parameters the stage costs rest on (pause, resume, barrier, NCCL step, registration
 *                      terms), each with its value and evidence
 * @param transfers     every RDMA transfer the backend ran (pull and WRITE methods), all cycles
 */
public record RefitResult(String method, List<Cycle> cycles, long minimumBytes, List<StageParameter> restsOn,
        List<TransferResult> transfers) {
    public RefitResult {
        cycles = List.copyOf(cycles);
        restsOn = List.copyOf(restsOn);
        transfers = List.copyOf(transfers);
    }

    /**
     * One cycle: pause to resume.
     *
     * @param stageSeconds per stage, seconds at least one unit of work was in it (overlapping stages each count)
     * @param wireBytes    bytes delivered into receiving GPUs over the wire (a broadcast chain counts every
     *                     rank it reaches, relays included)
     * @param received     per inference rank, bytes that landed on its GPU
     * @param bound        the limit busy longest in the method's stages (a resource id as resources.csv names it,
     *                     or a GPU stage), in words, and the stage parameters it is a cost of
     */
    public record Cycle(int index, double startSeconds, double endSeconds, Map<RefitStage, Double> stageSeconds,
            long wireBytes, SortedMap<Integer, Long> received, CycleBound bound) {
        public Cycle {
            stageSeconds = Collections.unmodifiableMap(new EnumMap<>(stageSeconds));
            received = Collections.unmodifiableSortedMap(new TreeMap<>(received));
        }

        public double seconds() {
            return endSeconds - startSeconds;
        }

        public String boundBy() {
            return bound.limit();
        }

        public String boundWords() {
            return bound.words();
        }

        public double stage(RefitStage s) {
            return stageSeconds.get(s);
        }

        /** Wire bytes over the slice map's minimum. */
        public double overMinimum(long minimumBytes) {
            return (double) wireBytes / minimumBytes;
        }
    }

    /** The first cycle's wall time (it pays for registration). */
    public double firstCycleSeconds() {
        return cycles.get(0).seconds();
    }

    /** The last cycle's wall time (a cached registration is not paid again). */
    public double steadyCycleSeconds() {
        return cycles.get(cycles.size() - 1).seconds();
    }
}
