package org.rdmasim.scenario;

/** Bad scenario input: the message names the file, line and column and what was expected. */
public final class ScenarioException extends RuntimeException {
    private final String file;
    private final int line;
    private final int column;

    public ScenarioException(String file, int line, int column, String message) {
        super(file + ":" + line + ":" + column + ": " + message);
        this.file = file;
        this.line = line;
        this.column = column;
    }

    public String file() {
        return file;
    }

    public int line() {
        return line;
    }

    public int column() {
        return column;
    }
}
