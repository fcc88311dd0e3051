package org.rdmasim.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.Callable;
import org.rdmasim.report.ReportFolder;
import org.rdmasim.scenario.Scenario;
import org.rdmasim.scenario.VariantSpec;
import org.rdmasim.sizing.FanoutSizing;
import org.rdmasim.sizing.P99Target;
import org.rdmasim.sizing.RefitCycleTarget;
import org.rdmasim.sizing.RefitSizing;
import org.rdmasim.sizing.SizingSweep;
import org.rdmasim.sizing.SizingTarget;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code rdmasim size SCENARIO --target-p99 DURATION --vary sources|nics|rails|tree-degree [--max N]}, and for a
 * refit {@code --target-refit DURATION --vary senders|nics|bucket|inference-tp}. This class checks the options
 * against the variant and prints; the targets ({@link P99Target}, {@link RefitCycleTarget}), the search and its
 * files are the {@code sizing} package's.
 */
@Command(name = "size", mixinStandardHelpOptions = true,
        description = {
                "Find the smallest setting of one knob that meets a p99 pull or refit-cycle target.",
                "",
                "Of a fan-out variant: the smallest setting whose p99 pull time (pooled over replications) "
                        + "meets --target-p99; of a refit variant: whose time per cycle meets --target-refit. "
                        + "It tries 1, 2, 4, 8, ... until a setting meets the target or the knob's bound is "
                        + "reached, then bisects between the last setting that missed and the first that met: "
                        + "at most 2 x ceil(log2 answer) settings simulated, ceil(log2 bound) + 1 if none meets. "
                        + "The conclusion names the settings simulated (by doubling, then by bisection) and those "
                        + "skipped; a skipped setting is said to miss only under the assumption below.",
                "",
                "Assumption (monotonicity): more sources, NICs, rails or tree degree never make p99 worse "
                        + "(more senders, NICs or inference TP never makes a refit longer). The output states it "
                        + "and reports neighbouring points whose figure rises with the knob; the answer may then "
                        + "not be the smallest.",
                "",
                "Bound (default and ceiling of --max), the most a knob can usefully be:",
                "  sources      the receiver hosts (each pulls from one source)",
                "  nics         the receiver host's compute NICs (UCX_NET_DEVICES lists",
                "               the N nearest the receiving GPU, UCX_MAX_RMA_RAILS=N)",
                "  rails        the lanes a receiver GPU can have: NICs x paths per port",
                "               (UCX_IB_NUM_PATHS; auto: 2 on NDR/XDR ports); a higher",
                "               UCX_MAX_RMA_RAILS selects no more lanes",
                "  tree-degree  the receiver hosts (a source then serves all directly)",
                "",
                "Refit knobs (workload: refit:, with --target-refit DURATION):",
                "  senders      nccl-broadcast: trainer ranks sending, 1 to all, evenly",
                "               spaced",
                "  nics         rdma-pull, write-schedule: UCX_NET_DEVICES lists N of the",
                "               inference host's compute NICs, each GPU's nearest first, one",
                "               list for every process (1: MX_RDMA_NIC_PIN=auto),",
                "               UCX_MAX_RMA_RAILS=N, each buffer registered on N HCAs (the",
                "               first cycle pays that), 1 to its compute",
                "               NICs; nccl-broadcast, checkpoint-engine: NCCL_IB_HCA==each",
                "               host's first N NICs nearest its GPUs, 1 to the fewest compute",
                "               NICs of a host",
                "  inference-tp TP degrees dividing the inference GPUs (DP = GPUs / TP) that",
                "               the model accepts; the others are listed with the reason",
                "  bucket       bucketed methods: not monotone (fewer per-bucket starts",
                "               against a later pipeline fill and a larger buffer to",
                "               register), so every power of two from 16 MiB to the model",
                "               (at most 8 GiB) is run and the answer is the fastest that",
                "               meets; no --max",
                "",
                "A transfer list (workload: transfers) is refused: its transfers name their own sources and "
                        + "GPUs. For nics or rails the message prints the study to write and the sweep line that "
                        + "measures the list at each setting.",
                "",
                "--refit-cycle first|steady picks the cycle the target is on (default steady: the last cycle, "
                        + "with registration cached).",
                "",
                "Each point's line of NICs: those that carry data and those UCX was given but dropped (ratio "
                        + "filter, rail limit, registration), as explain decides them for the first transfer; then "
                        + "the UCX install assumed (whether ucx.conf is read). A refit's 'target cycle(s)' is the "
                        + "time of the cycle the target is on.",
                "",
                "Writes sizing.json, sizing.csv and charts. The progress line shows points done of at most N "
                        + "and the time per point so far. Ctrl-C keeps the points simulated so far: table, CSV "
                        + "and JSON marked incomplete (no charts).",
                "Exit codes: 0 the search ran (whether or not a setting meets the target), 2 bad input, " + Main.INTERNAL_ERROR_WORDS + ", "
                        + "130 interrupted (points so far written)."})
public final class SizeCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "SCENARIO.yaml", description = "a scenario with a fan-out or refit workload")
    Path scenarioFile;

    @Option(names = "--target-p99", paramLabel = "DURATION", converter = Duration.class,
            description = "fan-out: p99 pull time to meet, e.g. 2s, 500ms (a bare number is seconds)")
    Double targetP99;

    @Option(names = "--target-refit", paramLabel = "DURATION", converter = Duration.class,
            description = "refit: time per refit cycle to meet, e.g. 0.5s, 500ms (a bare number is seconds)")
    Double targetRefit;

    @Option(names = "--refit-cycle", paramLabel = "CYCLE", description = "refit: the cycle the target is on, first or "
            + "steady (the last; default)")
    String refitCycle;

    @Option(names = "--vary", required = true, paramLabel = "KNOB", description = "fan-out: sources, nics, rails or "
            + "tree-degree; refit: senders, nics, bucket or inference-tp")
    String vary;

    @Option(names = "--max", paramLabel = "N", description = "largest value to try (default and ceiling: the knob's bound)")
    Integer max;

    @Option(names = "--variant", paramLabel = "NAME", description = "variant to size (default: the first)")
    String variant;

    @Option(names = {"-o", "--out"}, paramLabel = "DIR", description = "output folder (default: reports/<scenario>-size-<knob>/)")
    Path out;

    @Option(names = "--force", description = "write into DIR beside files rdmasim did not write (they are kept; "
            + "only the earlier sizing's own files are replaced)")
    boolean force;

    @Option(names = {"-q", "--quiet"}, description = "no progress line (the table and the files are still written)")
    boolean quiet;

    @Option(names = ThreadsOption.NAME, paramLabel = ThreadsOption.LABEL, description = "threads for a fan-out "
            + "point's replications (a refit point is one run on one thread: refused there)" + ThreadsOption.RANGE
            + "; the output does not depend on it")
    Integer threads;

    @picocli.CommandLine.Mixin
    ScenarioFiles scenarioFiles = new ScenarioFiles();

    @Override
    public Integer call() throws IOException {
        if (targetP99 == null && targetRefit == null) {
            throw new BadInputException("give --target-p99 DURATION (a fan-out's p99 pull time) or --target-refit "
                    + "DURATION (a refit's time per cycle), e.g. 0.5s or 500ms");
        }
        if (targetP99 != null && targetRefit != null) {
            throw new BadInputException("--target-p99 and --target-refit exclude each other: the first sizes a fan-out, "
                    + "the second a refit");
        }
        boolean refitTarget = targetRefit != null;
        double target = refitTarget ? targetRefit : targetP99;
        String targetOption = refitTarget ? "--target-refit" : "--target-p99";
        if (!(target > 0) || Double.isInfinite(target)) {
            throw new BadInputException(targetOption + " must be a positive duration, got " + target + " s");
        }
        Optional<FanoutSizing.Knob> fanoutKnob = FanoutSizing.Knob.find(vary);
        Optional<RefitSizing.Knob> refitKnob = RefitSizing.Knob.find(vary);
        if (fanoutKnob.isEmpty() && refitKnob.isEmpty()) {
            throw new BadInputException("--vary: expected sources, nics, rails or tree-degree (fan-out) or senders, "
                    + "nics, bucket or inference-tp (refit), got '" + vary + "'" + org.rdmasim.scenario.YamlTree.suggestion(
                            vary, List.of("sources", "nics", "rails", "tree-degree", "senders", "bucket", "inference-tp")));
        }
        if (max != null && max < 1) {
            throw new BadInputException("--max must be at least 1, got " + max);
        }
        if (refitCycle != null && !refitCycle.equals("first") && !refitCycle.equals("steady")) {
            throw new BadInputException("--refit-cycle: expected first or steady, got '" + refitCycle + "'");
        }
        OptionalInt most = max == null ? OptionalInt.empty() : OptionalInt.of(max);
        Scenario scenario = scenarioFiles.load(scenarioFile);
        VariantSpec base = scenario.variants().get(0);
        if (variant != null) {
            base = scenario.variants().stream().filter(v -> v.name().equals(variant)).findFirst()
                    .orElseThrow(() -> new BadInputException(ScenarioFiles.noSuchVariant(variant, scenarioFile,
                            scenario.variants().stream().map(VariantSpec::name).toList())));
        }
        if (base.isRefit()) {
            if (!refitTarget) {
                throw new BadInputException(scenarioFile + ": variant '" + base.name() + "' is a refit (workload: "
                        + "{refit: ...}): give --target-refit DURATION, its time per cycle; --target-p99 is a fan-out's");
            }
            if (refitKnob.isEmpty()) {
                throw new BadInputException(scenarioFile + ": variant '" + base.name() + "' is a refit: --vary " + vary
                        + " sizes a fan-out; a refit varies senders, nics, bucket or inference-tp");
            }
            if (threads != null) {
                // refused, not ignored, as an option of another mode is elsewhere (sweep's job options, bench's)
                throw new BadInputException(scenarioFile + ": variant '" + base.name() + "' is a refit: --threads runs a "
                        + "fan-out point's replications side by side; a refit point is one run on one thread: leave it out");
            }
            RefitCycleTarget sized = RefitCycleTarget.of(scenarioFile, scenario.name(), base, refitKnob.get(),
                    refitCycle == null ? "steady" : refitCycle, target, most);
            return search(sized, scenario, sized.evaluator(base));
        }
        if (!base.isFanout()) {
            if (fanoutKnob.isEmpty()) {
                throw new BadInputException(scenarioFile + ": variant '" + base.name() + "' is a transfer list "
                        + "(workload: transfers): --vary " + vary + " sizes a refit (workload: {refit: ...})");
            }
            throw new BadInputException(org.rdmasim.sizing.TransferListStudy.refusal(scenarioFile, base,
                    base == scenario.variants().get(0), fanoutKnob.get()));
        }
        if (refitTarget || refitCycle != null) {
            throw new BadInputException(scenarioFile + ": variant '" + base.name() + "' is a fan-out: "
                    + (refitTarget ? "--target-refit" : "--refit-cycle") + " applies to a refit; give --target-p99 DURATION");
        }
        if (fanoutKnob.isEmpty()) {
            throw new BadInputException(scenarioFile + ": variant '" + base.name() + "' is a fan-out: --vary " + vary
                    + " sizes a refit; a fan-out varies sources, nics, rails or tree-degree");
        }
        P99Target sized = P99Target.of(scenario, base, fanoutKnob.get(), target, most);
        return search(sized, scenario, sized.evaluator(scenario, base, ThreadsOption.count(threads)));
    }

    /** Runs the search into its output folder, printing as it goes; the exit code. */
    private int search(SizingTarget sized, Scenario scenario, SizingSweep.Evaluator evaluator) throws IOException {
        Path dir = claim(scenario, sized.label(), sized.files());
        SizingSweep sweep = new SizingSweep(sized, dir, new Terminal(spec.commandLine().getOut(),
                spec.commandLine().getErr(), sized.scenario(), quiet));
        if (scenario.file() != null && Files.isRegularFile(Path.of(scenario.file()))) {
            sweep.madeFrom(Path.of(scenario.file()));
        }
        return sweep.runWithHook(evaluator) ? Main.OK : Main.INTERRUPTED;
    }

    /** The search on the terminal: its progress line on stderr, its table and where it went on stdout. */
    private record Terminal(PrintWriter o, PrintWriter err, String scenario, boolean quiet) implements SizingSweep.Display {
        @Override
        public SizingSweep.StatusLine statusLine() {
            if (quiet) {
                return SizingSweep.StatusLine.of(status -> { }, () -> { });
            }
            Progress progress = new Progress(err);
            return SizingSweep.StatusLine.of(progress::update, progress::close);
        }

        @Override
        public void table(String text) {
            o.print(text);
        }

        @Override
        public void written(Path dir, boolean complete, int points) {
            o.println((complete ? "search written to " : "points so far written to ") + dir);
            o.flush();
            if (!complete) {
                err.println("rdmasim: " + scenario + ": interrupted after " + points + " point(s); they are "
                        + "kept in " + dir + " (marked incomplete)");
                err.flush();
            }
        }

        @Override
        public void notWritten(IOException e) {
            err.println("rdmasim: I/O error writing the points so far: " + e.getMessage());
        }
    }

    /** The output folder, refusing to replace a file of the sizing's own names that rdmasim did not write. */
    private Path claim(Scenario scenario, String label, List<String> files) throws IOException {
        Path given = out != null ? out : Path.of("reports", scenario.name() + "-size-" + label);
        Path dir = ReportFolder.claim(given, RunCommand.inputs(scenario), force);
        if (!force && scenario.file() != null && Files.isDirectory(dir)) {
            // the default folder is keyed by the scenario's name: a copy of the scenario would share it
            java.util.Optional<Path> other = ReportFolder.anotherSource(dir, Path.of(scenario.file()));
            if (other.isPresent()) {
                throw RunCommand.anotherScenariosReport(given, "the sizing of " + org.rdmasim.importers.InputLimits.fromHere(other.get()), scenario);
            }
        }
        if (Files.isDirectory(dir)) {
            List<String> clash = ReportFolder.foreignEntries(dir, Set.of()).stream().filter(files::contains).toList();
            if (!clash.isEmpty()) {
                throw new BadInputException("will not replace " + String.join(", ", clash) + " in " + given
                        + ": rdmasim did not write it (or it changed since); move it or choose another --out");
            }
        }
        return dir;
    }
}
