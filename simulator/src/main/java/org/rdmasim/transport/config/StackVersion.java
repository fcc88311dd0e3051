package org.rdmasim.transport.config;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A library release as {@code major.minor.patch}; {@code "1.21"}, {@code "v1.2.0"} and
 * {@code "1.21.0-rc1"} are all accepted (a pre-release suffix is ignored: NIXL compares UCX
 * versions with {@code UCP_VERSION(major, minor)} only).
 */
public record StackVersion(int major, int minor, int patch) implements Comparable<StackVersion> {

    private static final Pattern FORM = Pattern.compile("v?(\\d+)\\.(\\d+)(?:\\.(\\d+))?(?:[-+].*)?");

    public StackVersion {
        if (major < 0 || minor < 0 || patch < 0) {
            throw new IllegalArgumentException("negative version component");
        }
    }

    public static StackVersion parse(String text) {
        Matcher m = FORM.matcher(text.strip());
        if (!m.matches()) {
            throw new IllegalArgumentException("'" + text + "' is not a version, expected e.g. 1.21 or 1.2.0");
        }
        int patch = m.group(3) == null ? 0 : Integer.parseInt(m.group(3));
        return new StackVersion(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)), patch);
    }

    /** Whether {@code text} (a version {@link #parse} reads) writes its patch number ("1.21.0", not "1.21"). */
    public static boolean patchWritten(String text) {
        Matcher m = FORM.matcher(text.strip());
        return m.matches() && m.group(3) != null;
    }

    public boolean atLeast(StackVersion other) {
        return compareTo(other) >= 0;
    }

    @Override
    public int compareTo(StackVersion o) {
        if (major != o.major) {
            return Integer.compare(major, o.major);
        }
        if (minor != o.minor) {
            return Integer.compare(minor, o.minor);
        }
        return Integer.compare(patch, o.patch);
    }

    @Override
    public String toString() {
        return major + "." + minor + "." + patch;
    }
}
