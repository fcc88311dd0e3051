package org.rdmasim.importers.env;

/** The two shapes of text {@link EnvBlock} understands. */
public enum EnvFormat {
    /** {@code export NAME=VALUE} or {@code NAME=VALUE} lines, with {@code #} comments. */
    SHELL,
    /** A Kubernetes manifest (or a bare YAML list) whose containers carry {@code env:} lists. */
    KUBERNETES_YAML
}
