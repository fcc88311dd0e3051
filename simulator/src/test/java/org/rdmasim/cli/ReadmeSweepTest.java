package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The README's "Sweeps" section: its commands run as written (output folders moved to a temporary one) and its figures are the run's. */
class ReadmeSweepTest {
    @TempDir
    Path tmp;

    @Test
    void theSweepsSectionsCommandsRunAndItsFiguresAreTheStudys() throws Exception {
        String readme = Files.readString(CliTestSupport.repo().resolve("README.md"), StandardCharsets.UTF_8);
        int at = readme.indexOf("\n## Sweeps\n");
        assertTrue(at >= 0, "README has a Sweeps section");
        String section = readme.substring(at, readme.indexOf("\n## ", at + 5));
        List<String> commands = new ArrayList<>();
        int from = 0;
        while ((from = section.indexOf("```sh\n", from)) >= 0) {
            int end = section.indexOf("\n```", from);
            for (String line : section.substring(from + 6, end).replace("\\\n", " ").split("\n")) {
                if (line.startsWith("./rdmasim ")) {
                    commands.add(line.trim());
                }
            }
            from = end;
        }
        assertEquals(2, commands.size(), "a local sweep and a Slurm one: " + commands);
        Path local = tmp.resolve("local");
        Path slurm = tmp.resolve("slurm");
        for (String c : commands) {
            List<String> args = new ArrayList<>(List.of(c.substring("./rdmasim ".length()).trim().split("\\s+")));
            int out = args.indexOf("--out");
            if (out >= 0) {
                args.remove(out + 1);
                args.remove(out);
            }
            args.set(1, CliTestSupport.repo().resolve(args.get(1)).toString());
            args.addAll(List.of("--out", (args.contains("--slurm") ? slurm : local).toString()));
            var r = CliTestSupport.run(args.toArray(String[]::new));
            assertEquals(0, r.code(), c + ": " + r.err());
        }
        assertTrue(Files.readString(slurm.resolve("sweep.sbatch")).contains("#SBATCH --array=0-2\n"));
        JsonNode rows = new ObjectMapper().readTree(local.resolve("results.json").toFile()).get("results");
        assertEquals(18, rows.size());
        // first replication of the 5 ms points with 1, 2 and 4 sources: as the README states them
        assertEquals(784, Math.round(rows.get(0).get("aggregateGbps").asDouble()));
        assertEquals(1566, Math.round(rows.get(6).get("aggregateGbps").asDouble()));
        assertEquals(3103, Math.round(rows.get(12).get("aggregateGbps").asDouble()));
        assertEquals(2.4, rows.get(0).get("p99PullSeconds").asDouble(), 0.05);
        assertEquals(0.47, rows.get(12).get("p99PullSeconds").asDouble(), 0.005);
        for (String stated : List.of("784 Gbps", "two 1,566, four 3,103", "from 2.4 s to 0.47 s")) {
            assertTrue(section.contains(stated), stated);
        }
    }
}
