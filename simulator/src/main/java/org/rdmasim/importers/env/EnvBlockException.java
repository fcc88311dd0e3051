package org.rdmasim.importers.env;

import org.rdmasim.importers.ImportException;

/**
 * An environment block that cannot be read. Like every import error its message reads
 * {@code FILE:LINE: what was wrong, expected what}, so a user can jump to the line.
 */
public final class EnvBlockException extends ImportException {
    public EnvBlockException(String source, int line, String problem, String expected) {
        super(source, line, problem, expected);
    }
}
