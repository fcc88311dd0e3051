package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Slips a researcher makes with {@code validate --scenarios}: a folder that is not a copy of rdmasim's scenarios
 * (a scenario's own folder), or a copy with a misspelt field or a renamed variant. Each stops with exit 2 at the
 * file, never as rows of ERROR that read as the model's verdict and exit 1 as a failed validation does.
 */
class ValidateScenariosSlipsTest {
    @TempDir
    Path dir;

    private static final String PINNED = RunTableCalibratedLegendTest.PINNED;

    @Test
    void validateAgainstAFolderLackingTheRowsFilesIsBadInput() throws IOException {
        Files.writeString(dir.resolve("s.yaml"), PINNED);
        var o = CliTestSupport.run("validate", "-q", "--scenarios", dir.toString(), "--row", "MX-449-PIN",
                "--row", "MX-450-STRIPE-BW");
        assertEquals(2, o.code(), o.out() + o.err());
        assertTrue(o.err().contains("holds no seed003-nic-pin-vs-stripe.yaml (row MX-449-PIN), "
                + "validation/mx-450-gb200-stripe.yaml (row MX-450-STRIPE-BW)"), o.err());
        assertFalse(o.out().contains("ERROR"), o.out());
        assertFalse(o.err().contains("Exception") || o.err().contains("\tat "), o.err());
    }

    @Test
    void validateAgainstACopyWithAMisspeltFieldStopsAtItsLine() throws IOException {
        Path copy = dir.resolve("scenarios");
        Files.createDirectories(copy);
        String text = Files.readString(CliTestSupport.repo().resolve("scenarios/seed003-nic-pin-vs-stripe.yaml"));
        assertTrue(text.contains("\n  operation: read\n"));
        Files.writeString(copy.resolve("seed003-nic-pin-vs-stripe.yaml"),
                text.replace("\n  operation: read\n", "\n  operaton: read\n"));
        int line = 1 + (int) text.substring(0, text.indexOf("\n  operation: read\n") + 1).chars()
                .filter(c -> c == '\n').count();
        var o = CliTestSupport.run("validate", "-q", "--scenarios", copy.toString(), "--row", "MX-449-PIN");
        assertEquals(2, o.code(), o.out() + o.err());
        assertTrue(o.err().contains("seed003-nic-pin-vs-stripe.yaml:" + line + ":3: transport.operaton: unknown field "
                + "'operaton' (did you mean 'operation'?)"), o.err());
        assertFalse(o.out().contains("ERROR"), o.out());
        assertFalse(o.err().contains("Exception") || o.err().contains("\tat "), o.err());
    }

    @Test
    void validateAgainstACopyLackingTheRowsVariantNamesIt() throws IOException {
        Path copy = dir.resolve("scenarios");
        Files.createDirectories(copy);
        String text = Files.readString(CliTestSupport.repo().resolve("scenarios/seed003-nic-pin-vs-stripe.yaml"));
        Files.writeString(copy.resolve("seed003-nic-pin-vs-stripe.yaml"),
                text.replace("- name: gb200-mx-pin-auto\n", "- name: gb200-mx-pinned\n"));
        var o = CliTestSupport.run("validate", "-q", "--scenarios", copy.toString(), "--row", "MX-449-PIN");
        assertEquals(2, o.code(), o.out() + o.err());
        assertTrue(o.err().contains("seed003-nic-pin-vs-stripe.yaml: no variant 'gb200-mx-pin-auto', which a validation "
                + "row reads"), o.err());
        assertFalse(o.err().contains("Exception") || o.err().contains("\tat "), o.err());
    }

    @Test
    void rowIdsSeparatedByCommasAreEachARow() {
        // "--row A,B" was refused as "no validation row A,B" (exit 2): no row id holds a comma
        var o = CliTestSupport.run("validate", "-q", "--scenarios", CliTestSupport.repo().resolve("scenarios").toString(),
                "--row", "MX-449-PIN,MX-449-T1");
        assertEquals(0, o.code(), o.out() + o.err());
        assertTrue(o.out().contains("MX-449-PIN: single-NIC pull"), o.out());
        assertTrue(o.out().contains("\nMX-449-T1: "), o.out());
        assertTrue(ValidationCatalogIds.noneHoldsAComma(), "a row id holds a comma: --row cannot split on it");
    }

    @Test
    void theReportIsNotWrittenAmongTheRowsScenarioFilesEvenWithForce() throws IOException {
        Path copy = dir.resolve("scenarios");
        Files.createDirectories(copy.resolve("validation"));
        Files.copy(CliTestSupport.repo().resolve("scenarios/validation/mx-450-gb200-stripe.yaml"),
                copy.resolve("validation/mx-450-gb200-stripe.yaml"));
        var o = CliTestSupport.run("validate", "-q", "--scenarios", copy.toString(), "--row", "MX-450-STRIPE-BW",
                "--out", copy.resolve("validation").toString(), "--force");
        assertEquals(2, o.code(), o.out() + o.err());
        assertTrue(o.err().contains("it holds the input"), o.err());
        assertTrue(o.err().contains("mx-450-gb200-stripe.yaml"), o.err());
        assertFalse(Files.exists(copy.resolve("validation/index.html")));
        assertFalse(Files.exists(copy.resolve("validation/validation.json")));
    }

    /** Every catalogue id, checked for the comma --row splits on. */
    static final class ValidationCatalogIds {
        static boolean noneHoldsAComma() {
            return org.rdmasim.validation.ValidationCatalog.rows().stream().noneMatch(r -> r.id().contains(","));
        }
    }
}
