package org.rdmasim.importers;

/**
 * Something an importer assumed or could not honour, with the line it concerns (0 when the whole file).
 * Warnings do not stop an import; the commands that import print them as {@code FILE:LINE: warning: ...}.
 */
public record ImportWarning(String source, int line, String message) {

    /** The warning as the commands print it. */
    public String text() {
        return source + ":" + line + ": warning: " + message;
    }

    @Override
    public String toString() {
        return text();
    }
}
