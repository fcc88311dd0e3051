package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.rdmasim.scenario.RepositoryHome;

/** What a new user's slips get back: the version from any command, and the nearest right word. */
@ExtendWith(RepositoryHome.class)
class CliHintsTest {
    @TempDir
    Path dir;

    @Test
    void everyCommandPrintsTheVersion() {
        for (String[] args : new String[][] {{"run", "-V"}, {"explain", "--version"}, {"memory", "register", "-V"}}) {
            CliTestSupport.Outcome o = CliTestSupport.run(args);
            assertEquals(0, o.code(), String.join(" ", args));
            assertTrue(o.out().startsWith("rdmasim "), String.join(" ", args) + ": " + o.out());
        }
    }

    @Test
    void noCommandIsAUsageErrorNamingTheCommands() {
        CliTestSupport.Outcome o = CliTestSupport.run();
        assertEquals(2, o.code());
        assertEquals("", o.out(), "the usage is not a result: nothing on standard output");
        assertTrue(o.err().contains("missing a command: one of run, size"), o.err());
    }

    @Test
    void memoryWithoutItsCommandIsAUsageErrorNamingThem() {
        // before: 'rdmasim memory' printed its usage on standard output and exited 0
        CliTestSupport.Outcome o = CliTestSupport.run("memory");
        assertEquals(2, o.code(), o.err());
        assertEquals("", o.out(), "the usage is not a result: nothing on standard output");
        assertTrue(o.err().startsWith("rdmasim: missing a command: one of register, mtt, va"), o.err());
        CliTestSupport.Outcome bogus = CliTestSupport.run("memory", "bogus");
        assertEquals(2, bogus.code(), bogus.err());
        assertTrue(bogus.err().contains("rdmasim: commands: register, mtt, va"), bogus.err());
    }

    @Test
    void aLongerSpellingOfAnOptionIsPointedAtIt() {
        CliTestSupport.Outcome o = CliTestSupport.run("run", "--output", "x");
        assertEquals(2, o.code());
        assertTrue(o.err().contains("did you mean '--out'?"), o.err());
    }

    @Test
    void topoSuggestsTheNearestPreset() {
        CliTestSupport.Outcome o = CliTestSupport.run("topo", "dgx-h10");
        assertEquals(2, o.code());
        assertTrue(o.err().contains("(did you mean 'dgx-h100'?)"), o.err());
    }

    @Test
    void modelTakesAShippedModelsNameAndSuggestsTheNearest() {
        CliTestSupport.Outcome o = CliTestSupport.run("model", "qwen3-4b", "--json");
        assertEquals(0, o.code(), o.err());
        assertTrue(o.out().contains("\"parameters\" : 4022468096") || o.out().contains("\"parameters\":4022468096"),
                o.out());
        CliTestSupport.Outcome miss = CliTestSupport.run("model", "qwen3-4x");
        assertEquals(2, miss.code());
        assertTrue(miss.err().contains("(did you mean 'qwen3-4b'?)"), miss.err());
    }

    @Test
    void aMisspeltHostKindIsNamedAtItsLine() throws IOException {
        Path f = dir.resolve("t.yaml");
        Files.writeString(f, "name: t\nhosts:\n  sender: {prest: gb200-tray}\n");
        CliTestSupport.Outcome o = CliTestSupport.run("run", f.toString(), "--out", dir.resolve("o").toString());
        assertEquals(2, o.code());
        assertTrue(o.err().contains("t.yaml:3:"), o.err());
        assertTrue(o.err().contains("unknown field 'prest' (did you mean 'preset'?)"), o.err());
    }

    @Test
    void aFractionalCountDoesNotQuoteTheLongRange() throws IOException {
        Path f = dir.resolve("c.yaml");
        Files.writeString(f, "name: t\nhosts:\n  sender: {preset: gb200-tray, count: 1.5}\n");
        CliTestSupport.Outcome o = CliTestSupport.run("run", f.toString(), "--out", dir.resolve("o").toString());
        assertEquals(2, o.code());
        assertTrue(o.err().contains("expected a whole number, got '1.5'"), o.err());
        assertFalse(o.err().contains("9223372036854775807"), o.err());
    }

    /** A catalogue scenario copied out of scenarios/ keeps 'model: models/NAME.json': the error names the bare name. */
    @Test
    void aCopiedScenarioMissingItsModelsFolderIsToldTheShippedName() throws IOException {
        Path elsewhere = dir.resolve("copy");
        Files.createDirectories(elsewhere);
        Path f = elsewhere.resolve("refit-moe-methods.yaml");
        Files.copy(CliTestSupport.repo().resolve("scenarios/refit-moe-methods.yaml"), f);
        CliTestSupport.Outcome o = CliTestSupport.run("run", "-q", "--out", elsewhere.resolve("out").toString(),
                f.toString());
        assertEquals(2, o.code(), o.err());
        assertTrue(o.err().contains("refit-moe-methods.yaml:55:12: workload.refit.model: no such file")
                && o.err().contains("write model: qwen3-30b-a3b"), o.err());
    }
}
