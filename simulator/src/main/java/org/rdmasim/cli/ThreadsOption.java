package org.rdmasim.cli;

import picocli.CommandLine.Option;

/** The {@code --threads} option block of the commands that run replications in parallel. */
final class ThreadsOption {
    /** More threads than this is a typo: no machine rdmasim runs on has more cores. */
    static final int MAX_THREADS = 4096;

    @Option(names = "--threads", paramLabel = "N", description = "threads for replications and a refit's 'what would halve it' reruns, 1 to "
            + MAX_THREADS + " (default: all cores; the output does not depend on it)")
    Integer threads;

    /** The threads to use: the option's value, checked, or all cores. */
    int count() {
        if (threads == null) {
            return Runtime.getRuntime().availableProcessors();
        }
        if (threads < 1 || threads > MAX_THREADS) {
            throw new BadInputException("--threads must be 1 to " + MAX_THREADS + ", got " + threads);
        }
        return threads;
    }
}
