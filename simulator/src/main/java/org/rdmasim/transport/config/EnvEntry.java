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
 * @param field  the scenario field that holds the entry, as messages name it ({@code transport.env},
 *               {@code variants[2].transport.env}, {@code transport.envFile}); empty when it was not read from a
 *               scenario (an env file read alone, a value a command sets)
 */
public record EnvEntry(String name, String value, String source, int line, String field) {

    public EnvEntry {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(field, "field");
    }

    /** An entry read from {@code source} at {@code line}, not from a scenario field. */
    public EnvEntry(String name, String value, String source, int line) {
        this(name, value, source, line, "");
    }

    /** The same entry, held by the scenario field {@code field}. */
    public EnvEntry inField(String field) {
        return new EnvEntry(name, value, source, line, field);
    }

    /** {@code source:line}, the form used in every message that points at this entry. */
    public String location() {
        return source + ":" + line;
    }
}
