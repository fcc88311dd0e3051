package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/**
 * The help reads whole. picocli lists a command by the first element of its description alone, and wraps an
 * element longer than the usage width at column 0: a description hand-wrapped into elements wider than the
 * terminal comes out as half-lines and orphaned words.
 */
class HelpTextTest {
    /** Every command and subcommand (memory's too), help excepted. */
    private static List<CommandSpec> commands() {
        List<CommandSpec> all = new ArrayList<>();
        walk(Main.commandLine(new String[0]), all);
        return all;
    }

    private static void walk(CommandLine cl, List<CommandSpec> into) {
        for (CommandLine sub : cl.getSubcommands().values()) {
            if (sub.getCommandSpec().userObject() instanceof CommandLine.HelpCommand) {
                continue;
            }
            into.add(sub.getCommandSpec());
            walk(sub, into);
        }
    }

    @Test
    void eachCommandsSummaryInTheTopLevelHelpIsAWholeSentence() {
        for (CommandSpec c : commands()) {
            String summary = c.usageMessage().description()[0];
            assertTrue(summary.endsWith("."), c.qualifiedName() + ": the summary the command list shows stops "
                    + "mid-sentence: '" + summary + "'");
        }
        String top = CliTestSupport.run("--help").out();
        for (CommandSpec c : commands()) {
            if (c.parent().userObject() instanceof Main) {
                assertTrue(top.replaceAll("\\s+", " ").contains(c.usageMessage().description()[0]),
                        c.name() + " summary not whole in:\n" + top);
            }
        }
    }

    @Test
    void aDescriptionLineWiderThanTheHelpIsAWholeParagraph() {
        for (CommandSpec c : commands()) {
            int width = c.usageMessage().width();
            for (String line : c.usageMessage().description()) {
                // picocli wraps it; that reads well only when the element is a paragraph, not a hand-wrapped line
                assertTrue(line.length() < width || line.endsWith("."), c.qualifiedName() + ": a line of "
                        + line.length() + " characters, wider than the help's " + width + ", ends mid-sentence "
                        + "and wraps into a half-line: '" + line + "'");
            }
        }
    }

    @Test
    void anOptionsDescriptionIsOneTextPicocliWrapsInItsColumn() {
        for (CommandSpec c : commands()) {
            for (CommandLine.Model.OptionSpec o : c.options()) {
                // more elements are printed each on a line of its own in the option column: hand-wrapped
                // text then shows half-lines between picocli's own breaks
                assertTrue(o.description().length <= 1, c.qualifiedName() + " " + o.longestName() + ": "
                        + o.description().length + " description lines; give one text");
            }
        }
    }

    /** README documents exit 3 for every command: a help that lists its exit codes lists that one too. */
    @Test
    void everyHelpThatListsExitCodesListsTheInternalError() {
        int listed = 0;
        for (CommandSpec c : commands()) {
            // "rdmasim memory va" -> memory va --help
            List<String> args = new ArrayList<>(List.of(c.qualifiedName(" ").split(" ")).subList(1, c.qualifiedName(" ").split(" ").length));
            args.add("--help");
            String help = CliTestSupport.run(args.toArray(new String[0])).out().replaceAll("\\s+", " ");
            if (help.contains("Exit codes:")) {
                String codes = help.substring(help.indexOf("Exit codes:"));
                assertTrue(codes.contains("2 bad input") && codes.contains("3 internal error (one line naming the rdmasim "
                        + "version and a file holding the trace)"), c.qualifiedName() + ": " + codes);
                listed++;
            }
        }
        assertTrue(listed >= 7, "commands whose help lists exit codes: " + listed);
    }

    /** README's command table names, in explain's synopsis, every option explain's help lists. */
    @Test
    void readmesExplainSynopsisNamesEveryOptionTheHelpLists() throws java.io.IOException {
        String readme = java.nio.file.Files.readString(CliTestSupport.repo().resolve("README.md"));
        int at = readme.indexOf("| `./rdmasim explain ");
        assertTrue(at >= 0, "README's command table has an explain row");
        String synopsis = readme.substring(at, readme.indexOf("` |", at));
        CommandSpec explain = Main.commandLine(new String[0]).getSubcommands().get("explain").getCommandSpec();
        for (CommandLine.Model.OptionSpec o : explain.options()) {
            if (!o.usageHelp() && !o.versionHelp() && !o.hidden()) {
                assertTrue(synopsis.contains("[" + o.longestName() + "]") || synopsis.contains("[" + o.longestName() + " "),
                        o.longestName() + " missing from " + synopsis);
            }
        }
        assertTrue(synopsis.contains("[--transfers N]") && synopsis.contains("[--allow-outside]"), synopsis);
    }
}
