package org.rdmasim.scenario;

import org.rdmasim.importers.InputLocation;

/** Bad scenario input: the message names the file, line and column (where there is one) and what was expected. */
public final class ScenarioException extends RuntimeException {
    private final InputLocation location;

    public ScenarioException(String file, int line, int column, String message) {
        this(new InputLocation(file, line, column), message);
    }

    public ScenarioException(InputLocation at, String message) {
        // FILE:LINE:COL, FILE:LINE, or just FILE for a fact about the whole file (missing, a folder, too big)
        super(at + ": " + message);
        this.location = at;
    }

    /**
     * {@code file}, which is not a regular file, refused as the {@code what} (such as "scenario file")
     * a command was given: a folder is named as one, anything else as missing. No line: it is about the
     * whole file.
     */
    public static ScenarioException notAFile(java.nio.file.Path file, String what) {
        String why = java.nio.file.Files.isDirectory(file) ? "is a folder, not a " + what
                : java.nio.file.Files.exists(file) ? "not a regular file; expected a " + what
                : "no such " + what + nearestYaml(file);
        return new ScenarioException(file.toString(), 0, 0, why);
    }

    /**
     * " (did you mean 'F'?)" for the YAML file whose name is nearest to a missing {@code file}'s, among those
     * beside it and in the scenarios/ folders of the working directory and of rdmasim's home; "" when none is
     * near. A name given without its folder or its .yaml ({@code seed003-nic-pin-vs-stripe}) finds its file.
     */
    static String nearestYaml(java.nio.file.Path file) {
        String wanted = file.getFileName() == null ? "" : file.getFileName().toString().replaceFirst("\\.ya?ml$", "");
        java.util.List<java.nio.file.Path> folders = new java.util.ArrayList<>();
        java.nio.file.Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            folders.add(parent);
        }
        folders.add(java.nio.file.Path.of("scenarios"));
        String home = System.getProperty("rdmasim.home");
        if (home != null) {
            folders.add(java.nio.file.Path.of(home, "scenarios"));
        }
        java.util.Map<String, java.nio.file.Path> byName = new java.util.LinkedHashMap<>();
        for (java.nio.file.Path folder : folders) {
            try (java.util.stream.Stream<java.nio.file.Path> s = java.nio.file.Files.list(folder)) {
                s.filter(f -> f.toString().endsWith(".yaml")).sorted()
                        .forEach(f -> byName.putIfAbsent(f.getFileName().toString().replaceFirst("\\.yaml$", ""), f));
            } catch (java.io.IOException | SecurityException e) {
                // a folder that cannot be listed offers no name
            }
        }
        String near = YamlTree.suggestion(wanted, byName.keySet());
        if (near.isEmpty()) {
            return "";
        }
        String name = near.substring(near.indexOf('\'') + 1, near.lastIndexOf('\''));
        java.nio.file.Path found = byName.get(name);
        java.nio.file.Path cwd = java.nio.file.Path.of("").toAbsolutePath();
        java.nio.file.Path shown = found.toAbsolutePath().startsWith(cwd) ? cwd.relativize(found.toAbsolutePath()) : found;
        return " (did you mean '" + shown + "'?)";
    }

    public InputLocation location() {
        return location;
    }

    public String file() {
        return location.file();
    }

    public int line() {
        return location.line();
    }

    public int column() {
        return location.column();
    }
}
