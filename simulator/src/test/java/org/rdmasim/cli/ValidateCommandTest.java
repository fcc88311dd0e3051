package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The exit contract of {@code validate}: strict by default, a regression check for CI, 2 on bad input. */
class ValidateCommandTest {
    @TempDir
    Path out;

    private String scenarios() {
        return CliTestSupport.repo().resolve("scenarios").toString();
    }

    @Test
    void aKnownFailureFailsTheBareRunAndIsNamed() {
        // CRUSOE-HCA-AUTO (Crusoe's "up to 75%" against the modelled 87.5% on one HCA per GPU) is a known failure
        var r = CliTestSupport.run("validate", "--scenarios", scenarios(), "--out", out.toString(), "--row",
                "CRUSOE-HCA-AUTO", "--row", "MTT-LOG-NUM");
        assertEquals(1, r.code(), r.out());
        assertTrue(r.out().contains("0 of 1 counted measurements pass"), r.out());
        assertTrue(r.out().contains("1 of 1 configuration rows pass"), r.out());
        assertTrue(r.out().contains("known failures (the model does not reproduce these figures; each row says why): "
                + "CRUSOE-HCA-AUTO"),
                r.out());
    }

    @Test
    void theRegressionCheckAcceptsKnownFailuresOnly() {
        var r = CliTestSupport.run("validate", "--no-regression", "--scenarios", scenarios(), "--out", out.toString(),
                "--row", "CRUSOE-HCA-AUTO", "--row", "MTT-LOG-NUM");
        assertEquals(0, r.code(), r.out());
    }

    @Test
    void passingRowsExitZeroAndAnUnknownRowIsBadInput() {
        assertEquals(0, CliTestSupport.run("validate", "--scenarios", scenarios(), "--out", out.toString(), "--row",
                "MTT-LOG-NUM", "--row", "NCCL-2064-POOL").code());
        var bad = CliTestSupport.run("validate", "--scenarios", scenarios(), "--out", out.toString(), "--row", "S99");
        assertEquals(2, bad.code());
        assertTrue(bad.err().contains("no validation row S99"), bad.err());
    }

    @Test
    void aDoubledCommaBetweenIdsIsASeparatorAndLongIdsKeepTheColumnsInLine() {
        // 'A,,B' read as three ids, the middle one '' refused as "no validation row  (217 rows ...)"
        var r = CliTestSupport.run("validate", "-q", "--scenarios", scenarios(), "--row",
                "MX-449-PIN,,MX-450-STRIPE-COLD-PULL,");
        assertEquals(1, r.code(), r.err());
        // MX-450-STRIPE-COLD-PULL is 23 characters: the published figure starts in the header's column
        java.util.List<String> lines = r.out().lines().toList();
        String header = lines.stream().filter(l -> l.startsWith("row ")).findFirst().orElseThrow();
        String longRow = lines.stream().filter(l -> l.startsWith("MX-450-STRIPE-COLD-PULL ")).findFirst().orElseThrow();
        String shortRow = lines.stream().filter(l -> l.startsWith("MX-449-PIN ")).findFirst().orElseThrow();
        int column = header.indexOf("published");
        assertEquals("0.172", longRow.substring(column, column + 5), longRow);
        assertEquals("308", shortRow.substring(column, column + 3), shortRow);
    }

    @Test
    void aUsersOwnIndexPageIsNotTakenForAnEarlierReport() throws java.io.IOException {
        // a folder with no manifest holding only an index.html of the user's: validate took it for a report of its
        // own from before manifests and replaced it (exit 0)
        java.nio.file.Files.writeString(out.resolve("index.html"), "my page\n");
        var r = CliTestSupport.run("validate", "-q", "--scenarios", scenarios(), "--out", out.toString(), "--row",
                "MX-449-PIN");
        assertEquals(2, r.code(), r.out());
        assertTrue(r.err().contains("holds index.html that rdmasim did not write"), r.err());
        assertEquals("my page\n", java.nio.file.Files.readString(out.resolve("index.html")));
        // both files of a report from before manifests are still its own, and replaced
        java.nio.file.Files.writeString(out.resolve("validation.json"), "{}\n");
        var old = CliTestSupport.run("validate", "-q", "--scenarios", scenarios(), "--out", out.toString(), "--row",
                "MX-449-PIN");
        assertEquals(0, old.code(), old.err());
        assertTrue(java.nio.file.Files.readString(out.resolve("index.html")).startsWith("<!DOCTYPE html>"));
    }

    @Test
    void aScenarioFileGivenForTheFolderIsSaidToBeAFile() {
        String file = CliTestSupport.repo().resolve("scenarios/seed003-nic-pin-vs-stripe.yaml").toString();
        var r = CliTestSupport.run("validate", "-q", "--scenarios", file, "--row", "MX-449-PIN");
        assertEquals(2, r.code(), r.out());
        assertTrue(r.err().contains("is a file, not a folder"), r.err());
    }

    @Test
    void aRowOptionHoldingNoIdIsBadInputNotTheWholeTable() {
        // '--row ,' split into no id and ran all 217 rows (minutes) and replaced the default report with them
        for (String ids : new String[] {",", "", ",,"}) {
            var r = CliTestSupport.run("validate", "--scenarios", scenarios(), "--out", out.toString(), "--row", ids);
            assertEquals(2, r.code(), "[" + ids + "] " + r.err());
            assertTrue(r.err().startsWith("rdmasim: error: --row: no row id given"), r.err());
            assertEquals("", r.out());
            assertTrue(!java.nio.file.Files.exists(out.resolve("validation.json")), "no report written");
        }
    }

    @Test
    void aRowLookWithoutOutLeavesTheDefaultReportAlone() throws java.io.IOException {
        // the default folder holds the whole table's report: a look at one row must not replace it with a one-row report
        Path home = out.resolve("home");
        Path report = home.resolve("reports/validation");
        java.nio.file.Files.createDirectories(report);
        java.nio.file.Files.writeString(report.resolve("validation.json"), "the full table");
        String before = System.getProperty("rdmasim.home");
        System.setProperty("rdmasim.home", home.toString());
        try {
            var r = CliTestSupport.run("validate", "-q", "--scenarios", scenarios(), "--row", "MTT-LOG-NUM");
            assertEquals(0, r.code(), r.out() + r.err());
            assertTrue(r.out().contains("no report written: --row writes one only with --out DIR"), r.out());
        } finally {
            if (before == null) {
                System.clearProperty("rdmasim.home");
            } else {
                System.setProperty("rdmasim.home", before);
            }
        }
        assertEquals("the full table", java.nio.file.Files.readString(report.resolve("validation.json")));
        try (var files = java.nio.file.Files.list(report)) {
            assertEquals(1, files.count(), "nothing else was written beside it");
        }
    }

    @Test
    void aLongValidationSaysWhichRowRunsOnStderrAndQuietSaysNothing() throws java.io.IOException {
        // CKPT-DSV31-16H20 simulates a 16-host checkpoint-engine refit (about a second): with the quiet start
        // (a second for users) taken away and a line every 20 ms, the row is named many times over
        long quietStart = Progress.quietStartMillis;
        long period = Progress.plainPeriodMillis;
        CliTestSupport.Outcome r;
        try {
            Progress.quietStartMillis = 0;
            Progress.plainPeriodMillis = 20;
            r = CliTestSupport.run("validate", "--json", "--scenarios", scenarios(), "--out", out.toString(), "--row",
                    "CKPT-DSV31-16H20");
        } finally {
            Progress.quietStartMillis = quietStart;
            Progress.plainPeriodMillis = period;
        }
        assertTrue(r.err().contains("validating row 1 of 1: CKPT-DSV31-16H20"), r.err());
        // stdout is the report's validation.json, byte for byte
        assertEquals(java.nio.file.Files.readString(out.resolve("validation.json")), r.out());
        var quiet = CliTestSupport.run("validate", "--quiet", "--scenarios", scenarios(), "--out",
                out.resolve("q").toString(), "--row", "MTT-LOG-NUM");
        assertEquals(0, quiet.code(), quiet.err());
        assertEquals("", quiet.err());
    }
    /**
     * A researcher checking ModelExpress's 308 Gbps pull asks for its row and PR #450's striped one: each is
     * printed under the table with its setup and assumptions, its scenario, what it rests on, and the answer
     * under the other UCX install (the calibration row: what held it).
     */
    @Test
    void rowsAskedForAreEachPrintedWithTheirSetupAndTheOtherInstall() {
        var r = CliTestSupport.run("validate", "-q", "--scenarios", scenarios(), "--out", out.toString(), "--row",
                "MX-449-PIN", "--row", "MX-450-STRIPE-BW");
        assertEquals(0, r.code(), r.out());
        String o = r.out();
        assertTrue(o.contains("\nMX-449-PIN: single-NIC pull, MX_RDMA_NIC_PIN=auto\n"), o);
        assertTrue(o.contains("  scenario:  seed003-nic-pin-vs-stripe.yaml#gb200-mx-pin-auto\n"), o);
        assertTrue(o.contains("  rests on:  gb200-roce.nicReadRate"), o);
        assertTrue(o.contains("  note:      receiver:mlx5_0 READ, calibrated to gb200-roce (ai-dynamo/modelexpress #449)\n"), o);
        assertTrue(o.contains("\nMX-450-STRIPE-BW: bandwidth, 4 NICs listed, UCX_MAX_RMA_RAILS=4"), o);
        assertTrue(o.contains("  setup:     GB200 pod on GKE, 4 x CX-7 400G RoCE, one receiver pulling Qwen3-4B"), o);
        assertTrue(o.contains("not stated: NIXL and UCX releases, UCX install"), o);
        assertTrue(o.contains("had UCX read its ucx.conf (installed into a prefix): 1232 Gbps"), o);
        // the details come after the table, before the tally
        assertTrue(o.indexOf("MX-450-STRIPE-BW       622") < o.indexOf("\nMX-449-PIN: ")
                && o.indexOf("\nMX-450-STRIPE-BW: ") < o.indexOf("2 rows: "), o);
    }
}
