package org.rdmasim.workload;

import umontreal.ssj.rng.RandomStream;

/**
 * When receivers ask for the model, relative to the start of a cycle's pull phase.
 *
 * <ul>
 *   <li>{@link AllAtOnce}: every receiver at time 0 (a synchronous refit broadcast);</li>
 *   <li>{@link Waves}: receivers in groups of {@code size}; the next group starts {@code gapSeconds}
 *       after the previous one, or when the previous group has finished ({@code afterPrevious});</li>
 *   <li>{@link Poisson}: independent arrivals with exponential gaps of mean {@code meanGapSeconds}
 *       (inference pods scaling up one by one), drawn from a seeded stream.</li>
 * </ul>
 */
public sealed interface ArrivalProcess permits ArrivalProcess.AllAtOnce, ArrivalProcess.Waves, ArrivalProcess.Poisson {

    /**
     * Arrival offsets of {@code receivers} receivers, seconds from the start of the pull phase, in
     * receiver order. For waves that wait on the previous one, only the first wave's offsets are
     * meaningful (0); the runner releases later waves on completion.
     */
    double[] offsets(int receivers, RandomStream stream);

    /** Every receiver at time 0. */
    record AllAtOnce() implements ArrivalProcess {
        @Override
        public double[] offsets(int receivers, RandomStream stream) {
            return new double[receivers];
        }
    }

    /** Groups of {@code size}; {@code afterPrevious} releases a group when the previous one has finished. */
    record Waves(int size, double gapSeconds, boolean afterPrevious) implements ArrivalProcess {
        public Waves {
            if (size < 1) {
                throw new IllegalArgumentException("a wave needs at least one receiver, got " + size);
            }
            if (!afterPrevious && !(gapSeconds >= 0)) {
                throw new IllegalArgumentException("the gap between waves must be >= 0");
            }
        }

        public static Waves afterPrevious(int size) {
            return new Waves(size, 0.0, true);
        }

        public static Waves everySeconds(int size, double gap) {
            return new Waves(size, gap, false);
        }

        public int waveOf(int receiver) {
            return receiver / size;
        }

        @Override
        public double[] offsets(int receivers, RandomStream stream) {
            double[] out = new double[receivers];
            if (!afterPrevious) {
                for (int i = 0; i < receivers; i++) {
                    out[i] = waveOf(i) * gapSeconds;
                }
            }
            return out;
        }
    }

    /** The first receiver at 0, then exponential gaps of mean {@code meanGapSeconds}. */
    record Poisson(double meanGapSeconds) implements ArrivalProcess {
        public Poisson {
            if (!(meanGapSeconds > 0) || Double.isInfinite(meanGapSeconds)) {
                throw new IllegalArgumentException("the mean gap between arrivals must be positive, got " + meanGapSeconds);
            }
        }

        @Override
        public double[] offsets(int receivers, RandomStream stream) {
            double[] out = new double[receivers];
            double t = 0;
            for (int i = 0; i < receivers; i++) {
                out[i] = t;
                // Inverse transform of the exponential distribution; 1 - u keeps the log finite.
                t += -meanGapSeconds * Math.log(1.0 - stream.nextDouble());
            }
            return out;
        }
    }
}
