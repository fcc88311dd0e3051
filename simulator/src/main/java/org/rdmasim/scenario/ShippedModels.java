package org.rdmasim.scenario;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The model configs rdmasim ships ({@code scenarios/models/} of the installation the launcher names in
 * {@code rdmasim.home}), found by bare name ({@code qwen3-4b}) by a scenario's {@code model:} and by
 * {@code rdmasim model}.
 */
public final class ShippedModels {
    private ShippedModels() {
    }

    /** The shipped model called {@code name}, if rdmasim runs from its installation and ships one. */
    public static Optional<Path> find(String name) {
        Path folder = folder();
        if (folder == null) {
            return Optional.empty();
        }
        Path f = folder.resolve(name + ".json");
        return Files.isRegularFile(f) ? Optional.of(f) : Optional.empty();
    }

    /** The shipped models' names, sorted; none without the installation (no launcher). */
    public static List<String> names() {
        Path folder = folder();
        if (folder == null) {
            return List.of();
        }
        try (var s = Files.list(folder)) {
            return s.map(f -> f.getFileName().toString()).filter(n -> n.endsWith(".json"))
                    .map(n -> n.substring(0, n.length() - ".json".length())).sorted().toList();
        } catch (IOException e) {
            return List.of();
        }
    }

    private static Path folder() {
        String home = System.getProperty("rdmasim.home");
        if (home == null || home.isBlank()) {
            return null;
        }
        Path p = Path.of(home, "scenarios", "models");
        return Files.isDirectory(p) ? p : null;
    }
}
