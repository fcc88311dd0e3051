package org.rdmasim.importers;

/**
 * A topology file that cannot be imported. The message always reads
 * {@code FILE:LINE: what was wrong, expected what}, so a user can jump to the line; callers that wrap
 * it (the scenario reader, the command line) keep that text whole.
 */
public class ImportException extends RuntimeException {
    private final String source;
    private final int line;

    public ImportException(String source, int line, String problem, String expected) {
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
