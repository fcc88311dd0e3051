package org.rdmasim.transport.config;

import java.util.Objects;

/**
 * One variable assignment read from an env block.
 *
 * @param name   the variable name, e.g. {@code UCX_NET_DEVICES}
 * @param value  the value after quote removal; never null, possibly empty
 * @param source the file name or label the entry was read from; for a Kubernetes container
 *               the container name is appended as {@code label[container]}
 * @param line   1-based line number of the assignment in the source
 */
public record EnvEntry(String name, String value, String source, int line) {

    public EnvEntry {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(source, "source");
    }

    /** {@code source:line}, the form used in every message that points at this entry. */
    public String location() {
        return source + ":" + line;
    }
}
