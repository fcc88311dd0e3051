package org.rdmasim.scenario;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Supplier;
import org.rdmasim.importers.InputLimits;

/**
 * Where the files a scenario names ({@code transport.envFile}, {@code {nvidia-smi: FILE}},
 * {@code {nccl-topo: FILE}}) may be: inside the scenario's folder, unless the command was given
 * {@code --allow-outside}. The choice is the command's, held for the thread loading the scenario.
 */
public final class FileScope {
    private static final ThreadLocal<Boolean> OUTSIDE_ALLOWED = ThreadLocal.withInitial(() -> false);

    private FileScope() {
    }

    /** Runs {@code body} with files outside the scenario's folder allowed or not. */
    public static <T> T with(boolean allowOutside, Supplier<T> body) {
        boolean before = OUTSIDE_ALLOWED.get();
        OUTSIDE_ALLOWED.set(allowOutside);
        try {
            return body.get();
        } finally {
            OUTSIDE_ALLOWED.set(before);
        }
    }

    /** The regular file named by {@code at}, resolved against the folder of the file {@code at} was written in. */
    static Path resolve(YamlTree at) {
        Path scenario = Path.of(at.file()).toAbsolutePath();
        Path folder = scenario.getParent() == null ? Path.of("").toAbsolutePath() : scenario.getParent();
        Path file;
        try {
            file = InputLimits.inside(folder, at.text(), OUTSIDE_ALLOWED.get());
        } catch (InputLimits.LimitException e) {
            throw at.error(e.getMessage());
        } catch (java.nio.file.InvalidPathException e) {
            throw at.error("not a usable file name");
        }
        if (!Files.isRegularFile(file)) {
            throw at.error("no such file: " + file);
        }
        return file;
    }

    /** The text of the file named by {@code at}, within {@link InputLimits}; never quoted in a message. */
    static String read(YamlTree at) {
        Path file = resolve(at);
        try {
            return InputLimits.read(file);
        } catch (InputLimits.LimitException e) {
            throw at.error(file + (e.line() > 0 ? ":" + e.line() : "") + ": " + e.getMessage());
        }
    }
}
