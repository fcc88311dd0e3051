package org.rdmasim.transport.config;

import java.util.Objects;

/**
 * A variable the simulator models.
 *
 * @param name         the environment variable
 * @param defaultValue the library's default as text, or {@code null} when unset by default
 * @param meaning      one line saying what it controls
 * @param source       the file in the library's repository that defines it
 * @param syntax       how its value is read
 * @param sinceUcx     the first UCX release that knows the variable, or {@code null} for all
 */
public record KnownVariable(String name, String defaultValue, String meaning, String source,
        ValueSyntax syntax, StackVersion sinceUcx) {

    public KnownVariable {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(meaning, "meaning");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(syntax, "syntax");
    }

    public boolean hasDefault() {
        return defaultValue != null;
    }

    /** Whether UCX release {@code ucx} reads this variable (always true for non-UCX variables). */
    public boolean knownTo(StackVersion ucx) {
        return sinceUcx == null || ucx.atLeast(sinceUcx);
    }
}
