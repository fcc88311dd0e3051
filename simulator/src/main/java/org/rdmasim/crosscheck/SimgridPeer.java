package org.rdmasim.crosscheck;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Solves a {@link FlowProblem} with SimGrid through {@code tools/simgrid-peer/flowpeer.py}, one
 * process per problem (SimGrid's engine is a singleton). Debian's {@code /usr/bin/python3} is used on
 * purpose: its dist-packages hold python3-simgrid, which a pyenv interpreter on PATH does not see.
 */
public final class SimgridPeer {
    /** The interpreter that sees Debian's python3-simgrid (tools/simgrid-peer/README.md). */
    public static final String PYTHON = "/usr/bin/python3";
    public static final String INSTALL_HINT = "run tools/simgrid-peer/install.sh (installs Debian's python3-simgrid)";

    private final Path repo;

    public SimgridPeer(Path repo) {
        this.repo = repo;
    }

    /**
     * The repository holding tools/simgrid-peer: {@code rdmasim.home} (set by the launcher), else the
     * working directory or the nearest folder above it that holds the script (tests run in simulator/).
     */
    public static Path locateRepo() {
        String home = System.getProperty("rdmasim.home");
        if (home != null) {
            return Path.of(home);
        }
        Path here = Path.of("").toAbsolutePath();
        for (Path p = here; p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("tools/simgrid-peer/flowpeer.py"))) {
                return p;
            }
        }
        return here;
    }

    /** SimGrid's answer: finish per flow id, its own build+solve seconds, and the whole process's. */
    public record Result(String simgridVersion, double peerSeconds, double processSeconds, Map<String, Double> finishById) {
    }

    /** Why the peer cannot run here (empty when it can): no interpreter, no bindings, or no flowpeer.py. */
    public Optional<String> unavailable() {
        if (!Files.isExecutable(Path.of(PYTHON))) {
            return Optional.of(PYTHON + " is missing; " + INSTALL_HINT);
        }
        if (!Files.isRegularFile(script())) {
            return Optional.of("no " + script() + " (is rdmasim.repo the repository root?)");
        }
        try {
            Process p = new ProcessBuilder(PYTHON, "-c", "import simgrid").redirectErrorStream(true).start();
            String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return Optional.of(PYTHON + " -c 'import simgrid' did not finish in 60 s");
            }
            if (p.exitValue() != 0) {
                return Optional.of(PYTHON + " cannot import simgrid; " + INSTALL_HINT + "\n" + text.strip());
            }
        } catch (IOException e) {
            return Optional.of("cannot start " + PYTHON + ": " + e.getMessage() + "; " + INSTALL_HINT);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.of("interrupted while checking for simgrid");
        }
        return Optional.empty();
    }

    private Path script() {
        return repo.resolve("tools/simgrid-peer/flowpeer.py");
    }

    /** Runs flowpeer.py with the problem's JSON on stdin. */
    public Result solve(FlowProblem problem) throws IOException {
        Path dir = Files.createTempDirectory("rdmasim-simgrid");
        Path in = dir.resolve("problem.json");
        Path out = dir.resolve("result.json");
        Path err = dir.resolve("stderr.txt");
        try {
            Files.writeString(in, problem.toJson(), StandardCharsets.UTF_8);
            ProcessBuilder pb = new ProcessBuilder(PYTHON, script().toString(), "-")
                    .redirectInput(in.toFile()).redirectOutput(out.toFile()).redirectError(err.toFile());
            long t0 = System.nanoTime();
            Process p = pb.start();
            int code;
            try {
                code = p.waitFor();
            } catch (InterruptedException e) {
                p.destroyForcibly();
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while SimGrid ran", e);
            }
            double process = (System.nanoTime() - t0) / 1e9;
            if (code != 0) {
                throw new IOException("flowpeer.py exited with " + code + ": " + Files.readString(err).strip());
            }
            JsonNode root = new ObjectMapper().readTree(out.toFile());
            Map<String, Double> finish = new LinkedHashMap<>();
            for (JsonNode f : root.get("flows")) {
                finish.put(f.get("id").asText(), f.get("finish").asDouble());
            }
            return new Result(root.get("simgrid_version").asText(), root.get("wall_seconds").asDouble(), process, finish);
        } finally {
            Files.deleteIfExists(in);
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
            Files.deleteIfExists(dir);
        }
    }
}
