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

    @Test
    void benchModelSizeIsDecimalGigabytesBareAndAnySizeWithAUnit() {
        BenchCommand.DecimalGigabytes gb = new BenchCommand.DecimalGigabytes();
        assertEquals(16.0, gb.convert("16"), 0);
        assertEquals(16.0, gb.convert("16GB"), 1e-12);
        assertEquals(15 * 1.073741824, gb.convert("15 GiB"), 1e-12);
        assertTrue(CliTestSupport.run("bench", "--model-gb", "16 parsecs").err().contains("unknown size unit 'parsecs'"));
    }
}
