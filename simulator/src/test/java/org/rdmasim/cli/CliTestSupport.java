package org.rdmasim.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;

/** Runs the command line in-process and keeps what it printed. */
final class CliTestSupport {
    record Outcome(int code, String out, String err) {
    }

    static Outcome run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Outcome(code, out.toString(), err.toString());
    }

    static Path repo() {
        return Path.of(System.getProperty("rdmasim.repo", ".."));
    }

    /**
     * Copies the shipped model config {@code name}.json into {@code dir}/models/, where a scenario written in
     * {@code dir} finds it by bare name (as one beside the catalogue does).
     */
    static void shippedModel(Path dir, String name) throws java.io.IOException {
        java.nio.file.Files.createDirectories(dir.resolve("models"));
        java.nio.file.Files.copy(repo().resolve("scenarios/models/" + name + ".json"),
                dir.resolve("models/" + name + ".json"));
    }

    private CliTestSupport() {
    }
}
