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

    /**
     * The scenario file to read, its symbolic links resolved: a link that leads out of the folder it
     * stands in is refused (unless {@code --allow-outside}), so a scenario named on the command line or
     * found by demo cannot make rdmasim read, and quote, a file from elsewhere.
     */
    static Path scenarioFile(Path file) {
        Path abs = file.toAbsolutePath().normalize();
        Path real;
        Path folder;
        try {
            real = abs.toRealPath();
            folder = (abs.getParent() == null ? Path.of("").toAbsolutePath() : abs.getParent()).toRealPath();
        } catch (java.io.IOException e) {
            throw new ScenarioException(file.toString(), 0, 0, "cannot resolve the scenario file ("
                    + e.getClass().getSimpleName() + ")");
        }
        if (!OUTSIDE_ALLOWED.get() && !real.startsWith(folder)) {
            throw new ScenarioException(file.toString(), 0, 0, "a symbolic link to " + real
                    + ", outside the folder it is in; not read (pass --allow-outside to read it)");
        }
        return real;
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
            throw at.error((Files.isDirectory(file) ? "a folder, not a file: " : Files.exists(file)
                    ? "not a regular file: " : "no such file: ") + file);
        }
        return file;
    }

    /** The text of the file named by {@code at}, within {@link InputLimits}; never quoted in a message. */
    static String read(YamlTree at) {
        Path file = resolve(at);
        try {
            // read from the resolved path that resolve() checked, not through the link again
            return InputLimits.read(file.toRealPath());
        } catch (java.io.IOException e) {
            throw at.error(file + ": cannot read the file (" + e.getClass().getSimpleName() + ")");
        } catch (InputLimits.LimitException e) {
            throw at.error(file + (e.line() > 0 ? ":" + e.line() : "") + ": " + e.getMessage());
        }
    }
}
