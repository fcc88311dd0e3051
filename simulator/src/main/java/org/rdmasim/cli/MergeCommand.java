package org.rdmasim.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.rdmasim.sweep.ResultTable;
import org.rdmasim.sweep.ShardMerge;
import org.rdmasim.sweep.StudyPage;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code rdmasim merge DIR...}: a study's shards into the table, charts and page of a whole run. */
@Command(name = "merge", mixinStandardHelpOptions = true,
        description = {
                "Merge the output folders of a study's shards into one result.",
                "",
                "Joins the folders of `sweep --shard I/N` into the same results.csv, results.json and "
                        + "index.html, byte for byte, as a run of the whole study on one machine, plus the "
                        + "charts. Refuses, naming the folder or shard and merging nothing: a shard missing, "
                        + "given twice, not finished, or of another study (fingerprint).",
                "Exit codes: 0 merged, 2 bad input, " + Main.INTERNAL_ERROR_WORDS + "."})
public final class MergeCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0..*", arity = "1..*", paramLabel = "DIR", description = "the shards' output folders")
    List<Path> dirs;

    @Option(names = {"-o", "--out"}, paramLabel = "DIR", description = "output folder (default: reports/<study>/)")
    Path out;

    @Override
    public Integer call() throws IOException {
        PrintWriter o = spec.commandLine().getOut();
        for (Path d : dirs) {
            if (Files.exists(d) && !Files.isDirectory(d)) {
                throw new BadInputException(d + " is a file, not a folder: merge takes the folders the shards "
                        + "wrote (each shard's --out)");
            }
            if (!Files.isDirectory(d)) {
                throw new BadInputException(d + ": no such folder (a shard's --out)");
            }
        }
        ResultTable merged;
        try {
            merged = ShardMerge.merge(dirs);
        } catch (IllegalArgumentException e) {
            throw new BadInputException(e.getMessage());
        }
        Path dir = out != null ? out : Path.of("reports", merged.meta().study());
        // The merge writes beside what else is there (a job folder holds the scheduler's own logs and the
        // shard folders): it refuses only when a file it would write is one rdmasim did not write.
        if (java.nio.file.Files.exists(dir) && !java.nio.file.Files.isDirectory(dir)) {
            throw new BadInputException(dir + " is a file; --out names the folder the merged study is written to");
        }
        if (!Files.exists(dir)) {
            // a file on the way to it (--out FILE/sub) said as `run` says it, not as "Not a directory"
            org.rdmasim.report.ReportFolder.checkWritable(dir);
        }
        if (java.nio.file.Files.isDirectory(dir)) {
            List<String> clash = org.rdmasim.report.ReportFolder.foreignEntries(dir, java.util.Set.of()).stream()
                    .filter(n -> n.equals("results.csv") || n.equals("results.json") || n.equals("rows.jsonl")
                            || n.equals("index.html") || n.matches(".*-vs-.*\\.(png|svg)"))
                    .toList();
            if (!clash.isEmpty()) {
                throw new BadInputException("will not replace " + String.join(", ", clash) + " in " + dir
                        + ": rdmasim did not write it (or it changed since); move it or choose another --out");
            }
        }
        StudyPage.write(merged, dir, true);
        Files.deleteIfExists(dir.resolve(ResultTable.JOURNAL));
        long failed = merged.rows().stream().filter(r -> !r.ok()).count();
        o.printf("%s: %d shard(s) merged, %d row(s)%s; written to %s%n", merged.meta().study(), dirs.size(),
                merged.rows().size(), failed > 0 ? ", " + failed + " FAILED" : "", dir);
        return Main.OK;
    }
}
