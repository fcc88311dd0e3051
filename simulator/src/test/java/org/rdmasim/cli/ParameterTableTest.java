package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import org.rdmasim.scenario.Parameter;
import org.rdmasim.scenario.Parameters;

/**
 * Every declared parameter with a command-line option reads from a scenario and from that option alike, and refuses an
 * out-of-range or malformed value with exit 2: at the YAML value's file:line, or naming the option.
 */
class ParameterTableTest {
    /** A good and a bad value of each declared parameter; a parameter missing here fails the test. */
    static final Map<String, List<String>> SAMPLES = Map.of(
            "registration.pageSize", List.of("64 KiB", "8 KiB"),
            "registration.firmwarePageCap", List.of("8 GiB", "100 B"),
            "registration.capScope", List.of("vf", "planet"),
            "registration.hostMemory", List.of("2 TiB", "1 B"));

    @TempDir
    Path dir;

    private CliTestSupport.Outcome scenario(Parameter<?> p, String value) throws Exception {
        Path f = dir.resolve("p.yaml");
        String extra = p == Parameters.CAP_SCOPE ? "  firmwarePageCap: 64 GiB\n" : "";
        Files.writeString(f, """
                name: parameter
                hosts:
                  a: {preset: dgx-h100}
                  b: {preset: dgx-h100}
                registration:
                %s  %s: %s
                workload:
                  transfers:
                    - {from: "a:GPU0", to: "b:GPU0", size: 1 GB}
                variants:
                  - name: v
                """.formatted(extra, p.key(), value));
        return CliTestSupport.run("run", f.toString(), "--out", dir.resolve("out" + System.nanoTime()).toString(), "-q");
    }

    private static CliTestSupport.Outcome option(Parameter<?> p, String value) {
        List<String> args = new ArrayList<>(List.of("memory", "register", "--host", "dgx-h100", "--buffer", "1GiB",
                p.option(), value.replace(" ", "")));
        if (p == Parameters.CAP_SCOPE) {
            args.addAll(List.of("--fw-page-cap", "64GiB"));
        }
        return CliTestSupport.run(args.toArray(new String[0]));
    }

    @Test
    void everyDeclaredParameterReadsFromYamlAndTheCommandLineAndRefusesBadValuesWhereTheyWereWritten()
            throws Exception {
        for (Parameter<?> p : Parameters.all()) {
            if (!p.hasOption()) {
                continue; // a scenario-only parameter: DeclaredRangesTest reads it from YAML
            }
            List<String> sample = SAMPLES.get(p.field());
            assertTrue(sample != null, p.field() + " is declared but has no sample in this test");
            assertTrue(!p.source().isBlank() && !p.unit().isBlank() && !p.defaultText().isBlank(), p.field());
            assertEquals(0, scenario(p, sample.get(0)).code(), p.field() + ": " + sample.get(0));
            assertEquals(0, option(p, sample.get(0)).code(), p.option() + " " + sample.get(0));
            var bad = scenario(p, sample.get(1));
            assertEquals(2, bad.code(), p.field() + ": " + sample.get(1));
            int line = p == Parameters.CAP_SCOPE ? 7 : 6;
            assertTrue(bad.err().contains("p.yaml:" + line + ":"), p.field() + " placed at its line: " + bad.err());
            var badOption = option(p, sample.get(1));
            assertEquals(2, badOption.code(), p.option() + " " + sample.get(1));
            assertTrue(badOption.err().contains(p.option()), p.option() + " named: " + badOption.err());
            assertTrue(!badOption.err().contains("\tat "), "no stack trace");
        }
    }

    /**
     * An option's own default (picocli's {@code defaultValue}, a constant it needs at compile time) is the
     * parameter's declared default: {@code memory register} without the option runs as a scenario without the field.
     */
    @Test
    void anOptionsDefaultReadsToTheParametersDeclaredDefault() {
        CommandLine.Model.CommandSpec spec = new CommandLine(new MemoryRegisterCommand()).getCommandSpec();
        int checked = 0;
        for (Parameter<?> p : Parameters.all()) {
            if (!p.hasOption()) {
                continue;
            }
            String given = spec.findOption(p.option()).defaultValue();
            if (given == null) {
                assertEquals(null, p.defaultValue(), p.option() + " has no default, " + p.field() + " has one");
            } else {
                assertEquals(p.defaultValue(), p.read(given), p.option() + " defaults to '" + given + "'");
                checked++;
            }
        }
        assertEquals(2, checked, "--page-size and --fw-cap-scope carry a default of their own");
    }
}
