package org.rdmasim.fuzz;

import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import org.junit.jupiter.api.Test;
import org.rdmasim.importers.ImportException;
import org.rdmasim.importers.ImportOptions;
import org.rdmasim.importers.env.EnvBlock;
import org.rdmasim.importers.nccl.NcclTopologyReader;
import org.rdmasim.importers.smi.SmiTopologyReader;
import org.rdmasim.run.RunChecks;
import org.rdmasim.scenario.Scenario;
import org.rdmasim.scenario.ScenarioException;
import org.rdmasim.scenario.ScenarioLoader;
import org.rdmasim.run.VariantRunner;
import org.rdmasim.scenario.VariantSpec;
import org.rdmasim.workload.VariantOutcome;

/**
 * Fuzzes every text input: the catalog's scenarios, NCCL topology XML, nvidia-smi matrices and env
 * blocks, each mutated structurally (a value replaced by a hostile one, lines dropped, repeated or
 * swapped) and byte by byte (characters flipped, the text cut short). Every input must end in a
 * result or in the input's own error (what the command line reports as exit 2), never in another
 * exception. Inputs come from jqwik generators; {@code -Drdmasim.fuzz.tries=N} sets how many per
 * kind (default 150, a few seconds in all). The time guard only catches a hang, it measures nothing.
 */
class HostileInputFuzzTest {
    private static final int TRIES = Integer.getInteger("rdmasim.fuzz.tries", 150);
    private static final Duration HANG = Duration.ofSeconds(20);

    /** Values a hostile or careless user writes where a number, size, name or reference belongs. */
    private static final List<String> HOSTILE = List.of("0", "-1", "-0", "0 GB", "0.5 B", "1e30 s", "1e400 Gbps", "NaN",
            ".inf", "-.inf", "9223372036854775808", "99999999999999999999 GB", "1e-320", "0x10", "..", ".", "''",
            "\"\"", "[]", "{}", "[[[[[[[[]]]]]]]]", "*x", "&x [1]", "!!python/object:os.system", "~", "null", "true",
            "x".repeat(150), "GPU99", "a:GPU-1", "r99999:GPU0", "mlx5_99:1", "\u0000", "\t", "é∞", "1 PB", "5 qubits",
            "{name: X, value: Y}", "[{name: UCX_MAX_RMA_RAILS, value: \"9999999999\"}]", "../../etc/passwd", "/etc/passwd",
            "2000000000", "-2147483649", "100001", "1000001", "1e6 s", "1000000.1 s", "1 ns", "0 Gbps", "1e-30 Gbps");

    /** Characters that change what YAML, XML or a shell line means. */
    private static final String FLIPS = "{}[]:&*!%#'\"\t\u0000- ,|>?@`<=/";

    private static final List<String> XML_VALUES = List.of("0", "-1", "1e26", "NaN", "", "0x", "99999999999",
            "ffffffff,".repeat(40) + "ff", "32.0 GT/s PCIe", "2.5 GT/s", "abc", "0-99999999", "0x030200", "0x020700",
            "0x068000", "999", "1.7976931348623157E309", "mlx5_0", "\u0000");

    private static final List<String> SMI_CELLS = List.of("X", "NV18", "NV0", "NV99999999999", "PIX", "PXB", "PHB",
            "NODE", "SYS", "", "GPU99", "NIC-1", "0-99999999", "N/A", "mlx5_0", "NIC0:", "\u001B[4m", "0,2-4", "9999999");

    private static final List<String> ENV_LINES = List.of("export UCX_NET_DEVICES=mlx5_0:1,mlx5_1:1",
            "UCX_MAX_RMA_RAILS=4", "export UCX_MAX_RMA_RAILS=99999999999", "export =x", "export X", "X=\"unterminated",
            "X='a'\"b\"", "X=$(rm -rf /)", "env:", "- name: UCX_TLS", "  value: rc,cuda_copy", "  valueFrom:",
            "    fieldRef: {fieldPath: metadata.name}", "---", "apiVersion: v1", "- name:", "- {name: A, value: B}",
            "export MX_RDMA_NIC_PIN=stripe", "UCX_RNDV_THRESH=inf", "UCX_RNDV_THRESH=-1", "NCCL_IB_HCA==mlx5_0:1,^mlx5_1");

    @Test
    void scenariosEndInAScenarioOrAScenarioError() throws IOException {
        List<Path> files = catalog();
        List<String> texts = texts(files);
        Arbitrary<Integer> which = Arbitraries.integers().between(0, files.size() - 1);
        drive(Combinators.combine(which, Arbitraries.longs()).as((i, seed) -> new Input(files.get(i).toString(),
                mutate(texts.get(i), new Random(seed), HOSTILE))), in -> {
            try {
                ScenarioLoader.parse(in.text(), in.label());
            } catch (ScenarioException | IllegalArgumentException expected) {
                // exit 2 on the command line
            }
        });
    }

    /**
     * Mutated small scenarios (at most 4 hosts, transfers only) are also run, one replication under
     * {@code --check}: each variant ends ok or failed with its reason, and an ok result conserves bytes.
     */
    @Test
    void smallScenariosRunToACheckedResult() throws IOException {
        List<Path> files = catalog();
        List<String> texts = texts(files);
        Arbitrary<Integer> which = Arbitraries.integers().between(0, files.size() - 1);
        Arbitrary<Input> inputs = Combinators.combine(which, Arbitraries.longs()).as((i, seed) -> new Input(
                files.get(i).toString(), mutate(texts.get(i), new Random(seed), HOSTILE)));
        drive(inputs.filter(in -> {
            try {
                Scenario sc = ScenarioLoader.parse(in.text(), in.label());
                // transfer lists only: a refit is no small scenario, whatever its host count (refit-moe-methods'
                // eight methods on 4 hosts), and since run --check verifies refits too it is slow to check
                return sc.variants().stream().allMatch(v -> !v.isFanout() && !v.isRefit() && v.hosts().size() <= 4
                        && v.transfers().size() <= 16);
            } catch (RuntimeException e) {
                return false;
            }
        }), Math.max(30, TRIES / 100), in -> {
            Scenario sc = ScenarioLoader.parse(in.text(), in.label());
            RunChecks.with(true, () -> {
                for (VariantSpec v : sc.variants().subList(0, Math.min(2, sc.variants().size()))) {
                    VariantOutcome o;
                    try {
                        o = VariantRunner.run(v, sc.seed(), 1, 1);
                    } catch (IllegalArgumentException expected) {
                        continue; // exit 2 on the command line
                    }
                    if (o.result() != null && !RunChecks.violations(o.result()).isEmpty()) {
                        fail(v.name() + ": " + RunChecks.violations(o.result()));
                    }
                }
                return null;
            });
        });
    }

    @Test
    void ncclTopologiesEndInAHostOrAnImportError() throws IOException {
        List<String> texts = resources(".xml");
        drive(Combinators.combine(Arbitraries.integers().between(0, texts.size() - 1), Arbitraries.longs())
                .as((i, seed) -> new Input("fuzz.xml", mutate(texts.get(i), new Random(seed), XML_VALUES))), in -> {
            try {
                NcclTopologyReader.read(in.text(), in.label(), ImportOptions.defaults());
            } catch (ImportException expected) {
                // the scenario reader and the topo command report it as exit 2
            }
        });
    }

    @Test
    void nvidiaSmiMatricesEndInAHostOrAnImportError() throws IOException {
        List<String> texts = resources(".txt");
        texts.add(Files.readString(repo().resolve("scenarios/hosts/h100-topo.txt")));
        drive(Combinators.combine(Arbitraries.integers().between(0, texts.size() - 1), Arbitraries.longs())
                .as((i, seed) -> new Input("fuzz.txt", mutateCells(texts.get(i), new Random(seed)))), in -> {
            try {
                SmiTopologyReader.read(in.text(), in.label(), ImportOptions.defaults());
            } catch (ImportException expected) {
                // reported as exit 2
            }
        });
    }

    @Test
    void envBlocksEndInEntriesOrAnEnvError() {
        Arbitrary<String> block = Arbitraries.of(ENV_LINES).list().ofMinSize(0).ofMaxSize(12).map(l -> String.join("\n", l));
        drive(Combinators.combine(block, Arbitraries.longs()).as((b, seed) -> new Input("fuzz.env",
                mutate(b, new Random(seed), ENV_LINES))), in -> {
            try {
                EnvBlock.parse(in.text(), in.label());
            } catch (ImportException expected) {
                // reported as exit 2
            }
        });
    }

    private record Input(String label, String text) {
    }

    private interface Check {
        void accept(Input in) throws Exception;
    }

    private static void drive(Arbitrary<Input> inputs, Check check) {
        drive(inputs, TRIES, check);
    }

    private static void drive(Arbitrary<Input> inputs, int tries, Check check) {
        inputs.sampleStream().limit(tries).forEach(in -> {
            try {
                assertTimeoutPreemptively(HANG, () -> check.accept(in));
            } catch (Throwable t) {
                if (t instanceof org.opentest4j.AssertionFailedError a && a.getMessage() != null
                        && a.getMessage().startsWith("execution timed out")) {
                    fail("hang on input " + in.label() + ":\n" + abbreviated(in.text()), t);
                }
                fail("unexpected " + t + " on input " + in.label() + ":\n" + abbreviated(in.text()), t);
            }
        });
    }

    /** One to four structural or byte-level mutations of {@code text}. */
    static String mutate(String text, Random r, List<String> values) {
        List<String> lines = new ArrayList<>(List.of(text.split("\n", -1)));
        int n = 1 + r.nextInt(4);
        for (int k = 0; k < n && !lines.isEmpty(); k++) {
            int i = r.nextInt(lines.size());
            String line = lines.get(i);
            switch (r.nextInt(8)) {
                case 0, 1 -> lines.set(i, replaceValue(line, r, values));
                case 2 -> lines.remove(i);
                case 3 -> lines.add(i, line);
                case 4 -> {
                    int j = r.nextInt(lines.size());
                    lines.set(i, lines.get(j));
                    lines.set(j, line);
                }
                case 5 -> {
                    if (!line.isEmpty()) {
                        char[] c = line.toCharArray();
                        c[r.nextInt(c.length)] = FLIPS.charAt(r.nextInt(FLIPS.length()));
                        lines.set(i, new String(c));
                    }
                }
                case 6 -> lines.set(i, line.substring(0, r.nextInt(line.length() + 1)));
                default -> lines.add(i, values.get(r.nextInt(values.size())));
            }
        }
        return String.join("\n", lines);
    }

    /** Replaces the value after a "key:" or inside an XML attribute's quotes. */
    private static String replaceValue(String line, Random r, List<String> values) {
        String v = values.get(r.nextInt(values.size()));
        int q = line.indexOf("=\"");
        if (q >= 0 && r.nextBoolean()) {
            int end = line.indexOf('"', q + 2);
            return end < 0 ? line : line.substring(0, q + 2) + v.replace("\"", "&quot;") + line.substring(end);
        }
        int c = line.indexOf(": ");
        return c < 0 ? line + " " + v : line.substring(0, c + 2) + v;
    }

    /** nvidia-smi text: a cell replaced, or a line mutated as any text. */
    private static String mutateCells(String text, Random r) {
        if (r.nextBoolean()) {
            return mutate(text, r, SMI_CELLS);
        }
        List<String> lines = new ArrayList<>(List.of(text.split("\n", -1)));
        for (int k = 0; k < 1 + r.nextInt(3); k++) {
            int i = r.nextInt(lines.size());
            String[] cells = lines.get(i).split("\t", -1);
            cells[r.nextInt(cells.length)] = SMI_CELLS.get(r.nextInt(SMI_CELLS.size()));
            lines.set(i, String.join("\t", cells));
        }
        return String.join("\n", lines);
    }

    private static String abbreviated(String s) {
        return s.length() <= 4000 ? s : s.substring(0, 4000) + "\n...";
    }

    private static Path repo() {
        return Path.of(System.getProperty("rdmasim.repo", ".."));
    }

    private static List<Path> catalog() throws IOException {
        try (Stream<Path> s = Files.list(repo().resolve("scenarios"))) {
            return s.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
        }
    }

    private static List<String> texts(List<Path> files) throws IOException {
        List<String> out = new ArrayList<>();
        for (Path f : files) {
            out.add(Files.readString(f));
        }
        return out;
    }

    private static List<String> resources(String suffix) throws IOException {
        List<String> out = new ArrayList<>();
        try (Stream<Path> s = Files.list(repo().resolve("simulator/src/test/resources/importers"))) {
            for (Path p : s.filter(p -> p.toString().endsWith(suffix)).sorted().toList()) {
                out.add(Files.readString(p));
            }
        }
        return out;
    }
}
