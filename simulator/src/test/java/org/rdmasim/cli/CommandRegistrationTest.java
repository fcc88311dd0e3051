package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** A command named first is registered alone; the commands a user sees and their options stay the same. */
class CommandRegistrationTest {
    private static List<String> allNames() {
        return new ArrayList<>(Main.commandLine(new String[0]).getSubcommands().keySet());
    }

    @Test
    void rdmasimHelpListsEveryCommandWithHelpLast() {
        List<String> names = allNames();
        assertEquals(List.of("run", "size", "sweep", "merge", "explain", "validate", "compare", "topo", "demo",
                "bench", "memory", "parameters", "model", "help"), names);
        CliTestSupport.Outcome o = CliTestSupport.run("--help");
        assertEquals(0, o.code());
        for (String n : names) {
            assertTrue(o.out().contains("  " + n + " "), n + " missing from the usage:\n" + o.out());
        }
    }

    @Test
    void aNamedCommandIsRegisteredAloneWithTheSameOptionsAndSubcommands() {
        for (String name : allNames()) {
            if (name.equals("help")) {
                continue;
            }
            CommandLine alone = Main.commandLine(new String[] {name, "--help"});
            assertEquals(List.of(name), new ArrayList<>(alone.getSubcommands().keySet()));
            CommandLine.Model.CommandSpec lone = alone.getSubcommands().get(name).getCommandSpec();
            CommandLine.Model.CommandSpec full = Main.commandLine(new String[0]).getSubcommands().get(name).getCommandSpec();
            assertEquals(full.options().stream().map(CommandLine.Model.OptionSpec::longestName).toList(),
                    lone.options().stream().map(CommandLine.Model.OptionSpec::longestName).toList(), name);
            assertEquals(full.subcommands().keySet(), lone.subcommands().keySet(), name);
            assertEquals(full.qualifiedName(), lone.qualifiedName(), name);
        }
    }

    @Test
    void aMisspeltCommandIsStillRefusedWithEveryCommandListed() {
        CliTestSupport.Outcome o = CliTestSupport.run("vlaidate", "x.yaml");
        assertEquals(Main.BAD_INPUT, o.code());
        assertTrue(o.err().contains("vlaidate"), o.err());
        assertTrue(o.err().contains("did you mean 'validate'?"), "every command is a candidate:\n" + o.err());
        CliTestSupport.Outcome far = CliTestSupport.run("frobnicate", "x.yaml");
        assertTrue(far.err().contains("commands: run, size,") && far.err().contains("model"), far.err());
    }

    @Test
    void aCommandMissingALetterIsNamed() {
        CliTestSupport.Outcome o = CliTestSupport.run("rn", "x.yaml");
        assertEquals(Main.BAD_INPUT, o.code());
        assertTrue(o.err().contains("did you mean 'run'?"), o.err());
        CliTestSupport.Outcome swapped = CliTestSupport.run("szie", "x.yaml");
        assertTrue(swapped.err().contains("did you mean 'size'?"), swapped.err());
        CliTestSupport.Outcome far = CliTestSupport.run("frobnicate");
        assertEquals(Main.BAD_INPUT, far.code());
        assertTrue(!far.err().contains("did you mean"), "nothing is near 'frobnicate':\n" + far.err());
    }

    @Test
    void aMisspeltOptionIsNamed() {
        CliTestSupport.Outcome o = CliTestSupport.run("validate", "--qiet");
        assertEquals(Main.BAD_INPUT, o.code());
        assertTrue(o.err().contains("did you mean '--quiet'?"), o.err());
        CliTestSupport.Outcome far = CliTestSupport.run("validate", "--frobnicate-everything");
        assertEquals(Main.BAD_INPUT, far.code());
        assertTrue(!far.err().contains("did you mean"), far.err());
    }

    @Test
    void anOptionErrorIsTheMessageAndAPointerToHelpNotTheUsage() {
        CliTestSupport.Outcome o = CliTestSupport.run("size", "x.yaml", "--vary", "nics", "--max", "lots");
        assertEquals(Main.BAD_INPUT, o.code());
        List<String> lines = o.err().lines().toList();
        assertEquals(2, lines.size(), "the message and one line, not the usage:\n" + o.err());
        assertTrue(lines.get(0).contains("lots"), o.err());
        assertEquals("rdmasim: see 'rdmasim size --help'", lines.get(1));
        assertEquals("", o.out());
    }
}
