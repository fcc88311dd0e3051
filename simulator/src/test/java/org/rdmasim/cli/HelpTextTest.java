package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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
    void everyValueIsNamedAsTheReadmeNamesIt() {
        // without a paramLabel picocli shows the Java field's name (--pending=<pendingSizes>); the README and the
        // other commands write N, SIZE, DIR, ...
        for (CommandSpec c : commands()) {
            List<CommandLine.Model.ArgSpec> args = new ArrayList<>(c.options());
            args.addAll(c.positionalParameters());
            for (CommandLine.Model.ArgSpec a : args) {
                if (a.arity().max() == 0) {
                    continue;
                }
                String name = a instanceof CommandLine.Model.OptionSpec o ? o.longestName() : a.paramLabel();
                assertTrue(!a.paramLabel().startsWith("<"), c.qualifiedName() + " " + name + ": its value shows as "
                        + a.paramLabel() + ", the field's name; give a paramLabel");
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

    /** Every command's help lists its exit codes, exit 3 among them, as README documents it for every command. */
    @Test
    void everyHelpThatListsExitCodesListsTheInternalError() {
        int listed = 0;
        for (CommandSpec c : commands()) {
            // "rdmasim memory va" -> memory va --help
            List<String> args = new ArrayList<>(List.of(c.qualifiedName(" ").split(" ")).subList(1, c.qualifiedName(" ").split(" ").length));
            args.add("--help");
            String help = CliTestSupport.run(args.toArray(new String[0])).out().replaceAll("\\s+", " ");
            // every command that runs something says how it ends (a group such as memory only lists its commands)
            assertTrue(help.contains("Exit codes:") || !c.subcommands().isEmpty(), c.qualifiedName() + " --help names "
                    + "no exit codes");
            if (help.contains("Exit codes:")) {
                String codes = help.substring(help.indexOf("Exit codes:"));
                assertTrue(codes.contains("2 bad input") && codes.contains("3 internal error (one line naming the rdmasim "
                        + "version and a file holding the trace)"), c.qualifiedName() + ": " + codes);
                listed++;
            }
        }
        assertTrue(listed >= 7, "commands whose help lists exit codes: " + listed);
    }

    /**
     * README's command table lists, for every command the top-level help lists, every option that command's help
     * prints: a row that drops an option, or an option added to the help alone, fails here. An option's aliases
     * ({@code --gpu, --gpu-model}) count once: any of its names will do. The standard {@code --help} and
     * {@code --version} are left out: README says once that every command has them.
     */
    @Test
    void readmesCommandRowsNameEveryOptionTheCommandsHelpPrints() throws IOException {
        String readme = Files.readString(CliTestSupport.repo().resolve("README.md"));
        List<String> listed = commandsTheTopLevelHelpLists();
        assertTrue(listed.size() >= 13 && listed.contains("explain") && listed.contains("bench"), "commands: " + listed);
        List<String> missing = new ArrayList<>();
        for (String command : listed) {
            String rows = readmeRows(readme, command);
            assertTrue(!rows.isEmpty(), "README's command table has no row for " + command);
            for (List<String> aliases : optionsTheHelpPrints(command)) {
                if (aliases.stream().noneMatch(name -> namesOption(rows, name))) {
                    missing.add(command + " " + aliases.get(aliases.size() - 1));
                }
            }
        }
        assertTrue(missing.isEmpty(), "options a command's --help prints that its README row does not name: " + missing);
    }

    /**
     * One level down: for every command whose help lists subcommands ({@code memory register}, {@code memory mtt},
     * ...), README's table has a row for each subcommand, and that subcommand's rows name every option its own help
     * prints. The subcommands come from the help, so a subcommand added to the code needs its row.
     */
    @Test
    void readmesSubcommandRowsNameEverySubcommandAndEveryOptionItsHelpPrints() throws IOException {
        String readme = Files.readString(CliTestSupport.repo().resolve("README.md"));
        List<String> subcommands = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        for (String command : commandsTheTopLevelHelpLists()) {
            for (String sub : commandsTheHelpLists(command)) {
                String qualified = command + " " + sub;
                subcommands.add(qualified);
                String rows = readmeRows(readme, qualified);
                assertTrue(!rows.isEmpty(), "README's command table has no row for " + qualified);
                for (List<String> aliases : optionsTheHelpPrints(command, sub)) {
                    if (aliases.stream().noneMatch(name -> namesOption(rows, name))) {
                        missing.add(qualified + " " + aliases.get(aliases.size() - 1));
                    }
                }
            }
        }
        // the parse found memory's three at least: a help layout picocli changed would otherwise pass with none
        assertTrue(subcommands.containsAll(List.of("memory register", "memory mtt", "memory va")),
                "subcommands read from the help: " + subcommands);
        assertTrue(missing.isEmpty(), "options a subcommand's --help prints that its README row does not name: "
                + missing);
    }

    /** The parse of a help reads every option picocli declares for the command: the checks above miss none. */
    @Test
    void theHelpsOptionListReadsAsTheCommandDeclaresIt() {
        CommandLine top = Main.commandLine(new String[0]);
        int subcommands = 0;
        for (String command : commandsTheTopLevelHelpLists()) {
            CommandLine cl = top.getSubcommands().get(command);
            assertEquals(declaredOptions(cl.getCommandSpec()), printedOptions(command), command + "'s --help");
            for (String sub : commandsTheHelpLists(command)) {
                CommandSpec spec = cl.getSubcommands().get(sub).getCommandSpec();
                assertEquals(declaredOptions(spec), printedOptions(command, sub), command + " " + sub + "'s --help");
                subcommands++;
            }
        }
        assertTrue(subcommands >= 3, "subcommands checked: " + subcommands);
    }

    private static Set<String> printedOptions(String... command) {
        Set<String> printed = new TreeSet<>();
        optionsTheHelpPrints(command).forEach(printed::addAll);
        return printed;
    }

    private static Set<String> declaredOptions(CommandSpec spec) {
        Set<String> declared = new TreeSet<>();
        for (CommandLine.Model.OptionSpec o : spec.options()) {
            if (!o.usageHelp() && !o.versionHelp() && !o.hidden()) {
                for (String name : o.names()) {
                    if (name.startsWith("--")) {
                        declared.add(name);
                    }
                }
            }
        }
        return declared;
    }

    /** The names in the Commands: list of {@code rdmasim --help}, {@code help} excepted. */
    private static List<String> commandsTheTopLevelHelpLists() {
        return commandsTheHelpLists();
    }

    /**
     * The names in the Commands: list of {@code rdmasim COMMAND... --help}, {@code help} excepted; none when the
     * help has no such list.
     */
    private static List<String> commandsTheHelpLists(String... command) {
        List<String> args = new ArrayList<>(List.of(command));
        args.add("--help");
        String help = CliTestSupport.run(args.toArray(new String[0])).out();
        List<String> names = new ArrayList<>();
        int at = help.indexOf("\nCommands:");
        if (at < 0) {
            return names;
        }
        // "Commands:" then one "  name   summary" line per command; a summary's wrapped lines are indented further
        Matcher m = Pattern.compile("(?m)^  ([a-z][a-z-]*) ").matcher(help.substring(at));
        while (m.find()) {
            if (!m.group(1).equals("help")) {
                names.add(m.group(1));
            }
        }
        return names;
    }

    /**
     * Each option line of {@code rdmasim COMMAND... --help}, as its long names: picocli starts an option at column 2
     * ({@code -o, --out=DIR}) or 6 ({@code --force}, {@code --gpu, --gpu-model=MODEL}); wrapped descriptions start
     * further right, prose at column 0.
     */
    private static List<List<String>> optionsTheHelpPrints(String... command) {
        List<String> args = new ArrayList<>(List.of(command));
        args.add("--help");
        String help = CliTestSupport.run(args.toArray(new String[0])).out();
        Pattern line = Pattern.compile("(?m)^(?:  -\\w, |      )(--[a-z][a-z0-9-]*(?:, --[a-z][a-z0-9-]*)*)");
        List<List<String>> options = new ArrayList<>();
        Matcher m = line.matcher(help);
        while (m.find()) {
            List<String> aliases = List.of(m.group(1).split(", "));
            if (!aliases.contains("--help") && !aliases.contains("--version")) {
                options.add(aliases);
            }
        }
        return options;
    }

    /**
     * Every row of README's command table whose command cell starts with {@code ./rdmasim COMMAND} (or
     * {@code ./rdmasim COMMAND SUBCOMMAND}), joined.
     */
    private static String readmeRows(String readme, String command) {
        StringBuilder rows = new StringBuilder();
        for (String row : readme.split("\n")) {
            if (row.startsWith("| `./rdmasim " + command + " ") || row.startsWith("| `./rdmasim " + command + "`")) {
                rows.append(row).append('\n');
            }
        }
        return rows.toString();
    }

    /** {@code --name} as a whole option, not the start of a longer one ({@code --scenario} in {@code --scenarios}). */
    private static boolean namesOption(String text, String name) {
        return Pattern.compile("(?<![\\w-])" + Pattern.quote(name) + "(?![\\w-])")
                .matcher(text).find();
    }
}
