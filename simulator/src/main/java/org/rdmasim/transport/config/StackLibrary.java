package org.rdmasim.transport.config;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * A library of the stack whose release a scenario names, with the newest release its rules were read
 * from. The rules are written as "from release X" and "before release Y" boundaries taken from the
 * libraries' tags, so every published release (a patch release, a minor release with no rule of its
 * own) is placed on the right side of every boundary. A release after the newest tag read is not:
 * nothing says which of its code paths changed, so it is refused rather than given the newest
 * behaviour silently; nor is a release that was never published (each library's tag list is kept).
 */
public enum StackLibrary {
    /** ai-dynamo/nixl: the override table in {@link ConfigResolver} is read up to tag v1.4.0. */
    NIXL("NIXL", new StackVersion(1, 4, 0), "0.1.0 0.1.1 0.2.0 0.2.1 0.3.0 0.3.1 0.4.0 0.4.1 0.5.0 0.5.1 0.6.0 0.6.1 "
            + "0.7.0 0.7.1 0.8.0 0.9.0 0.10.0 0.10.1 1.0.0 1.0.1 1.1.0 1.2.0 1.3.0 1.3.1 1.3.2 1.4.0"),
    /** openucx/ucx: {@code config/ucx.conf} and the lane rules are read up to tag v1.22.0. */
    UCX("UCX", new StackVersion(1, 22, 0), "1.2.0 1.2.1 1.2.2 1.3.0 1.3.1 1.4.0 1.5.0 1.5.1 1.5.2 1.6.0 1.6.1 1.7.0 "
            + "1.8.0 1.8.1 1.9.0 1.10.0 1.10.1 1.11.0 1.11.1 1.11.2 1.12.0 1.12.1 1.13.0 1.13.1 1.14.0 1.14.1 1.15.0 "
            + "1.16.0 1.17.0 1.18.0 1.18.1 1.19.0 1.19.1 1.20.0 1.20.1 1.21.0 1.22.0"),
    /** NVIDIA/nccl: {@code NCCL_IB_HCA} and the GPUDirect rules are read up to tag v2.30.7-1. */
    NCCL("NCCL", new StackVersion(2, 30, 7), "1.2.1 1.2.2 1.2.3 1.3.0 1.3.4 2.3.5 2.3.7 2.4.2 2.4.6 2.4.7 2.4.8 2.5.6 "
            + "2.5.7 2.6.4 2.7.3 2.7.5 2.7.6 2.7.8 2.8.3 2.8.4 2.9.6 2.9.8 2.9.9 2.10.3 2.11.4 2.12.7 2.12.10 2.12.12 "
            + "2.13.4 2.14.3 2.15.1 2.15.5 2.16.2 2.16.5 2.17.1 2.18.1 2.18.3 2.18.5 2.18.6 2.19.1 2.19.3 2.19.4 "
            + "2.20.3 2.20.5 2.21.5 2.22.3 2.23.4 2.24.3 2.25.1 2.26.2 2.26.3 2.26.5 2.26.6 2.27.3 2.27.5 2.27.6 "
            + "2.27.7 2.28.3 2.28.7 2.28.9 2.29.2 2.29.3 2.29.7 2.30.3 2.30.4 2.30.7");

    private final String label;
    private final StackVersion newestRead;
    /** The library's published releases up to the newest read: its git tags (release candidates left out). */
    private final List<StackVersion> releases;

    StackLibrary(String label, StackVersion newestRead, String releases) {
        this.label = label;
        this.newestRead = newestRead;
        this.releases = Arrays.stream(releases.split(" ")).map(StackVersion::parse).toList();
    }

    /** The newest release whose code the rules were read from. */
    public StackVersion newestRead() {
        return newestRead;
    }

    /**
     * The release {@code text} names: "X.Y.Z" as written; "X.Y" the series' first release (NCCL 2.28 is 2.28.3,
     * its first tag; UCX 1.21 is 1.21.0), or X.Y.0 when the library has no such series (then refused by
     * {@link #unknown}).
     *
     * @throws IllegalArgumentException for text that is not a version
     */
    public StackVersion release(String text) {
        StackVersion v = StackVersion.parse(text);
        if (StackVersion.patchWritten(text)) {
            return v;
        }
        for (StackVersion r : releases) {
            if (r.major() == v.major() && r.minor() == v.minor()) {
                return r;
            }
        }
        return v;
    }

    /** Why {@code release} cannot be modelled, or empty when it can. */
    public Optional<String> unknown(StackVersion release) {
        if (release.atLeast(newestRead) && !release.equals(newestRead)) {
            return Optional.of(label + " " + release + " is not a release rdmasim knows: its " + label
                    + " rules are read from the releases up to " + newestRead + " (name " + newestRead
                    + " or an earlier release; " + newestRead + " gives the newest behaviour modelled)");
        }
        if (!releases.contains(release)) {
            // a release never published is a typo (1.1.9 for 1.1.0), not a version to place between tags
            return Optional.of(label + " " + release + " was never released (its tags go from " + releases.get(0)
                    + " to " + newestRead + "); the nearest releases are " + nearest(release));
        }
        return Optional.empty();
    }

    /** The published releases on either side of {@code release}. */
    private String nearest(StackVersion release) {
        StackVersion below = null;
        StackVersion above = null;
        for (StackVersion r : releases) {
            if (r.compareTo(release) < 0) {
                below = r;
            } else if (above == null) {
                above = r;
            }
        }
        if (below == null) {
            return above.toString();
        }
        return above == null ? below.toString() : below + " and " + above;
    }
}
