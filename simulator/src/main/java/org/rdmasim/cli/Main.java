package org.rdmasim.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.util.List;
import java.util.Properties;
import org.rdmasim.importers.ImportException;
import org.rdmasim.importers.PrintableText;
import org.rdmasim.memory.MemoryInputException;
import org.rdmasim.report.ReportFolder;
import org.rdmasim.run.RunBudget;
import org.rdmasim.scenario.ScenarioException;
import org.rdmasim.sizing.SizingInputException;
import org.rdmasim.sweep.StudyInputException;
import org.rdmasim.transport.backend.BackendRefusal;
import org.rdmasim.transport.config.ConfigValueException;
import org.rdmasim.transport.config.KnownVariables;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** Entry point: {@code rdmasim COMMAND ...}. */
@Command(name = "rdmasim", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
        description = "Discrete-event simulator of multi-NIC RDMA transfers between GPUs.")
public final class Main implements Runnable {
    /** The commands, in the order the usage lists them ({@code help} comes last). */
    private static final java.util.List<Class<?>> COMMANDS = java.util.List.of(RunCommand.class, SizeCommand.class,
            SweepCommand.class, MergeCommand.class, ExplainCommand.class, ValidateCommand.class, CompareCommand.class,
            TopoCommand.class, DemoCommand.class, BenchCommand.class, MemoryCommand.class, ParametersCommand.class,
            ModelCommand.class);

    public static final int OK = 0;
    public static final int VARIANT_FAILED = 1;
    public static final int BAD_INPUT = 2;
    /** An error in rdmasim itself: one line on the terminal, the trace in a file. */
    public static final int INTERNAL_ERROR = 3;

    /** How a command's help names {@link #INTERNAL_ERROR} among its exit codes (README's words, shorter). */
    static final String INTERNAL_ERROR_WORDS = "3 internal error (one line naming the rdmasim version and a file "
            + "holding the trace)";

    /** 128 + SIGINT, what a shell reports for a command stopped by Ctrl-C. */
    public static final int INTERRUPTED = 130;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /**
     * {@code rdmasim} with no command: a usage error like any other missing argument, so a script that
     * forgot its command stops (exit 2) rather than reading the usage as a result on standard output.
     */
    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(),
                "missing a command: one of " + String.join(", ", spec.commandLine().getSubcommands().keySet()));
    }

    public static void main(String[] args) {
        System.setProperty("java.awt.headless", "true");
        // standard output as a file stream, not System.out: a PrintStream keeps only that a write failed, not why
        Stdout stdout = new Stdout(new java.io.FileOutputStream(java.io.FileDescriptor.out));
        System.exit(execute(args, new PrintWriter(stdout, true), new PrintWriter(System.err, true), stdout::failure));
    }

    /** Runs the command line with the given streams and returns the exit code (used by tests too). */
    public static int execute(String[] args, PrintWriter out, PrintWriter err) {
        return execute(args, out, err, () -> null);
    }

    /**
     * As {@link #execute(String[], PrintWriter, PrintWriter)}; {@code outFailure} says why a write to {@code out}
     * failed (null when unknown). A PrintWriter never throws: a command whose output could not be written (a full
     * disk, {@code > /dev/full}) would end with exit 0 and a truncated answer. Whatever the command, that is said
     * on one line and the exit code is not 0.
     */
    static int execute(String[] args, PrintWriter out, PrintWriter err, java.util.function.Supplier<String> outFailure) {
        int code = run(args, out, err);
        if (out.checkError()) {
            String why = outFailure.get();
            if (BROKEN_PIPE.equals(why)) {
                // The reader stopped early ('| head'): what it read is what it wanted. Quiet, and the code a shell
                // tool killed by SIGPIPE ends with, so 'set -o pipefail' still sees it.
                return code == OK ? STOPPED_READING : code;
            }
            err.println("rdmasim: error: the output could not be written to standard output"
                    + (why == null ? "" : " (" + PrintableText.escapedKeepingLines(why) + ")")
                    + "; what it holds is incomplete");
            return code == OK ? BAD_INPUT : code;
        }
        return code;
    }

    /** Linux's words for EPIPE, which the JDK's IOException carries: the reader of a pipe closed it. */
    static final String BROKEN_PIPE = "Broken pipe";
    /** 128 + SIGPIPE: what a shell tool whose reader closed the pipe ends with. */
    static final int STOPPED_READING = 141;

    /** Standard output that keeps the reason of its first failed write. */
    static final class Stdout extends java.io.FilterOutputStream {
        private volatile String failure;

        Stdout(java.io.OutputStream out) {
            super(out);
        }

        @Override
        public void write(int b) throws IOException {
            try {
                out.write(b);
            } catch (IOException e) {
                throw noted(e);
            }
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            try {
                out.write(b, off, len);
            } catch (IOException e) {
                throw noted(e);
            }
        }

        @Override
        public void flush() throws IOException {
            try {
                out.flush();
            } catch (IOException e) {
                throw noted(e);
            }
        }

        private IOException noted(IOException e) {
            if (failure == null) {
                failure = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            }
            return e;
        }

        String failure() {
            return failure;
        }
    }

    private static int run(String[] args, PrintWriter out, PrintWriter err) {
        CommandLine cl = commandLine(args);
        cl.setOut(out);
        cl.setErr(err);
        cl.setExecutionExceptionHandler((ex, line, parsed) -> {
            // A message may echo a value from the input: its control characters are shown, not acted on.
            if (ex instanceof ScenarioException || ex instanceof BadInputException) {
                err.println("rdmasim: error: " + PrintableText.escapedKeepingLines(String.valueOf(ex.getMessage())));
                return BAD_INPUT;
            }
            if (isInputError(ex)) {
                err.println("rdmasim: error: " + PrintableText.escapedKeepingLines(String.valueOf(ex.getMessage())));
                return BAD_INPUT;
            }
            if (ex instanceof org.rdmasim.engine.SimulationInterrupted) {
                // a simulation stopped by an interrupt that no command turned into its own message: a stop, not a fault
                err.println("rdmasim: interrupted");
                return INTERRUPTED;
            }
            if (ex instanceof IOException) {
                err.println("rdmasim: I/O error: " + PrintableText.escapedKeepingLines(String.valueOf(ex.getMessage())));
                return BAD_INPUT;
            }
            return unexpected(ex, err);
        });
        cl.setParameterExceptionHandler((ex, a) -> {
            // The message and where to read more: the whole usage (70 lines for size) would bury the message.
            String message = asTyped(String.valueOf(ex.getMessage()), ex, a);
            // a value in the unit of another quantity (--target-refit 0.5 GiB) is said as such, in place of
            // picocli's "unmatched argument" or the parser's bare unit list
            String wrong = wrongUnit(ex, a);
            if (wrong != null) {
                err.println("rdmasim: " + PrintableText.escaped(wrong));
                err.println("rdmasim: see '" + ex.getCommandLine().getCommandSpec().qualifiedName() + " --help'");
                return BAD_INPUT;
            }
            err.println("rdmasim: " + PrintableText.escapedKeepingLines(message));
            String nearest = ex instanceof CommandLine.UnmatchedArgumentException u ? nearestCommand(u) : null;
            String option = ex instanceof CommandLine.UnmatchedArgumentException u ? nearestOption(u) : null;
            // a unit the shell split from its number leaves the unit unmatched, or the bare number refused by its
            // option's converter first (--memory 512 GiB reads 512 bytes)
            String joined = unitSplitOff(ex instanceof CommandLine.UnmatchedArgumentException u ? u.getUnmatched()
                    : null, a);
            String moved = optionBeforeCommand(ex.getCommandLine(), a);
            if (moved != null) {
                err.println("rdmasim: " + PrintableText.escaped(moved));
            } else if (joined != null) {
                err.println("rdmasim: " + joined);
            } else if (nearest != null) {
                err.println("rdmasim: did you mean '" + nearest + "'?");
            } else if (option != null) {
                err.println("rdmasim: did you mean '" + option + "'?");
            } else if (ex instanceof CommandLine.UnmatchedArgumentException
                    && !ex.getCommandLine().getSubcommands().isEmpty()) {
                // a word where a command goes, at the top or under one with commands of its own (memory)
                err.println("rdmasim: commands: " + String.join(", ", ex.getCommandLine().getSubcommands().keySet()));
            }
            err.println("rdmasim: see '" + ex.getCommandLine().getCommandSpec().qualifiedName() + " --help'");
            return BAD_INPUT;
        });
        try {
            return cl.execute(args);
        } catch (RuntimeException | Error e) {
            // what picocli lets through (an Error from a command, a handler's own failure)
            return unexpected(e, err);
        }
    }

    /**
     * The command line for {@code args}. picocli reads every option of every command it is given by
     * reflection, and its classes cannot be kept in the launcher's class-data archive (they are built
     * for Java 5), which cost about 45 ms of a 1.3 s run; so when the first argument names a command,
     * only that command is registered. Anything else (no argument, an option, {@code help}, a
     * misspelt command) gets every command, so usage and "did you mean" list them all.
     */
    static CommandLine commandLine(String[] args) {
        CommandLine cl = new CommandLine(new Main());
        String first = args.length > 0 ? args[0] : "";
        for (Class<?> c : COMMANDS) {
            if (c.getAnnotation(Command.class).name().equals(first)) {
                return versioned(cl.addSubcommand(c));
            }
        }
        COMMANDS.forEach(cl::addSubcommand);
        return versioned(cl.addSubcommand(CommandLine.HelpCommand.class));
    }

    /** Every command's help lists {@code -V, --version}: each prints the version, as {@code rdmasim -V} does. */
    private static CommandLine versioned(CommandLine cl) {
        for (CommandLine sub : cl.getSubcommands().values()) {
            sub.getCommandSpec().versionProvider(new Version());
            versioned(sub);
        }
        return cl;
    }

    /**
     * The command closest to a misspelt first word ({@code rn} for run), or null when the word was not in
     * the place of a command or nothing is close. Compared by edit distance: picocli's own suggestions
     * compare letter pairs, and "rn" shares none with "run".
     */
    static String nearestCommand(CommandLine.UnmatchedArgumentException ex) {
        CommandLine at = ex.getCommandLine();
        List<String> unmatched = ex.getUnmatched();
        if (unmatched.isEmpty() || at.getSubcommands().isEmpty() || unmatched.get(0).startsWith("-")) {
            return null;
        }
        String word = unmatched.get(0).toLowerCase(java.util.Locale.ROOT);
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String name : at.getSubcommands().keySet()) {
            int d = KnownVariables.editDistance(word, name);
            if (d < bestDistance) {
                bestDistance = d;
                best = name;
            }
        }
        // at most a third of the word wrong (two letters for short words), as scenario field names
        return bestDistance <= Math.max(2, word.length() / 3) && bestDistance < word.length() ? best : null;
    }

    /**
     * When a unit was split by the shell from its number ({@code --target-refit 500 ms}), how to write it as one
     * argument; else null. {@code unmatched}: the words picocli could not place (the unit must be the first), or
     * null when the error came from an option's value, before any word was left over.
     */
    static String unitSplitOff(List<String> unmatched, String[] args) {
        if (unmatched != null && unmatched.isEmpty()) {
            return null;
        }
        String only = unmatched == null ? null : unmatched.get(0);
        int i = unitAfterValue(only, args, "(?i)[munp]?s|secs?|seconds?|milliseconds?|[kmgtp]i?b|[kmgt]bps|[kmgt]b/s");
        if (i < 0) {
            return null;
        }
        String unit = args[i];
        // the durations rdmasim reads spell seconds "s" (QuantityText): suggest what it accepts
        String written = unit.matches("(?i)secs?|seconds?") ? "s"
                : unit.matches("(?i)milliseconds?") ? "ms" : unit;
        return "a value and its unit are one argument: write " + args[i - 2] + " " + args[i - 1] + written
                + " (or quote it: " + args[i - 2] + " '" + args[i - 1] + " " + written + "')";
    }

    /** A bare number as one argument ({@code 0.5}, {@code 1e-3}). */
    private static final String NUMBER = "[0-9.]+([eE][-+]?[0-9]+)?";

    /**
     * Where the shell split a unit off its value: the index {@code i} of the first argument matching {@code unit}
     * (and equal to {@code only}, when not null) that follows a bare number, itself after an option
     * ({@code --target-refit 0.5 GiB}: the index of {@code GiB}); -1 when there is none.
     */
    private static int unitAfterValue(String only, String[] args, String unit) {
        for (int i = 2; i < args.length; i++) {
            if ((only == null || args[i].equals(only)) && args[i - 2].startsWith("-") && args[i - 1].matches(NUMBER)
                    && args[i].matches(unit)) {
                return i;
            }
        }
        return -1;
    }

    /** The quantity a command option reads, by its converter: the one place that says which units an option takes. */
    private enum Quantity {
        TIME("a duration", "s, ms, us or ns; a bare number is seconds", "0.5s"),
        SIZE("a size", org.rdmasim.hardware.Units.SIZE_UNITS + "; a bare number is bytes", "16GiB");

        final String noun;
        final String units;
        final String example;

        Quantity(String noun, String units, String example) {
            this.noun = noun;
            this.units = units;
            this.example = example;
        }

        /** The quantity {@code o}'s converter reads, or null for an option of another type. */
        static Quantity of(CommandLine.Model.OptionSpec o) {
            for (CommandLine.ITypeConverter<?> c : o.converters()) {
                if (c instanceof Duration) {
                    return TIME;
                }
                if (c instanceof ByteSize || c instanceof ByteSize.Buffer || c instanceof ByteSize.HostMemory) {
                    return SIZE;
                }
            }
            return null;
        }

        /** The quantity a unit as written measures ({@code GiB}: SIZE), or null when it is neither. */
        static Quantity ofUnit(String unit) {
            // the spellings unitSplitOff mends are a time too; minutes and hours are not read
            if (unit.matches("(?i)[munp]?s|secs?|seconds?|milliseconds?")) {
                return TIME;
            }
            return unit.matches("(?i)[kmgtp]i?b|b|bytes?") ? SIZE : null;
        }
    }

    /**
     * When an option that reads a duration or a size was given a value in another quantity's unit
     * ({@code --target-refit 0.5 GiB}, {@code --target-refit 0.5GiB}, {@code --memory 64 ms}): one line naming the
     * option as typed, the value, the unit it takes and an example from the option's own help (as {@code --help}
     * shows it), else the quantity's own; null for any other error (a unit of the right kind split off by the
     * shell keeps {@link #unitSplitOff}'s hint, a unit of no quantity the parser's list of units).
     */
    static String wrongUnit(CommandLine.ParameterException ex, String[] args) {
        String option = null;
        String value = null;
        String unit = null;
        if (ex instanceof CommandLine.UnmatchedArgumentException u && !u.getUnmatched().isEmpty()) {
            int i = unitAfterValue(u.getUnmatched().get(0), args, "[A-Za-z/]+");
            if (i >= 0) {
                option = args[i - 2];
                value = args[i - 1] + " " + args[i];
                unit = args[i];
            }
        } else if (ex.getArgSpec() instanceof CommandLine.Model.OptionSpec && ex.getValue() != null) {
            value = ex.getValue();
            // a bare number refused before the unit the shell split off it was read (--memory 64 ms)
            for (int i = 1; i + 1 < args.length; i++) {
                if (args[i].equals(value) && args[i - 1].startsWith("-") && args[i + 1].matches("[A-Za-z/]+")
                        && value.matches(NUMBER)) {
                    value = value + " " + args[i + 1];
                    break;
                }
            }
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("^\\s*[-+]?" + NUMBER + "\\s*([A-Za-z/]+)\\s*$")
                    .matcher(value);
            if (!m.matches()) {
                return null;
            }
            unit = m.group(2);
            for (String arg : args) {
                for (String name : ((CommandLine.Model.OptionSpec) ex.getArgSpec()).names()) {
                    if (arg.equals(name) || arg.startsWith(name + "=")) {
                        option = name;
                    }
                }
            }
        }
        if (option == null) {
            return null;
        }
        String name = option.split("=", 2)[0];
        CommandLine.Model.OptionSpec spec = ex.getCommandLine().getCommandSpec().findOption(name);
        Quantity wanted = spec == null ? null : Quantity.of(spec);
        Quantity given = Quantity.ofUnit(unit);
        if (wanted == null || given == null || given == wanted) {
            // a unit of no quantity ('16GX', '2 min') keeps the parser's list of the units it reads
            return null;
        }
        String example = wanted.example;
        java.util.regex.Matcher e = java.util.regex.Pattern.compile("e\\.g\\. ([^ ,;)]+)")
                .matcher(String.join(" ", spec.description()));
        if (e.find()) {
            example = e.group(1);
        }
        return name + " takes " + wanted.noun + " (" + wanted.units + "), got '" + value + "'"
                + ", " + given.noun + ": write e.g. " + name + " " + example;
    }

    /**
     * {@code message} naming the option as the user typed it: picocli names an option by its longest name
     * ({@code --mtt-for-memory}), which reads as someone else's option to a user who wrote its other name
     * ({@code --memory 16GX}).
     */
    static String asTyped(String message, CommandLine.ParameterException ex, String[] args) {
        if (ex instanceof CommandLine.MissingParameterException missing) {
            // a required option not given is named as its help and README name it (memory mtt's --memory), not by
            // its longest alias (--mtt-for-memory), which the user never typed
            for (CommandLine.Model.ArgSpec a : missing.getMissing()) {
                if (a instanceof CommandLine.Model.OptionSpec o && o.names().length > 1) {
                    message = message.replace("'" + o.longestName() + "=", "'" + o.names()[0] + "=");
                }
            }
            return message;
        }
        if (!(ex.getArgSpec() instanceof CommandLine.Model.OptionSpec o) || o.names().length < 2) {
            return message;
        }
        String typed = null;
        for (String arg : args) {
            for (String name : o.names()) {
                if (arg.equals(name) || arg.startsWith(name + "=")) {
                    typed = name;
                }
            }
        }
        String longest = o.longestName();
        return typed == null || typed.equals(longest) ? message
                : message.replace("'" + longest + "'", "'" + typed + "'");
    }

    /** The option of the command closest to a misspelt one ({@code --qiet} for --quiet), or null. */
    static String nearestOption(CommandLine.UnmatchedArgumentException ex) {
        List<String> unmatched = ex.getUnmatched();
        if (unmatched.isEmpty() || !unmatched.get(0).startsWith("-")) {
            return null;
        }
        String word = unmatched.get(0).split("=", 2)[0];
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (CommandLine.Model.OptionSpec o : ex.getCommandLine().getCommandSpec().options()) {
            for (String name : o.names()) {
                int d = KnownVariables.editDistance(word, name);
                if (name.length() > 4 && (word.startsWith(name) || name.startsWith(word))) {
                    d = Math.min(d, 1); // --output for --out, --thread for --threads
                }
                if (d < bestDistance) {
                    bestDistance = d;
                    best = name;
                }
            }
        }
        return bestDistance <= Math.max(2, word.length() / 3) && bestDistance < word.length() ? best : null;
    }

    /**
     * When options were written before the command ({@code rdmasim --out DIR run s.yaml}, {@code rdmasim -q run
     * s.yaml}), the line with them moved after it; else null. The top level takes no option but help and version,
     * so such a slip was refused as an unknown option with the list of commands, or a "did you mean '-h'?" for
     * {@code -q}, neither saying where the option goes.
     */
    static String optionBeforeCommand(CommandLine at, String[] args) {
        if (at.getParent() != null || args.length < 2 || !args[0].startsWith("-")) {
            return null;
        }
        for (int i = 1; i < args.length; i++) {
            if (at.getSubcommands().containsKey(args[i]) && !args[i].equals("help")) {
                List<String> line = new java.util.ArrayList<>();
                line.add("rdmasim");
                line.addAll(java.util.Arrays.asList(args).subList(i, args.length));
                line.addAll(java.util.Arrays.asList(args).subList(0, i));
                return "options go after the command they belong to: "
                        + String.join(" ", line.stream().map(Main::shellWord).toList());
            }
        }
        return null;
    }

    /** {@code word} as a POSIX shell reads it back: bare when it holds nothing the shell treats specially. */
    private static String shellWord(String word) {
        return !word.isEmpty() && word.matches("[A-Za-z0-9_./:=,@%+-]+") ? word : "'" + word.replace("'", "'\\''") + "'";
    }

    /**
     * Whether {@code ex} is one of the exception types the model raises for something the user wrote (a
     * value out of its physical range, a refused configuration, an unsafe output folder). A plain
     * {@link IllegalArgumentException} is not: it is an invariant the program broke, reported as an
     * internal error (exit 3) so that a fault of rdmasim's never reads as the user's.
     */
    static boolean isInputError(Throwable ex) {
        return ex instanceof MemoryInputException || ex instanceof BackendRefusal || ex instanceof ConfigValueException
                || ex instanceof ImportException || ex instanceof ReportFolder.UnsafeOutputException
                || ex instanceof RunBudget.TooLarge || ex instanceof StudyInputException
                || ex instanceof SizingInputException
                || ex instanceof org.rdmasim.refit.model.ModelFileException;
    }

    /**
     * What an exception nobody expected becomes: never a trace on the terminal. Running out of heap is said
     * as such (exit 2: the input is too large for the heap given); anything else is an internal error (exit
     * 3) with one line naming the version and a file holding the trace, to attach to a report.
     */
    static int unexpected(Throwable ex, PrintWriter err) {
        if (ex instanceof OutOfMemoryError) {
            err.println("rdmasim: error: the run needs more memory than the Java heap has (" + Runtime.getRuntime()
                    .maxMemory() / (1 << 20) + " MiB): make the scenario smaller, or give more with "
                    + "RDMASIM_JAVA_OPTS=-Xmx<size>");
            return BAD_INPUT;
        }
        String where;
        try {
            java.nio.file.Path file = java.nio.file.Files.createTempFile("rdmasim-internal-error-", ".txt");
            java.io.StringWriter trace = new java.io.StringWriter();
            ex.printStackTrace(new PrintWriter(trace));
            java.nio.file.Files.writeString(file, "rdmasim " + version() + "\n" + trace);
            where = "the trace is in " + file;
        } catch (IOException | RuntimeException e) {
            where = "the trace could not be written (" + e.getMessage() + ")";
        }
        err.println("rdmasim: internal error (rdmasim " + version() + "): " + ex.getClass().getSimpleName()
                + (ex.getMessage() == null ? "" : ": " + firstLine(ex.getMessage())) + "; " + where
                + "; a report with that file helps");
        return INTERNAL_ERROR;
    }

    private static String firstLine(String s) {
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }

    /** The release from the build's rdmasim.properties, or "unknown" when run from unpackaged classes. */
    public static String version() {
        Properties p = new Properties();
        try (InputStream in = Main.class.getResourceAsStream("/rdmasim.properties")) {
            if (in != null) {
                p.load(in);
            }
        } catch (IOException e) {
            return "unknown";
        }
        String v = p.getProperty("version", "unknown");
        return v.startsWith("${") ? "unknown" : v;
    }

    /** Version from the build. */
    public static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"rdmasim " + version()};
        }
    }
}
