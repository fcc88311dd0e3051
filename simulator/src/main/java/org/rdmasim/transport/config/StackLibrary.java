package org.rdmasim.transport.config;

import java.util.Optional;

/**
 * A library of the stack whose release a scenario names, with the newest release its rules were read
 * from. The rules are written as "from release X" and "before release Y" boundaries taken from the
 * libraries' tags, so a release between two tags read (a patch release, a minor release with no rule
 * of its own) is placed on the right side of every boundary. A release after the newest tag read is
 * not: nothing says which of its code paths changed, so it is refused rather than given the newest
 * behaviour silently.
 */
public enum StackLibrary {
    /** ai-dynamo/nixl: the override table in {@link ConfigResolver} is read up to tag v1.4.0. */
    NIXL("NIXL", new StackVersion(1, 4, 0)),
    /** openucx/ucx: {@code config/ucx.conf} and the lane rules are read up to tag v1.22.0. */
    UCX("UCX", new StackVersion(1, 22, 0)),
    /** NVIDIA/nccl: {@code NCCL_IB_HCA} and the GPUDirect rules are read up to tag v2.30.7-1. */
    NCCL("NCCL", new StackVersion(2, 30, 7));

    private final String label;
    private final StackVersion newestRead;

    StackLibrary(String label, StackVersion newestRead) {
        this.label = label;
        this.newestRead = newestRead;
    }

    /** The newest release whose code the rules were read from. */
    public StackVersion newestRead() {
        return newestRead;
    }

    /** Why {@code release} cannot be modelled, or empty when it can. */
    public Optional<String> unknown(StackVersion release) {
        if (!release.atLeast(newestRead) || release.equals(newestRead)) {
            return Optional.empty();
        }
        return Optional.of(label + " " + release + " is not a release rdmasim knows: its " + label
                + " rules are read from the releases up to " + newestRead + " (name " + newestRead
                + " or an earlier release; " + newestRead + " gives the newest behaviour modelled)");
    }
}
