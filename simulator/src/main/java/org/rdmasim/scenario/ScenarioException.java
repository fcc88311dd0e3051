package org.rdmasim.scenario;

import org.rdmasim.importers.InputLocation;

/** Bad scenario input: the message names the file, line and column (where there is one) and what was expected. */
public final class ScenarioException extends RuntimeException {
    private final InputLocation location;

    public ScenarioException(String file, int line, int column, String message) {
        this(new InputLocation(file, line, column), message);
    }

    public ScenarioException(InputLocation at, String message) {
        // FILE:LINE:COL, FILE:LINE, or just FILE for a fact about the whole file (missing, a folder, too big)
        super(at + ": " + message);
        this.location = at;
    }

    /**
     * {@code file}, which is not a regular file, refused as the {@code what} (such as "scenario file")
     * a command was given: a folder is named as one, anything else as missing. No line: it is about the
     * whole file.
     */
    public static ScenarioException notAFile(java.nio.file.Path file, String what) {
        String why = java.nio.file.Files.isDirectory(file) ? "is a folder, not a " + what
                : java.nio.file.Files.exists(file) ? "not a regular file; expected a " + what : "no such " + what;
        return new ScenarioException(file.toString(), 0, 0, why);
    }

    public InputLocation location() {
        return location;
    }

    public String file() {
        return location.file();
    }

    public int line() {
        return location.line();
    }

    public int column() {
        return location.column();
    }
}
