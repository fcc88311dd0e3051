package org.rdmasim.importers;

/**
 * Where in a user's input a problem is: file, line and column (0 when unknown). Every bad-input error
 * carries one as data, so a caller that re-points an error (an env block inside a scenario) computes
 * the new place instead of cutting it out of a message.
 */
public record InputLocation(String file, int line, int column) {
    /** {@code FILE:LINE:COL}, {@code FILE:LINE} without a column, {@code FILE} without a line. */
    @Override
    public String toString() {
        if (line <= 0) {
            return file;
        }
        return column <= 0 ? file + ":" + line : file + ":" + line + ":" + column;
    }

    /** The same place {@code lines} further down (an entry of a block that starts at this line). */
    public InputLocation down(int lines) {
        return new InputLocation(file, line + lines, column);
    }
}
