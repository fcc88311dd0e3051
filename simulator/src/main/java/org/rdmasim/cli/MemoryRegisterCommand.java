package org.rdmasim.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jfree.data.category.DefaultCategoryDataset;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.Presets;
import org.rdmasim.hardware.TopologyNode;
import org.rdmasim.importers.InputLimits;
import org.rdmasim.importers.env.EnvBlock;
import org.rdmasim.importers.env.EnvBlockException;
import org.rdmasim.transport.config.EnvEntry;
import org.rdmasim.memory.HcaRegistration;
import org.rdmasim.transport.ucx.StackProfile;
import org.rdmasim.memory.MttSizing;
import org.rdmasim.memory.RegistrationCaps;
import org.rdmasim.memory.RegistrationLimits;
import org.rdmasim.memory.RegistrationLimits.FirmwareCapScope;
import org.rdmasim.memory.RegistrationModel;
import org.rdmasim.memory.RegistrationParameters;
import org.rdmasim.memory.RegistrationPlan;
import org.rdmasim.memory.RegistrationVerdict;
import org.rdmasim.memory.RegistrationVerdict.LimitKind;
import org.rdmasim.memory.VariantRegistration;
import org.rdmasim.report.ChartFiles;
import org.rdmasim.report.Charts;
import org.rdmasim.transport.config.ConfigResolver;
import org.rdmasim.transport.config.ConfigValueException;
import org.rdmasim.transport.config.EffectiveConfig;
import org.rdmasim.transport.config.StackSetup;
import org.rdmasim.transport.config.StackLibrary;
import org.rdmasim.transport.config.StackVersion;
import org.rdmasim.scenario.Parameters;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code rdmasim memory register}: one GPU buffer (or several) per GPU of a host (preset or file), registered
 * under the given UCX/NIXL configuration, or under the standard ones side by side with
 * {@code --compare}; each checked against the caps. Exit code 1 when a configuration fails (a
 * simulated failure, reported with the real stack's lines), 2 on bad input.
 *
 * <p>Why one class of this size: one command with several views of one registration model (register,
 * compare, charts), each a few lines of table layout; the model itself lives in {@code memory}.
 */
@Command(name = "register", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Register GPU buffers on a host (a preset or a host file) and check them against firmware, host-memory, "
                + "BAR1 and MTT caps.",
                "Example:",
                "  rdmasim memory register --host hgx-h200 --buffer 40GiB --fw-page-cap 1GiB \\",
                "      --compare",
                "",
                "Exit codes: 0 every configuration fits every cap, 1 one does not (with --compare, NIXL's default "
                        + "on a host it does not fit is such a one, by design), 2 bad input, " + Main.INTERNAL_ERROR_WORDS + "."})
final class MemoryRegisterCommand implements Callable<Integer> {

    /** NIXL and UCX releases before and with the MAX_HCA_PER_GPU fix (NIXL 1.2.0, UCX 1.21.0 per [crusoe-kb-nixl]). */
    static final String NIXL_BEFORE_FIX_RELEASE = "1.1.0";
    static final StackVersion NIXL_BEFORE_FIX = StackVersion.parse(NIXL_BEFORE_FIX_RELEASE);
    static final StackVersion UCX_BEFORE_FIX = new StackVersion(1, 20, 0);
    static final StackVersion NIXL_WITH_FIX = new StackVersion(1, 2, 0);
    static final StackVersion UCX_WITH_FIX = new StackVersion(1, 21, 0);

    private static final Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    private static final Pattern MTT = Pattern.compile("\\s*(\\d{1,2})\\s*,\\s*(\\d{1,2})\\s*");

    @Spec
    CommandSpec spec;

    @Option(names = "--host", paramLabel = "PRESET|FILE", required = true,
            description = "host preset (${COMPLETION-CANDIDATES}), or a host file as topo reads it: an NCCL topology "
                    + "XML or saved nvidia-smi topo -m output (what it leaves unsaid is printed as a warning)",
            completionCandidates = TopoCommand.PresetNames.class)
    String preset;

    @Option(names = "--buffer", paramLabel = "SIZE", required = true, converter = ByteSize.Buffer.class,
            description = "a buffer registered by every GPU's process, e.g. 40GiB or 80GB; repeat for several")
    List<Long> buffers;

    @Option(names = "--gpus", paramLabel = "N", description = "use the first N GPUs (default: all of the host's)")
    Integer gpus;

    @Option(names = "--env", paramLabel = "FILE",
            description = "an env block (shell 'export X=Y' lines or a Kubernetes env: list); repeatable")
    List<Path> envFiles = new ArrayList<>();

    @Option(names = "--set", paramLabel = "KEY=VALUE", description = "one more environment entry; repeatable")
    List<String> sets = new ArrayList<>();

    @Option(names = "--nixl", paramLabel = "VERSION",
            description = "the process uses NIXL's UCX backend of this release (default: plain UCX; "
                    + "with --compare: " + NIXL_BEFORE_FIX_RELEASE + ", a release before the MAX_HCA_PER_GPU fix)")
    String nixl;

    @Option(names = "--ucx", paramLabel = "VERSION", defaultValue = "1.20.0",
            description = "UCX release (default: ${DEFAULT-VALUE}, the last before UCX_MAX_HCA_PER_GPU)")
    String ucx;

    // The four options below are declared parameters (scenario.Parameters): read as a scenario's
    // registration section reads them, with the same ranges.
    @Option(names = "--page-size", paramLabel = "SIZE", defaultValue = "4KiB",
            description = "translation page size: 4KiB, 64KiB or 2MiB (default: 4KiB; scenario: registration.pageSize)")
    String pageSizeText;

    @Option(names = "--fw-page-cap", paramLabel = "SIZE",
            description = "firmware (ICM) page cap on host memory pinned for registrations, at least one 4 KiB page "
                    + "(default: none; scenario: registration.firmwarePageCap)")
    String firmwareCapText;

    @Option(names = "--fw-cap-scope", paramLabel = "hca|vf|host|vm", defaultValue = "hca",
            description = "the cap applies to each HCA (hca, or vf: the firmware's pages are per PCI function, and a "
                    + "VF is one) or to the whole host (host, or vm) (default: ${DEFAULT-VALUE}; scenario: "
                    + "registration.capScope)")
    String firmwareScope;

    @Option(names = "--host-memory", paramLabel = "SIZE",
            description = "physical host memory (default: the preset's; scenario: registration.hostMemory)")
    String hostMemoryText;

    private long pageSize;
    private Long firmwareCap;
    private Long hostMemory;

    /** Reads the declared parameters given as options, each refused with its option's name when bad. */
    private void readParameters() {
        try {
            pageSize = Parameters.PAGE_SIZE.fromOption(pageSizeText).bytes();
            firmwareCap = firmwareCapText == null ? null : Parameters.FIRMWARE_PAGE_CAP.fromOption(firmwareCapText);
            hostMemory = hostMemoryText == null ? null : Parameters.HOST_MEMORY.fromOption(hostMemoryText);
            Parameters.CAP_SCOPE.fromOption(firmwareScope);
        } catch (IllegalArgumentException e) {
            throw new BadInputException(e.getMessage());
        }
    }

    @Option(names = "--mtt", paramLabel = "LOG_NUM_MTT,LOG_MTTS_PER_SEG",
            description = "mlx4 MTT limit per HCA: 2^log_num_mtt * 2^log_mtts_per_seg * page size (default: none)")
    String mtt;

    @Option(names = "--compare", description = "run the standard configurations side by side: UCX defaults; "
            + "NIXL default (try); UCX_IB_PCI_RELAXED_ORDERING=auto; NIXL 1.2 + UCX 1.21 (MAX_HCA_PER_GPU=auto); "
            + "UCX_MAX_HCA_PER_GPU=1")
    boolean compare;

    @Option(names = "--out", paramLabel = "DIR", description = "write charts (PNG and SVG) into DIR")
    Path out;

    /** One configuration to register under: versions and the entries it adds to the user's environment. */
    record Configuration(String name, Optional<StackVersion> nixl, StackVersion ucx, List<EnvEntry> extraEnv) {
    }

    /** A configuration's result. */
    record Row(Configuration configuration, EffectiveConfig sample, VariantRegistration.Outcome outcome) {
    }

    @picocli.CommandLine.Mixin
    JsonOutput output = new JsonOutput();

    @picocli.CommandLine.Mixin
    HostFileOptions hostFile = new HostFileOptions();

    @Override
    public Integer call() throws IOException {
        readParameters();
        Host host = host();
        if (out != null) {
            out = MemoryCommand.prepareOutput(out);
        }
        List<EnvEntry> userEnv = userEnvironment();
        RegistrationModel model = new RegistrationModel(RegistrationParameters.defaults().withPageSizeBytes(pageSize));
        RegistrationCaps caps = caps();
        List<TopologyNode> usedGpus = usedGpus(host);
        List<VariantRegistration.Buffer> requests = new ArrayList<>();
        for (TopologyNode gpu : usedGpus) {
            for (long size : buffers) {
                requests.add(VariantRegistration.Buffer.gpu(host.name(), gpu.name(), size));
            }
        }

        List<Row> rows = new ArrayList<>();
        for (Configuration c : configurations()) {
            Map<String, EffectiveConfig> perGpu = new HashMap<>();
            VariantRegistration.ProcessConfigs configs = (h, gpu) -> perGpu.computeIfAbsent(gpu,
                    g -> resolve(h, g, userEnv, c));
            try {
                VariantRegistration.Outcome outcome = VariantRegistration.register(List.of(host), configs, requests,
                        model, caps);
                rows.add(new Row(c, configs.configFor(host, usedGpus.get(0).name()), outcome));
            } catch (ConfigValueException e) {
                // e.g. UCX_NET_DEVICES selecting none of the host's NICs: UCX would not start.
                throw new BadInputException(c.name() + ": " + e.getMessage());
            }
        }

        PrintWriter w = spec.commandLine().getOut();
        if (output.json) {
            JsonOutput.print(w, json(host, usedGpus.size(), caps.limitsFor(host), rows));
        } else {
            print(w, host, usedGpus.size(), caps.limitsFor(host), rows);
        }
        w.flush();
        if (out != null) {
            writeCharts(host, usedGpus.size(), caps, rows);
            writeGrowthChart(host, usedGpus, userEnv, model, caps);
            MemoryCommand.recordCharts(out, List.of("memory-pinned-vs-registered", "memory-pinned-host",
                    "memory-mrs-per-buffer"));
            // with --json, standard output holds the JSON object only
            PrintWriter note = output.json ? spec.commandLine().getErr() : w;
            note.println("charts written to " + out);
            note.flush();
        }
        return rows.stream().allMatch(r -> r.outcome().passed()) ? Main.OK : Main.VARIANT_FAILED;
    }

    private Host host() {
        Host host;
        if (Presets.exists(preset)) {
            hostFile.refuseWithPreset(preset);
            host = new Host(preset.toLowerCase(Locale.ROOT), Presets.get(preset));
        } else if (java.nio.file.Files.isRegularFile(Path.of(preset))) {
            host = imported(Path.of(preset));
        } else {
            throw new BadInputException("'" + preset + "' is neither a host preset (" + String.join(", ", Presets.names())
                    + ") nor a readable host file");
        }
        if (host.gpus().isEmpty() || host.nics().isEmpty()) {
            throw new BadInputException("host preset '" + preset + "' needs at least one GPU and one NIC");
        }
        return host;
    }

    /** The one host a host file describes, its import warnings on stderr. */
    private Host imported(Path file) {
        try {
            org.rdmasim.importers.ImportResult result = org.rdmasim.importers.host.HostFileReader.importFile(file,
                    hostFile.options());
            if (result.hosts().size() != 1) {
                throw new BadInputException(file + " describes " + result.hosts().size() + " hosts; memory register "
                        + "takes one (rdmasim topo " + file + " --host N shows each)");
            }
            for (org.rdmasim.importers.ImportWarning w : result.warnings()) {
                spec.commandLine().getErr().println("rdmasim: " + w.text());
            }
            String name = file.getFileName().toString().replaceFirst("\\.[^.]*$", "");
            return new Host(name, result.hosts().get(0).spec());
        } catch (org.rdmasim.importers.ImportException e) {
            throw new BadInputException(e.getMessage());
        }
    }

    private List<TopologyNode> usedGpus(Host host) {
        int count = gpus == null ? host.gpus().size() : gpus;
        if (count < 1 || count > host.gpus().size()) {
            throw new BadInputException("--gpus must be between 1 and " + host.gpus().size() + " on " + preset
                    + ", got " + count);
        }
        return host.gpus().subList(0, count);
    }

    private List<EnvEntry> userEnvironment() {
        List<EnvEntry> env = new ArrayList<>();
        for (Path file : envFiles) {
            if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
                throw new BadInputException("env block " + file + " does not exist or cannot be read");
            }
            String text;
            try {
                text = InputLimits.read(file);
            } catch (InputLimits.LimitException e) {
                throw new BadInputException("env block " + file + (e.line() > 0 ? ":" + e.line() : "") + ": " + e.getMessage());
            }
            try {
                org.rdmasim.importers.env.EnvBlock block = EnvBlock.parse(text, file.toString());
                env.addAll(block.entries());
                // what the reader passed over or kept as written ('$' not expanded, valueFrom skipped, no env: list)
                block.warnings().forEach(w -> spec.commandLine().getErr().println("rdmasim: warning: "
                        + org.rdmasim.importers.PrintableText.escaped(w)));
            } catch (EnvBlockException e) {
                // The line is named, its text is not: --env may point at a file the user did not mean to show.
                throw new BadInputException("env block " + file + ":" + e.line() + ": not an environment line "
                        + "(expected NAME=VALUE, export NAME=VALUE or a Kubernetes env list)");
            }
        }
        for (int i = 0; i < sets.size(); i++) {
            String s = sets.get(i);
            int eq = s.indexOf('=');
            if (eq <= 0 || !ENV_NAME.matcher(s.substring(0, eq)).matches()) {
                throw new BadInputException("--set '" + s + "': expected KEY=VALUE with KEY a variable name, "
                        + "e.g. UCX_IB_PCI_RELAXED_ORDERING=auto");
            }
            String name = s.substring(0, eq);
            if (org.rdmasim.transport.config.KnownVariables.find(name).isEmpty()
                    && org.rdmasim.transport.config.KnownVariables.isWatched(name)) {
                // typed on this command line to change the answer: a name the model does not read would be
                // silently ignored, so it is refused (an env file's unknown names are warned about instead)
                throw new BadInputException(org.rdmasim.transport.config.KnownVariables.unknownVariableRefusal(name,
                        "--set"));
            }
            env.add(new EnvEntry(name, s.substring(eq + 1), "--set", i + 1));
        }
        for (EnvEntry e : env) {
            if (!e.source().equals("--set") && org.rdmasim.transport.config.KnownVariables.find(e.name()).isEmpty()
                    && org.rdmasim.transport.config.KnownVariables.isWatched(e.name())) {
                spec.commandLine().getErr().println("rdmasim: warning: " + org.rdmasim.transport.config.KnownVariables
                        .unknownVariableWarning(e.name(), e.source() + ":" + e.line()));
            }
        }
        return env;
    }

    private RegistrationCaps caps() {
        RegistrationCaps caps = RegistrationCaps.none();
        if (firmwareCap != null) {
            FirmwareCapScope scope = Parameters.CAP_SCOPE.fromOption(firmwareScope);
            caps = caps.withFirmwarePageCap(firmwareCap, scope);
        }
        if (hostMemory != null) {
            caps = caps.withHostMemory(hostMemory);
        }
        if (mtt != null) {
            Matcher m = MTT.matcher(mtt);
            if (!m.matches()) {
                throw new BadInputException("--mtt '" + mtt + "': expected LOG_NUM_MTT,LOG_MTTS_PER_SEG such as 20,3");
            }
            caps = caps.withMttLimit(MttSizing.maxRegisterableBytes(Integer.parseInt(m.group(1)),
                    Integer.parseInt(m.group(2)), pageSize));
        }
        return caps;
    }

    private StackVersion version(String text, String option, StackLibrary library) {
        StackVersion release;
        try {
            release = library.release(text);
        } catch (IllegalArgumentException e) {
            throw new BadInputException(option + " " + e.getMessage());
        }
        library.unknown(release).ifPresent(why -> {
            throw new BadInputException(option + " " + text + ": " + why);
        });
        return release;
    }

    private static StackVersion atLeast(StackVersion v, StackVersion floor) {
        return v.atLeast(floor) ? v : floor;
    }

    List<Configuration> configurations() {
        StackVersion ucxVersion = version(ucx, "--ucx", StackLibrary.UCX);
        Optional<StackVersion> nixlVersion = nixl == null ? Optional.empty() : Optional.of(version(nixl, "--nixl", StackLibrary.NIXL));
        if (!compare) {
            String name = nixlVersion.map(v -> "NIXL " + v + " + ").orElse("") + "UCX " + ucxVersion;
            return List.of(new Configuration(name, nixlVersion, ucxVersion, List.of()));
        }
        StackVersion nixlBefore = nixlVersion.orElse(NIXL_BEFORE_FIX);
        StackVersion nixlFixed = atLeast(nixlBefore, NIXL_WITH_FIX);
        StackVersion ucxFixed = atLeast(ucxVersion, UCX_WITH_FIX);
        return List.of(
                new Configuration("UCX defaults", Optional.empty(), ucxVersion, List.of()),
                new Configuration("NIXL default (try)", Optional.of(nixlBefore), ucxVersion, List.of()),
                new Configuration("RELAXED_ORDERING=auto", Optional.of(nixlBefore), ucxVersion,
                        List.of(compareEntry("UCX_IB_PCI_RELAXED_ORDERING", "auto"))),
                new Configuration("NIXL " + nixlFixed + " + UCX " + ucxFixed, Optional.of(nixlFixed), ucxFixed,
                        List.of()),
                new Configuration("MAX_HCA_PER_GPU=1", Optional.of(nixlFixed), ucxFixed,
                        List.of(compareEntry("UCX_MAX_HCA_PER_GPU", "1"))));
    }

    private static EnvEntry compareEntry(String name, String value) {
        return new EnvEntry(name, value, "--compare", 1);
    }

    private static EffectiveConfig resolve(Host host, String gpu, List<EnvEntry> userEnv, Configuration c) {
        // The configuration's own variable replaces the user's, so each column shows what it names.
        List<EnvEntry> env = new ArrayList<>();
        for (EnvEntry e : userEnv) {
            if (c.extraEnv().stream().noneMatch(x -> x.name().equals(e.name()))) {
                env.add(e);
            }
        }
        env.addAll(c.extraEnv());
        int index = host.gpus().indexOf(host.gpu(gpu));
        StackSetup setup = new StackSetup(env, c.nixl(), c.ucx(), List.of(), gpu, index, StackProfile.nicView(host));
        try {
            return ConfigResolver.resolve(setup);
        } catch (ConfigValueException e) {
            throw new BadInputException(e.getMessage());
        }
    }

    // ---- output ----

    /** The table's figures as JSON: one entry per configuration, bytes and seconds. */
    private com.fasterxml.jackson.databind.node.ObjectNode json(Host host, int gpuCount, RegistrationLimits limits,
            List<Row> rows) {
        var o = JsonOutput.start("memory register");
        o.put("host", host.name());
        o.put("hostModel", host.spec().model());
        o.put("gpus", gpuCount);
        var sizes = o.putArray("bufferBytes");
        buffers.forEach(sizes::add);
        o.put("pageSizeBytes", pageSize);
        var l = o.putObject("limits");
        putLimit(l, "firmwarePageCapBytes", limits.firmwarePageCapBytes());
        l.put("firmwareCapScope", limits.firmwareCapScope() == FirmwareCapScope.PER_HCA ? "hca" : "host");
        putLimit(l, "hostMemoryBytes", limits.hostMemoryBytes());
        putLimit(l, "bar1BytesPerGpu", limits.bar1BytesPerGpu());
        putLimit(l, "mttMaxRegisterableBytesPerHca", limits.mttMaxRegisterableBytes());
        var list = o.putArray("configurations");
        for (Row r : rows) {
            VariantRegistration.HostOutcome h = r.outcome().hosts().get(0);
            var c = list.addObject();
            c.put("name", r.configuration().name());
            c.put("nixl", r.configuration().nixl().map(Object::toString).orElse(null));
            c.put("ucx", r.configuration().ucx().toString());
            c.put("relaxedOrdering", r.sample().rawValue("UCX_IB_PCI_RELAXED_ORDERING"));
            c.put("maxHcaPerGpu", r.sample().maxHcaPerGpu().toString());
            c.put("mrsPerBuffer", mrsPerBuffer(h.plans()));
            c.put("mrs", r.outcome().totals().mrCount());
            c.put("translationBytes", r.outcome().totals().translationBytes());
            c.put("pinnedHostBytes", r.outcome().totals().pinnedHostBytes());
            c.put("busiestHcaBytes", busiestHca(h.plans()));
            c.put("registrationSeconds", r.outcome().totals().summedSeconds());
            // the host's registration wall (RegistrationTotals says who waits for whom); its name is kept
            c.put("slowestGpuRegistrationSeconds", h.totals().wallSeconds());
            var caps = c.putObject("caps");
            Map<LimitKind, String> keys = new java.util.LinkedHashMap<>();
            keys.put(LimitKind.FIRMWARE_PAGE_CAP, "firmwarePageCap");
            keys.put(LimitKind.HOST_MEMORY, "hostMemory");
            keys.put(LimitKind.BAR1, "bar1");
            keys.put(LimitKind.MTT, "mtt");
            keys.forEach((kind, key) -> {
                String v = capVerdict(h, kind);
                caps.put(key, v.equals("-") ? "not checked" : v);
            });
            c.put("passed", r.outcome().passed());
            if (!h.verdict().passed()) {
                var f = c.putObject("failure");
                f.put("limit", limitName(h.verdict().limit()));
                var lines = f.putArray("lines");
                h.verdict().messageLines().forEach(lines::add);
            }
            var warnings = c.putArray("warnings");
            h.warnings().forEach(warnings::add);
            h.verdict().warnings().forEach(warnings::add);
        }
        return o;
    }

    private static void putLimit(com.fasterxml.jackson.databind.node.ObjectNode o, String field, long bytes) {
        if (bytes == RegistrationLimits.UNLIMITED) {
            o.putNull(field);
        } else {
            o.put(field, bytes);
        }
    }

    private void print(PrintWriter w, Host host, int gpuCount, RegistrationLimits limits, List<Row> rows) {
        String sizes = String.join(" + ", buffers.stream().map(ByteSize::format).toList());
        w.printf(Locale.ROOT, "%s (%s, CPU %s): %d GPU%s x %s, %s translation pages%n", host.name(),
                host.spec().model(), host.spec().cpuFamily().name().toLowerCase(Locale.ROOT), gpuCount,
                gpuCount == 1 ? "" : "s", sizes, ByteSize.format(pageSize));
        w.printf(Locale.ROOT, "limits: firmware page cap %s; host memory %s; BAR1 %s per GPU; MTT %s%n",
                capText(limits.firmwarePageCapBytes(), limits.firmwareCapScope() == FirmwareCapScope.PER_HCA
                        ? " per HCA" : " per host"),
                capText(limits.hostMemoryBytes(), ""), capText(limits.bar1BytesPerGpu(), ""),
                capText(limits.mttMaxRegisterableBytes(), " per HCA"));
        w.println();
        List<String[]> table = new ArrayList<>();
        table.add(new String[] {"CONFIGURATION", "RELAXED", "MAX_HCA", "MRS/BUFFER", "MRS", "TRANSLATION",
                "PINNED HOST", "BUSIEST HCA", "REG/GPU", "REG SUM", "FW CAP", "HOST MEM", "BAR1", "MTT", "VERDICT"});
        for (Row r : rows) {
            VariantRegistration.HostOutcome h = r.outcome().hosts().get(0);
            table.add(new String[] {r.configuration().name(),
                    r.sample().rawValue("UCX_IB_PCI_RELAXED_ORDERING"), r.sample().maxHcaPerGpu().toString(),
                    mrsPerBuffer(h.plans()), Long.toString(r.outcome().totals().mrCount()),
                    ByteSize.format(r.outcome().totals().translationBytes()),
                    ByteSize.format(r.outcome().totals().pinnedHostBytes()), ByteSize.format(busiestHca(h.plans())),
                    String.format(Locale.ROOT, "%.2f s", h.totals().wallSeconds()),
                    String.format(Locale.ROOT, "%.2f s", r.outcome().totals().summedSeconds()),
                    capVerdict(h, LimitKind.FIRMWARE_PAGE_CAP), capVerdict(h, LimitKind.HOST_MEMORY),
                    capVerdict(h, LimitKind.BAR1), capVerdict(h, LimitKind.MTT),
                    r.outcome().passed() ? "ok" : "FAILED"});
        }
        printTable(w, table);
        // the registration time is priced with these terms (the buffers here are GPU memory, one registration each)
        w.println();
        w.println("REG/GPU: the slowest GPU's registrations, the wall a first pull waits for:");
        StringBuilder line = new StringBuilder(" ");
        for (String word : (org.rdmasim.memory.RegistrationTotals.RULE + ";").split(" ")) {
            if (line.length() + 1 + word.length() > 100) {
                w.println(line);
                line.setLength(0);
                line.append(' ');
            }
            line.append(' ').append(word);
        }
        w.println(line);
        w.printf(Locale.ROOT, "REG SUM: all %d GPUs' registrations added up (the host's registration work, "
                + "as one process doing it serially would take).%n", gpuCount);
        w.println("Each is one registration per buffer and GPU, priced with");
        for (var term : RegistrationParameters.defaults().terms(true, false)) {
            w.println("  " + term.what().replaceFirst("^registration: ", "") + " (" + term.kind().word() + ": "
                    + term.source() + ")");
        }
        List<String> limitWarnings = new ArrayList<>();
        for (Row r : rows) {
            r.outcome().hosts().get(0).verdict().warnings().stream().filter(x -> !limitWarnings.contains(x))
                    .forEach(limitWarnings::add);
        }
        for (String warning : limitWarnings) {
            w.println();
            w.println("warning (all configurations):");
            warning.lines().forEach(l -> w.println("  " + l));
        }
        Map<List<String>, String> failuresSeen = new HashMap<>();
        for (Row r : rows) {
            VariantRegistration.HostOutcome h = r.outcome().hosts().get(0);
            String name = r.configuration().name();
            if (h.verdict().passed() && h.warnings().isEmpty()) {
                continue;
            }
            w.println();
            for (String warning : h.warnings()) {
                w.println(name + ": warning: " + warning);
            }
            if (h.verdict().passed()) {
                continue;
            }
            String earlier = failuresSeen.putIfAbsent(h.verdict().messageLines(), name);
            if (earlier != null) {
                w.println(name + ": registration fails at the " + limitName(h.verdict().limit())
                        + ", with the same lines as " + earlier);
                continue;
            }
            w.println(name + ": registration fails at the " + limitName(h.verdict().limit()) + ":");
            h.verdict().messageLines().forEach(l -> w.println("  " + l));
        }
    }

    private static String capText(long bytes, String scope) {
        return bytes == RegistrationLimits.UNLIMITED ? "none" : ByteSize.format(bytes) + scope;
    }

    private static String limitName(LimitKind kind) {
        return switch (kind) {
            case FIRMWARE_PAGE_CAP -> "firmware page cap";
            case HOST_MEMORY -> "host memory";
            case BAR1 -> "BAR1 aperture";
            case MTT -> "MTT limit";
            case NONE -> "no limit";
        };
    }

    private static String capVerdict(VariantRegistration.HostOutcome h, LimitKind kind) {
        RegistrationVerdict v = h.perLimit().get(kind);
        return v == null ? "-" : v.passed() ? "ok" : "fail";
    }

    /** "16", or "1-2" when the GPUs' buffers differ (e.g. a NIC list that skips some GPUs' nearest NIC). */
    static String mrsPerBuffer(List<RegistrationPlan> plans) {
        int min = plans.stream().mapToInt(RegistrationPlan::totalMrs).min().orElse(0);
        int max = plans.stream().mapToInt(RegistrationPlan::totalMrs).max().orElse(0);
        return min == max ? Integer.toString(max) : min + "-" + max;
    }

    /** Firmware bytes on the HCA that holds the most, over all planned registrations. */
    static long busiestHca(List<RegistrationPlan> plans) {
        Map<String, Long> perHca = new TreeMap<>();
        for (RegistrationPlan p : plans) {
            for (HcaRegistration r : p.perHca()) {
                perHca.merge(r.hca().name(), r.firmwareBytes(), Long::sum);
            }
        }
        return perHca.values().stream().mapToLong(Long::longValue).max().orElse(0);
    }

    private static void printTable(PrintWriter w, List<String[]> table) {
        int[] width = new int[table.get(0).length];
        for (String[] row : table) {
            for (int i = 0; i < row.length; i++) {
                width[i] = Math.max(width[i], row[i].length());
            }
        }
        for (String[] row : table) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < row.length; i++) {
                line.append(i == 0 ? String.format("%-" + width[i] + "s", row[i])
                        : String.format("  %" + width[i] + "s", row[i]));
            }
            w.println(line.toString().stripTrailing());
        }
    }

    /**
     * Pinned host memory per configuration as the registered size per GPU grows from a tenth of the
     * GPU's memory to all of it, with the caps as lines: where each configuration crosses the cap.
     */
    private void writeGrowthChart(Host host, List<TopologyNode> gpus, List<EnvEntry> userEnv, RegistrationModel model,
            RegistrationCaps caps) throws IOException {
        double gib = 0x1p30;
        long hbm = gpus.get(0).gpu().hbmBytes();
        org.jfree.data.xy.XYSeriesCollection data = new org.jfree.data.xy.XYSeriesCollection();
        for (Configuration c : configurations()) {
            Map<String, EffectiveConfig> perGpu = new HashMap<>();
            VariantRegistration.ProcessConfigs configs = (h, gpu) -> perGpu.computeIfAbsent(gpu,
                    g -> resolve(h, g, userEnv, c));
            org.jfree.data.xy.XYSeries series = new org.jfree.data.xy.XYSeries(c.name());
            for (int k = 1; k <= 10; k++) {
                long size = hbm * k / 10;
                List<VariantRegistration.Buffer> requests = new ArrayList<>();
                for (TopologyNode gpu : gpus) {
                    requests.add(VariantRegistration.Buffer.gpu(host.name(), gpu.name(), size));
                }
                VariantRegistration.Outcome o = VariantRegistration.register(List.of(host), configs, requests, model,
                        RegistrationCaps.none());
                series.add(size / gib, o.totals().pinnedHostBytes() / gib);
            }
            data.addSeries(series);
        }
        List<Charts.Reference> refs = new ArrayList<>();
        if (caps.firmwarePageCapBytes() != RegistrationLimits.UNLIMITED
                && caps.firmwareCapScope() == FirmwareCapScope.PER_HOST) {
            refs.add(new Charts.Reference("firmware page cap per host", caps.firmwarePageCapBytes() / gib));
        }
        ChartFiles.write(Charts.lines(String.format(Locale.ROOT, "%s: pinned host memory vs registered memory (%d GPUs)",
                host.name(), gpus.size()), "registered per GPU (GiB)", "pinned host memory (GiB)", data, refs), out,
                "memory-pinned-vs-registered");
    }

    private void writeCharts(Host host, int gpuCount, RegistrationCaps caps, List<Row> rows) throws IOException {
        double gib = 0x1p30;
        long registered = gpuCount * buffers.stream().mapToLong(Long::longValue).sum();
        DefaultCategoryDataset pinned = new DefaultCategoryDataset();
        DefaultCategoryDataset mrs = new DefaultCategoryDataset();
        for (Row r : rows) {
            List<RegistrationPlan> plans = r.outcome().hosts().get(0).plans();
            pinned.addValue(r.outcome().totals().pinnedHostBytes() / gib, "pinned host memory, all HCAs",
                    r.configuration().name());
            pinned.addValue(busiestHca(plans) / gib, "pinned for the busiest HCA", r.configuration().name());
            mrs.addValue(plans.stream().mapToInt(RegistrationPlan::totalMrs).max().orElse(0), "MRs per buffer",
                    r.configuration().name());
            mrs.addValue(plans.stream().mapToInt(p -> p.perHca().size()).max().orElse(0), "HCAs per buffer",
                    r.configuration().name());
        }
        List<Charts.Reference> refs = new ArrayList<>();
        if (caps.firmwarePageCapBytes() != RegistrationLimits.UNLIMITED) {
            refs.add(new Charts.Reference("firmware page cap" + (caps.firmwareCapScope() == FirmwareCapScope.PER_HCA
                    ? " per HCA" : " per host"), caps.firmwarePageCapBytes() / gib));
        }
        double tallest = rows.stream().mapToLong(r -> r.outcome().totals().pinnedHostBytes()).max().orElse(0) / gib;
        // A host-memory line far above the bars would flatten them; draw it only when it is in range.
        if (caps.hostMemoryBytes().isPresent() && caps.hostMemoryBytes().getAsLong() / gib <= 4 * tallest) {
            refs.add(new Charts.Reference("host memory", caps.hostMemoryBytes().getAsLong() / gib));
        }
        ChartFiles.write(Charts.bars(String.format(Locale.ROOT, "%s: host memory pinned to register %s (%d GPUs)",
                host.name(), ByteSize.format(registered), gpuCount), "GiB", pinned, refs), out, "memory-pinned-host");
        ChartFiles.write(Charts.bars(host.name() + ": registrations per buffer", "count", mrs, List.of()), out,
                "memory-mrs-per-buffer");
    }
}
