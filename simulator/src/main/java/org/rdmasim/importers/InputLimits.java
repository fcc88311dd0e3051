package org.rdmasim.importers;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Bounds on every input file, checked before a parser sees the text. Real inputs are inside them (a
 * catalog scenario is a few KB, an nvidia-smi matrix of a 72-GPU rack is under 100 lines of a few hundred
 * characters, the largest are transfer lists: 65,536 transfers written by tools/scale/transfer_list.py are
 * 5 MB); they exist so a hostile or mistaken file fails at once with a message naming the limit instead of
 * spending minutes in a parser or in chart layout.
 */
public final class InputLimits {
    /**
     * Largest file read: 16 MiB, about 200,000 transfers of a list (~77 bytes each). SnakeYAML's own limit
     * (3 MiB of code points by default) is raised to it where a YAML parser is built.
     */
    public static final long MAX_FILE_BYTES = 16L * 1024 * 1024;
    /** Longest line: 10,000 characters. */
    public static final int MAX_LINE_CHARS = 10_000;
    /** Longest scenario, variant or host name: it becomes a folder or file name and a chart label. */
    public static final int MAX_NAME_CHARS = 100;
    /** Deepest nesting of YAML collections or XML elements (an NCCL topology is about 6 deep). */
    public static final int MAX_DEPTH = 64;

    private InputLimits() {
    }

    /** A broken limit: the line it was found on (0 for the whole file) and what was wrong. */
    public record Violation(int line, String problem) {
    }

    /** The first limit {@code text} breaks, if any. */
    public static Optional<Violation> check(String text) {
        if (text.length() > MAX_FILE_BYTES) {
            return Optional.of(new Violation(0, "the file is larger than the limit of " + MAX_FILE_BYTES + " bytes"));
        }
        int line = 1;
        int start = 0;
        for (int i = 0; i <= text.length(); i++) {
            if (i == text.length() || text.charAt(i) == '\n') {
                if (i - start > MAX_LINE_CHARS) {
                    return Optional.of(new Violation(line, "line is " + (i - start)
                            + " characters long, over the limit of " + MAX_LINE_CHARS));
                }
                line++;
                start = i + 1;
            }
        }
        return Optional.empty();
    }

    /**
     * Reads a UTF-8 text file no larger than {@link #MAX_FILE_BYTES}. The exception's message names
     * the file and the reason, never the file's content.
     */
    public static String read(Path file) throws LimitException {
        try {
            if (!Files.isRegularFile(file)) {
                throw new LimitException(0, "not a regular file");
            }
            long size = Files.size(file);
            if (size > MAX_FILE_BYTES) {
                throw new LimitException(0, "the file is " + size + " bytes, over the limit of " + MAX_FILE_BYTES + " bytes");
            }
            byte[] bytes;
            try (InputStream in = Files.newInputStream(file)) {
                bytes = in.readNBytes((int) MAX_FILE_BYTES + 1);
            }
            if (bytes.length > MAX_FILE_BYTES) {
                throw new LimitException(0, "the file is over the limit of " + MAX_FILE_BYTES + " bytes");
            }
            String text;
            try {
                text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT).decode(java.nio.ByteBuffer.wrap(bytes)).toString();
            } catch (CharacterCodingException e) {
                throw new LimitException(0, "the file is not UTF-8 text");
            }
            Optional<Violation> v = check(text);
            if (v.isPresent()) {
                throw new LimitException(v.get().line(), v.get().problem());
            }
            return text;
        } catch (IOException e) {
            throw new LimitException(0, "cannot read the file (" + e.getClass().getSimpleName() + ")");
        }
    }

    /**
     * {@code relative} resolved against {@code folder}, refused when it leaves that folder (after
     * following symbolic links) unless {@code allowOutside}: a scenario names files beside it, and a
     * scenario from elsewhere must not make rdmasim open arbitrary files.
     */
    public static Path inside(Path folder, String relative, boolean allowOutside) throws LimitException {
        Path base = folder.toAbsolutePath().normalize();
        Path file = base.resolve(relative).normalize();
        if (allowOutside) {
            return file;
        }
        if (!file.startsWith(base)) {
            throw new LimitException(0, "'" + relative + "' is outside the scenario's folder " + base
                    + " (pass --allow-outside to read it)");
        }
        try {
            if (Files.exists(file) && !file.toRealPath().startsWith(base.toRealPath())) {
                throw new LimitException(0, "'" + relative + "' links outside the scenario's folder " + base
                        + " (pass --allow-outside to read it)");
            }
        } catch (IOException e) {
            throw new LimitException(0, "cannot resolve '" + relative + "' (" + e.getClass().getSimpleName() + ")");
        }
        return file;
    }

    /** A broken limit or refused file, with the line it was found on (0: the whole file). */
    /** A path as the user would type it from the working folder: relative when below it, else absolute. */
    public static Path fromHere(Path p) {
        Path here = Path.of("").toAbsolutePath().normalize();
        Path abs = p.toAbsolutePath().normalize();
        return abs.startsWith(here) ? here.relativize(abs) : abs;
    }

    public static final class LimitException extends Exception {
        private final int line;

        public LimitException(int line, String problem) {
            super(problem);
            this.line = line;
        }

        public int line() {
            return line;
        }
    }
}
