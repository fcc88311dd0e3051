package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.rdmasim.hardware.QuantityText;
import picocli.CommandLine;

/**
 * Durations and sizes given as options are read as a scenario reads them (README: "a scenario and a
 * command option read it with the same parser"): "0.5s", "500ms" and "0.5 s" are one value, and a bare
 * number keeps the meaning the option always had.
 */
class DurationOptionTest {
    private static SizeCommand sized(String option, String value) {
        SizeCommand c = new SizeCommand();
        new CommandLine(c).parseArgs("x.yaml", "--vary", "nics", option, value);
        return c;
    }

    @Test
    void aTargetTakesTheUnitsAScenarioDurationTakes() {
        for (String written : new String[] {"0.5s", "500ms", "0.5 s", "500000 us", "0.5"}) {
            assertEquals(QuantityText.seconds("0.5 s"), sized("--target-refit", written).targetRefit, 1e-15, written);
            assertEquals(0.5, sized("--target-p99", written).targetP99, 1e-15, written);
        }
    }

    @Test
    void aDurationWithAnUnknownUnitIsRefusedNamingTheOptionAndTheUnits() {
        CliTestSupport.Outcome o = CliTestSupport.run("size", "x.yaml", "--vary", "nics", "--target-refit", "2 min");
        assertEquals(Main.BAD_INPUT, o.code());
        assertTrue(o.err().contains("--target-refit") && o.err().contains("unknown time unit 'min'"), o.err());
        CliTestSupport.Outcome negative = CliTestSupport.run("size", "x.yaml", "--vary", "nics", "--target-p99", "-1s");
        assertEquals(Main.BAD_INPUT, negative.code());
        assertTrue(negative.err().contains("must not be negative"), negative.err());
    }

    /**
     * A refit target written as a size (QA: {@code --target-refit 0.5 GiB}) is refused with one line naming the option,
     * the value, the unit it takes and an example, the example being the one {@code size --help} gives; exit 2, no
     * trace. Written as one word, quoted or split by the shell, the line is the same; a size option given a time says
     * the converse.
     */
    @Test
    void aValueInAnotherQuantitysUnitNamesTheOptionTheValueTheUnitAndAnExample() {
        String help = CliTestSupport.run("size", "--help").out().replaceAll("\\s+", " ");
        assertTrue(help.contains("--target-refit=DURATION refit: time per refit cycle to meet, e.g. 0.5s"), help);
        String[][] written = {{"--target-refit", "0.5", "GiB"}, {"--target-refit", "0.5GiB"}, {"--target-refit", "0.5 GiB"}};
        for (String[] w : written) {
            java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("size", "x.yaml", "--vary", "nics"));
            args.addAll(java.util.List.of(w));
            CliTestSupport.Outcome o = CliTestSupport.run(args.toArray(String[]::new));
            assertEquals(Main.BAD_INPUT, o.code(), o.err());
            String value = w.length == 3 ? "0.5 GiB" : w[1];
            assertEquals("rdmasim: --target-refit takes a duration (s, ms, us or ns; a bare number is seconds), got '"
                    + value + "', a size: write e.g. --target-refit 0.5s\nrdmasim: see 'rdmasim size --help'\n",
                    o.err().replace("\r", ""));
            assertEquals("", o.out());
        }
        // the fan-out's target takes its own example from its own help
        CliTestSupport.Outcome p99 = CliTestSupport.run("size", "x.yaml", "--vary", "nics", "--target-p99", "2", "MB");
        assertEquals(Main.BAD_INPUT, p99.code());
        assertTrue(p99.err().contains("got '2 MB', a size: write e.g. --target-p99 2s"), p99.err());
        // and a size option given a time, its bare number refused before the unit is seen
        CliTestSupport.Outcome mem = CliTestSupport.run("memory", "mtt", "--memory", "64", "ms");
        assertEquals(Main.BAD_INPUT, mem.code());
        assertTrue(mem.err().startsWith("rdmasim: --memory takes a size (B, kB, MB, GB, TB, PB, KiB, MiB, GiB, TiB, PiB; a bare "
                + "number is bytes), got '64 ms', a duration: write e.g. --memory 64GiB"), mem.err());
    }

    @Test
    void benchModelSizeIsDecimalGigabytesBareAndAnySizeWithAUnit() {
        BenchCommand.DecimalGigabytes gb = new BenchCommand.DecimalGigabytes();
        assertEquals(16.0, gb.convert("16"), 0);
        assertEquals(16.0, gb.convert("16GB"), 1e-12);
        assertEquals(15 * 1.073741824, gb.convert("15 GiB"), 1e-12);
        assertTrue(CliTestSupport.run("bench", "--model-gb", "16 parsecs").err().contains("unknown size unit 'parsecs'"));
        // a size in bits is told what it reads as, and what to write
        String bits = CliTestSupport.run("bench", "--model-gb", "16 Gb").err();
        assertTrue(bits.contains("unknown size unit 'Gb'") && bits.contains("'Gb' reads as bits, and a size is in bytes: "
                + "write GB (8 Gb = 1 GB)"), bits);
    }
}
