package org.rdmasim.cli;

/**
 * The {@code --threads} option's range and default. Each command declares the option itself: what runs on the
 * threads differs (a run's replications and reruns, a sizing point's replications, a study's rows), and its help
 * says which.
 */
final class ThreadsOption {
    /** More threads than this is a typo: no machine rdmasim runs on has more cores. */
    static final int MAX_THREADS = 4096;

    static final String NAME = "--threads";
    static final String LABEL = "N";
    /** The end of each command's description of the option. */
    static final String RANGE = ", 1 to " + MAX_THREADS + " (default: all cores)";

    private ThreadsOption() {
    }

    /** The threads to use: the option's value ({@code null} when not given), checked, or all cores. */
    static int count(Integer threads) {
        if (threads == null) {
            return Runtime.getRuntime().availableProcessors();
        }
        if (threads < 1 || threads > MAX_THREADS) {
            throw new BadInputException("--threads must be 1 to " + MAX_THREADS + ", got " + threads);
        }
        return threads;
    }
}
