package org.rdmasim.refit.model;

import java.nio.file.Path;

/**
 * A model file rdmasim cannot read as given: it names the file and the field, so the user knows what to fix.
 * One of the input exception types the command line reports as bad input (exit 2, {@code Main.isInputError}).
 * {@link ModelInventory#read} adds the line and column of the field in the file ({@code file:LINE:COLUMN:}).
 */
public final class ModelFileException extends IllegalArgumentException {
    private final String source;
    private final String field;
    private final String problem;

    public ModelFileException(String source, String field, String problem) {
        this(source, "", field, problem);
    }

    public ModelFileException(Path source, String field, String problem) {
        this(String.valueOf(source), field, problem);
    }

    private ModelFileException(String source, String where, String field, String problem) {
        super(source + where + ": " + (field == null ? "" : field + ": ") + problem);
        this.source = source;
        this.field = field;
        this.problem = problem;
    }

    /** The file the message names (as it was given). */
    public String source() {
        return source;
    }

    /** The field, as the message writes it ({@code tensors[0].shape}); null when the problem is the whole file. */
    public String field() {
        return field;
    }

    /** The same refusal with the place in the file where the field is written (1-based line and column). */
    ModelFileException at(int line, int column) {
        ModelFileException e = new ModelFileException(source, ":" + line + ":" + column, field, problem);
        e.setStackTrace(getStackTrace());
        return e;
    }
}
