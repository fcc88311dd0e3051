package org.rdmasim.refit.model;

import java.nio.file.Path;

/**
 * A model file rdmasim cannot read as given: it names the file and the field, so the user knows what to fix.
 * One of the input exception types the command line reports as bad input (exit 2, {@code Main.isInputError}).
 */
public final class ModelFileException extends IllegalArgumentException {
    public ModelFileException(String source, String field, String problem) {
        super(source + ": " + (field == null ? "" : field + ": ") + problem);
    }

    public ModelFileException(Path source, String field, String problem) {
        this(String.valueOf(source), field, problem);
    }
}
