package org.rdmasim.importers;

import java.nio.file.Path;

/** Reading an input file's text within the input limits, for every importer. */
public final class HostFiles {
    private HostFiles() {
    }

    /** The text of an input file, or an import error naming it and the kind of file {@code expected}. */
    public static String readText(Path file, String expected) {
        try {
            return InputLimits.read(file);
        } catch (InputLimits.LimitException e) {
            throw new ImportException(file.toString(), e.line(), e.getMessage(), expected);
        }
    }
}
