package org.rdmasim.importers;

/**
 * A topology file that cannot be imported. The message always reads
 * {@code FILE:LINE: what was wrong, expected what}, so a user can jump to the line; callers that wrap
 * it (the scenario reader, the command line) keep that text whole.
 */
public class ImportException extends RuntimeException {
    private final InputLocation location;
    private final String detail;

    public ImportException(String source, int line, String problem, String expected) {
        super(source + ":" + line + ": " + problem + ", expected " + expected);
        this.location = new InputLocation(source, line, 0);
        this.detail = problem + ", expected " + expected;
    }

    public InputLocation location() {
        return location;
    }

    /** What was wrong and what was expected, without the place (see {@link #location()}). */
    public String detail() {
        return detail;
    }

    public String source() {
        return location.file();
    }

    public int line() {
        return location.line();
    }
}
