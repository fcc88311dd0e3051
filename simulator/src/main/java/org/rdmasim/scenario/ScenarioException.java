package org.rdmasim.scenario;

import org.rdmasim.importers.InputLocation;

/** Bad scenario input: the message names the file, line and column and what was expected. */
public final class ScenarioException extends RuntimeException {
    private final InputLocation location;

    public ScenarioException(String file, int line, int column, String message) {
        this(new InputLocation(file, line, column), message);
    }

    public ScenarioException(InputLocation at, String message) {
        super(at.file() + ":" + at.line() + ":" + at.column() + ": " + message);
        this.location = at;
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
