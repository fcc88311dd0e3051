package org.rdmasim.importers.env;

/**
 * An env block that cannot be read. The message always has the form
 * {@code FILE:LINE: what was wrong, what was expected}, so a user can jump to the line.
 */
public final class EnvBlockException extends RuntimeException {

    private final String source;
    private final int line;

    public EnvBlockException(String source, int line, String problem, String expected) {
        super(source + ":" + line + ": " + problem + ", expected " + expected);
        this.source = source;
        this.line = line;
    }

    public String source() {
        return source;
    }

    public int line() {
        return line;
    }
}
