package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Every option of every quick command, read from the command line's own model, given hostile values: the
 * command ends in a result (0), a variant's failure (1) or a bad-input message (2), never an internal
 * error (3) and never a stack trace. Output options always point into a temporary folder and
 * {@code --force} is never given, so no value can reach a file outside it. {@code demo}, {@code validate}
 * and {@code bench} run for minutes whatever their options, so they are left to their own tests.
 * {@code -Drdmasim.fuzz.tries=N} sets the number of command lines (default 2,000 in CI; 100,000 on demand).
 */
class CliOptionFuzzTest {
    private static final int TRIES = Integer.getInteger("rdmasim.fuzz.tries", 2000);

    /** Values a hostile or careless user gives an option. */
    private static final List<String> HOSTILE = List.of("0", "-1", "-0", "1", "2", "2147483647", "2147483648",
            "-2147483649", "9223372036854775807", "9223372036854775808", "1e308", "1e-320", "NaN", "Infinity",
            "-Infinity", "0x10", "", " ", "''", "\u0000", "\u001B[2J", "é∞", "x".repeat(5000), "1 GB", "0 GB", "0.5 B",
            "40GiB", "1e30 s", "1e-9 s", "0 s", "10 ms", "400 Gbps", "0 Gbps", "mlx5_0:1", "a=b", "=", "A=B=C",
            "UCX_MAX_RMA_RAILS=999999999", "hca", "planet", "sources", "rails", "nics", "tree-degree", "dgx-h100",
            "gb200-tray", "generic", "nccl-xml", "dot", "matrix", "1.20.0", "99.99.99", "../../etc/passwd",
            "/etc/passwd", "/dev/null", "/dev/zero", ".", "..", "20,3", "64,64", "-5,3");

    /** Commands fuzzed, each with the arguments that make it run on a small input. */
    private Map<String, List<String>> bases(Path dir) throws IOException {
        Path transfers = dir.resolve("t.yaml");
        Files.writeString(transfers, """
                name: t
                hosts:
                  a: {preset: dgx-h100}
                  b: {preset: dgx-h100}
                workload:
                  transfers:
                    - {from: "a:GPU0", to: "b:GPU0", size: 1 GB}
                variants:
                  - name: one
                  - name: two
                    transport: {env: "UCX_MAX_RMA_RAILS=1"}
                """);
        Path fanout = dir.resolve("f.yaml");
        Files.writeString(fanout, """
                name: f
                hosts:
                  src: {preset: gb200-tray, count: 2, prefix: s}
                  rx: {preset: gb200-tray, count: 4, prefix: r}
                workload:
                  fanout:
                    sources: src
                    receivers: rx
                    model: 1 GB
                """);
        Path report = dir.resolve("report");
        assertEquals(0, CliTestSupport.run("run", transfers.toString(), "--out", report.toString(), "-q").code());
        String summary = report.resolve("summary.json").toString();
        Map<String, List<String>> m = new TreeMap<>();
        m.put("run", List.of(transfers.toString()));
        m.put("explain", List.of(transfers.toString()));
        m.put("size", List.of(fanout.toString(), "--target-p99", "1 s", "--vary", "sources"));
        m.put("compare", List.of(summary, summary));
        m.put("topo", List.of("dgx-h100"));
        m.put("memory register", List.of("--host", "dgx-h100", "--buffer", "1GiB"));
        m.put("memory mtt", List.of("--memory", "64GiB"));
        m.put("memory va", List.of("--gpu", "gb300", "--communicators", "200"));
        m.put("parameters", List.of());
        // a one-point study, and two shards of it run for merge to join
        Path study = StudyFixture.write(dir.resolve("study"), """
                study: tiny
                scenario: base.yaml
                replications: 1
                knobs:
                  hosts.sources.count: [1, 2]
                """);
        m.put("sweep", List.of(study.toString()));
        Path shard1 = dir.resolve("shard1");
        Path shard2 = dir.resolve("shard2");
        assertEquals(0, CliTestSupport.run("sweep", study.toString(), "--shard", "1/2", "--out", shard1.toString())
                .code());
        assertEquals(0, CliTestSupport.run("sweep", study.toString(), "--shard", "2/2", "--out", shard2.toString())
                .code());
        m.put("merge", List.of(shard1.toString(), shard2.toString()));
        m.put("model", List.of(CliTestSupport.repo().resolve("scenarios/models/qwen3-30b-a3b.json").toString()));
        return m;
    }

    /**
     * The options of each command, read once: building the whole command line's model took about a quarter
     * of this test's time when it was rebuilt for each of the command lines, and the model is the same each
     * time (the options are read from it, never changed), so the command lines drawn are the same.
     */
    private static final Map<String, List<OptionSpec>> OPTIONS = new java.util.concurrent.ConcurrentHashMap<>();

    private static List<OptionSpec> options(String command) {
        return OPTIONS.computeIfAbsent(command, c -> spec(c).options().stream()
                .filter(o -> !o.usageHelp() && !o.versionHelp() && !o.longestName().equals("--force")).toList());
    }

    private static CommandSpec spec(String command) {
        CommandLine cl = Main.commandLine(new String[0]);
        for (String word : command.split(" ")) {
            cl = cl.getSubcommands().get(word);
        }
        return cl.getCommandSpec();
    }

    /** Options that name where output goes: never hostile, always inside {@code dir}. */
    private static boolean writes(OptionSpec o) {
        return Set.of("--out", "-o", "--csv", "--json-out").contains(o.longestName());
    }

    @TempDir
    Path dir;

    @Test
    void everyOptionOfEveryQuickCommandEndsInAResultOrABadInputMessage() throws IOException {
        Map<String, List<String>> bases = bases(dir);
        List<String> commands = new ArrayList<>(bases.keySet());
        Random random = new Random(20261127);
        int[] byCode = new int[4];
        for (int i = 0; i < TRIES; i++) {
            String command = commands.get(random.nextInt(commands.size()));
            List<OptionSpec> options = options(command);
            List<String> args = new ArrayList<>(List.of(command.split(" ")));
            args.addAll(bases.get(command));
            int picked = options.isEmpty() ? 0 : 1 + random.nextInt(2);
            for (int k = 0; k < picked; k++) {
                OptionSpec o = options.get(random.nextInt(options.size()));
                args.add(o.longestName());
                if (o.arity().max() > 0) {
                    args.add(writes(o) ? dir.resolve("out" + i).toString() : HOSTILE.get(random.nextInt(HOSTILE.size())));
                }
            }
            if (command.equals("run") || command.equals("size") || command.equals("sweep") || command.equals("merge")) {
                if (!args.contains("--out") && !args.contains("-o")) {
                    args.addAll(List.of("--out", dir.resolve("out" + i).toString()));
                }
            }
            CliTestSupport.Outcome o = CliTestSupport.run(args.toArray(new String[0]));
            String shown = String.join(" ", args).replace("\u0000", "\\0");
            if (o.code() < 0 || o.code() > 2) {
                fail("exit " + o.code() + " for: " + shown + "\n" + o.err());
            }
            assertFalse(o.err().contains("\tat ") || o.out().contains("\tat "), "a stack trace for: " + shown);
            if (o.code() == 2) {
                assertTrue(o.err().startsWith("rdmasim: "), "a message, not silence, for: " + shown + "\n" + o.err());
            }
            byCode[o.code()]++;
        }
        System.out.printf("CliOptionFuzzTest: %d command lines: %d ok, %d variant failed, %d bad input%n", TRIES,
                byCode[0], byCode[1], byCode[2]);
        assertTrue(byCode[0] > 0 && byCode[2] > 0, "the fuzz reaches both results and refusals");
    }
}
