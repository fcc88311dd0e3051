package org.rdmasim.scenario;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.rdmasim.hardware.FabricSpec;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.TopologyNode;
import org.rdmasim.transport.LaneSplit;
import org.rdmasim.transport.Operation;
import org.rdmasim.transport.ProtocolParameters;
import org.rdmasim.importers.InputLocation;
import org.rdmasim.importers.env.EnvBlock;
import org.rdmasim.importers.env.EnvBlockException;
import org.rdmasim.transport.config.EnvEntry;
import org.rdmasim.transport.config.ModelExpressBuild;
import org.rdmasim.transport.config.StackLibrary;
import org.rdmasim.transport.config.StackVersion;
import org.rdmasim.transport.config.UcxInstall;
import org.rdmasim.transport.ucx.StackProfile;
import org.rdmasim.transport.ucx.UcxLaneSelection;
import org.rdmasim.workload.FanoutPlan;
import org.rdmasim.workload.TransferItem;
import org.rdmasim.workload.Workload;
import java.util.Optional;

/** Reads a scenario file into validated records; every problem is a {@link ScenarioException}. */
public final class ScenarioLoader {
    private static final Set<String> TOP = Set.of("name", "description", "question", "seed", "replications", "hosts", "fabric",
            "transport", "protocol", "workload", "variants", "references", "registration", "sweep", "faults");
    private static final Set<String> OVERRIDABLE = Set.of("hosts", "fabric", "transport", "protocol", "workload",
            "registration", "faults");

    private ScenarioLoader() {
    }

    /** Loads {@code file}; files it names must be inside its folder unless {@code allowOutside}. */
    public static Scenario load(Path file, boolean allowOutside) {
        return FileScope.with(allowOutside, () -> load(file));
    }

    public static Scenario load(Path file) {
        if (!Files.isRegularFile(file)) {
            throw ScenarioException.notAFile(file, "scenario file");
        }
        Path real = FileScope.scenarioFile(file);
        YamlTree root = YamlTree.parse(real, file.toString());
        String comment = leadingComment(real);
        return read(root, comment);
    }

    /**
     * The scenario in {@code root}, a tree read from {@code file} and perhaps with other values laid
     * over it (a study's knobs): every value passes the same checks as when the file is loaded.
     */
    public static Scenario read(YamlTree root, Path file) {
        return read(root, leadingComment(file));
    }

    public static Scenario parse(String text, String label) {
        return read(YamlTree.parse(text, label), leadingComment(text));
    }

    private static Scenario read(YamlTree root, String comment) {
        root.onlyFields(TOP);
        String name = Names.checked(root.get("name"), "scenario");
        if (!name.matches("[A-Za-z0-9._-]+")) {
            throw root.get("name").error("a scenario name may use letters, digits, '.', '_' and '-' only (it names the report folder)");
        }
        String description = root.has("description") ? root.get("description").text().trim() : comment;
        long seed = root.has("seed") ? root.get("seed").integer() : 1;
        int replications = Math.toIntExact(Parameters.REPLICATIONS.fromYamlOrDefault(root));
        List<VariantSpec> variants = new ArrayList<>();
        Set<String> expectedFailures = new HashSet<>();
        if (!root.has("variants")) {
            variants.add(variant(root, "baseline", description));
        } else {
            Set<String> seen = new HashSet<>();
            for (YamlTree v : root.get("variants").items()) {
                Set<String> allowed = new HashSet<>(OVERRIDABLE);
                allowed.add("name");
                allowed.add("description");
                allowed.add("claim");
                allowed.add("expect");
                v.onlyFields(allowed);
                String vname = Names.checked(v.get("name"), "variant");
                if (!seen.add(vname)) {
                    throw v.get("name").error("two variants are named '" + vname + "'");
                }
                if (v.has("expect")) {
                    if (!v.get("expect").text().equals("failed")) {
                        throw v.get("expect").notOneOf("'failed' (a variant that fails by design)", List.of("failed"));
                    }
                    expectedFailures.add(vname);
                }
                YamlTree merged = root;
                for (Map.Entry<String, YamlTree> e : v.entries().entrySet()) {
                    if (OVERRIDABLE.contains(e.getKey())) {
                        YamlTree over = wrap(v, e.getKey());
                        // A variant's env adds to the base env variable by variable instead of replacing it.
                        if (e.getKey().equals("transport") && e.getValue().has("env") && root.has("transport")
                                && root.get("transport").has("env")) {
                            over = over.renamedIn("transport", "env", VARIANT_ENV);
                        }
                        merged = merged.overlay(over);
                    }
                }
                VariantSpec spec = variant(merged, vname, v.string("description", ""));
                if (v.has("claim") && spec.isRefit()) {
                    throw v.get("claim").error("a claim compares one pull's time; a published refit time belongs in "
                            + "a validation row (validation.ScenarioRuns.refitSeconds)");
                }
                if (v.has("claim")) {
                    spec = spec.withClaim(ClaimReader.claim(v.get("claim"), spec));
                }
                variants.add(spec);
            }
            if (variants.isEmpty()) {
                throw root.get("variants").error("the list of variants is empty");
            }
        }
        List<Scenario.Reference> refs = new ArrayList<>();
        if (root.has("references")) {
            for (YamlTree r : root.get("references").items()) {
                r.onlyFields(Set.of("label", "bandwidth"));
                refs.add(new Scenario.Reference(r.get("label").text(), Quantities.gbps(r.get("bandwidth"))));
            }
        }
        Scenario.Sweep sweep = null;
        if (root.has("sweep")) {
            if (root.has("faults") || variants.stream().anyMatch(x -> !x.faults().isEmpty())) {
                throw root.get("sweep").error("a message-size sweep cannot schedule faults: run them as variants");
            }
            sweep = SweepReader.sweep(root.get("sweep"), variants);
            variants = SweepReader.expand(variants, sweep);
        }
        org.rdmasim.workload.Question question = null;
        if (root.has("question")) {
            try {
                question = org.rdmasim.workload.Question.parse(root.get("question").text());
            } catch (IllegalArgumentException e) {
                throw root.get("question").error(e.getMessage() + YamlTree.suggestion(root.get("question").text().trim(),
                        java.util.Arrays.stream(org.rdmasim.workload.Question.values())
                                .map(org.rdmasim.workload.Question::word).toList()));
            }
            if (question == org.rdmasim.workload.Question.REFIT && variants.stream().noneMatch(VariantSpec::isRefit)) {
                throw root.get("question").error("question: refit needs a variant that runs workload: refit");
            }
        }
        return new Scenario(name, description, root.file(), seed, replications, variants, refs, sweep, expectedFailures,
                question);
    }

    /** Where a variant's transport.env is carried beside the base env while the variant is read. */
    private static final String VARIANT_ENV = "env (variant)";

    /**
     * Where a study's knob on transport.env is carried beside the base env (sweep's {@code Study}): it adds to the
     * base env variable by variable, as a variant's does, and a variant's own env is laid over it the same way.
     */
    public static final String KNOB_ENV = "env (study knob)";

    /** A one-field mapping {@code key: value} cut out of a variant, keeping locations. */
    private static YamlTree wrap(YamlTree variant, String key) {
        return variant.onlyKey(key);
    }

    private static VariantSpec variant(YamlTree v, String name, String description) {
        List<String> warnings = new ArrayList<>();
        HostTable hosts = HostsSection.hosts(v.get("hosts"), warnings);
        // Build one host per shape: a malformed spec fails at its first use, and 16k copies cost one build.
        for (String rep : hosts.representatives()) {
            try {
                hosts.get(rep);
            } catch (IllegalArgumentException ex) {
                throw v.get("hosts").get(HostsSection.groupOf(hosts, rep)).error(ex.getMessage());
            }
        }
        FabricSpec fabric = v.has("fabric") ? FabricReader.fabric(v.get("fabric")) : FabricSpec.nonBlocking();
        ProtocolParameters protocol = v.has("protocol") ? ProtocolReader.protocol(v.get("protocol")) : ProtocolParameters.defaults();
        TransportSettings transport = transport(v.has("transport") ? v.get("transport") : null, warnings);
        amdAssumption(hosts, transport).ifPresent(warnings::add);
        RegistrationSettings registration = v.has("registration") ? RegistrationReader.registration(v.get("registration"))
                : RegistrationSettings.defaults();
        YamlTree work = v.get("workload");
        if (work.isMap() && work.has("refit")) {
            work.onlyFields(Set.of("refit"));
            if (v.has("faults")) {
                throw v.get("faults").error("a refit workload does not schedule faults yet");
            }
            if (v.has("registration")) {
                // a refit prices its registrations (workload.refit.registration) but holds them against no cap:
                // a cap given here would be ignored without a word, so it is refused where it is written
                for (String cap : List.of(Parameters.FIRMWARE_PAGE_CAP.key(), Parameters.CAP_SCOPE.key(),
                        Parameters.HOST_MEMORY.key(), "mttLimit")) {
                    if (v.get("registration").has(cap)) {
                        throw v.get("registration").get(cap).error("a refit does not hold its registrations against "
                                + "registration caps yet (firmwarePageCap, capScope, hostMemory, mttLimit): it prices them "
                                + "(workload.refit.registration) and would ignore this cap; check a cap on a transfer list "
                                + "or fan-out, or with ./rdmasim memory register");
                    }
                }
            }
            if (v.has("transport") && v.get("transport").has("lanes")) {
                throw v.get("transport").get("lanes").error("explicit lanes are not supported with a refit; "
                        + "let the transport backend choose them from the environment");
            }
            org.rdmasim.workload.RefitSpec refit;
            try {
                refit = RefitReader.read(work.get("refit"), hosts, transport.stack(), warnings);
            } catch (org.rdmasim.transport.config.ConfigValueException e) {
                // a value the refit's processes read (NCCL_IB_HCA, or any env value UCX would reject): at its line
                throw TransfersReader.valueSite(v.has("transport") ? v.get("transport") : v, transport, e);
            }
            return new VariantSpec(name, description, hosts.specs(), fabric, transport, protocol, registration,
                    new Workload.Refit(refit), null, warnings, null);
        }
        if (work.isMap() && work.has("fanout")) {
            work.onlyFields(Set.of("fanout"));
            FanoutPlan plan = FanoutReader.read(work.get("fanout"), hosts, transport);
            if (v.has("transport") && v.get("transport").has("lanes")) {
                throw v.get("transport").get("lanes").error("explicit lanes are not supported with a fan-out; "
                        + "let UCX choose them from the environment");
            }
            warnings.addAll(FanoutReader.checkStack(v, transport, fabric, plan,
                    hosts));
            return new VariantSpec(name, description, hosts.specs(), fabric, transport, protocol, registration,
                    new Workload.Fanout(plan), null, warnings, faults(v, hosts, plan, transport));
        }
        List<TransferItem> transfers = TransfersReader.workload(work, hosts, transport);
        if (v.has("transport") && v.get("transport").has("lanes")) {
            TransfersReader.checkLanes(v.get("transport").get("lanes"), transport, transfers, hosts);
        } else {
            warnings.addAll(TransfersReader.checkStack(v, transport, fabric, transfers, hosts));
        }
        return new VariantSpec(name, description, hosts.specs(), fabric, transport, protocol, registration,
                new Workload.Transfers(transfers), null, warnings, faults(v, hosts, null, transport));
    }

    /** The assumption UCX's release makes the model take on the variant's AMD hosts, naming their groups. */
    private static java.util.Optional<String> amdAssumption(HostTable hosts, TransportSettings transport) {
        List<String> amd = new ArrayList<>();
        for (Map.Entry<String, List<String>> g : hosts.groups().entrySet()) {
            if (hosts.specs().get(g.getValue().get(0)).cpuFamily() == org.rdmasim.hardware.CpuFamily.AMD_ZEN) {
                amd.add(g.getKey());
            }
        }
        if (amd.isEmpty()) {
            return java.util.Optional.empty();
        }
        return org.rdmasim.transport.ucx.UcxTopoDistance.amdGenerationAssumption(
                org.rdmasim.hardware.CpuFamily.AMD_ZEN, transport.stack().ucx()).map(w -> "hosts "
                        + (amd.size() > 3 ? String.join(", ", amd.subList(0, 3)) + " and " + (amd.size() - 3) + " more"
                                : String.join(", ", amd)) + ": " + w);
    }

    /** The variant's faults, with the QP retry timing of the environment its first host's process sees. */
    private static org.rdmasim.workload.FaultPlan faults(YamlTree v, HostTable hosts, FanoutPlan plan,
            TransportSettings transport) {
        if (!v.has("faults")) {
            return org.rdmasim.workload.FaultPlan.NONE;
        }
        org.rdmasim.hardware.Host first = hosts.get(hosts.representatives().get(0));
        org.rdmasim.hardware.TopologyNode device = first.gpus().isEmpty() ? first.sockets().get(0) : first.gpus().get(0);
        // the backend answers for the reaction first: one that does not model faults refuses them before
        // their events are read
        org.rdmasim.transport.QpRetry qp;
        try {
            qp = transport.backend().faultReaction(transport.stack(), first, device);
        } catch (IllegalArgumentException e) {
            throw v.get("faults").error(e.getMessage());
        }
        if (!Double.isFinite(qp.errorAfterSeconds())) {
            // A port that stays down would stall its QP for ever: a run with no end, not a result.
            String set = transport.stack().configFor(first, device).get("UCX_RC_TIMEOUT")
                    .map(e -> "UCX_RC_TIMEOUT=" + e.rawValue() + " (" + e.origin() + ")").orElse("UCX_RC_TIMEOUT");
            throw v.get("faults").error(set + " turns the QP's ACK timeout off: UCX writes a timeout of "
                    + Math.round(org.rdmasim.transport.QpRetry.NO_TIMEOUT_FROM_SECONDS) + " s or more as exponent 32 "
                    + "or more, which is no timeout (openucx/ucx src/uct/ib/base/ib_device.c L1179-1190, v1.20.0), "
                    + "so a lane on a port that stays down would wait for ever; with faults, give a timeout below "
                    + Math.round(org.rdmasim.transport.QpRetry.NO_TIMEOUT_FROM_SECONDS) + " s");
        }
        return FaultReader.read(v.get("faults"), hosts, plan, qp,
                transport.stack().configFor(first, device).mxTransferTimeoutSeconds());
    }

    private static TransportSettings transport(YamlTree v, List<String> warnings) {
        if (v == null) {
            return new TransportSettings(Operation.READ, List.of(), StackProfile.plainUcx(), 1, true, false, 0.0,
                    BackendReader.read(null, StackProfile.plainUcx(), UcxLaneSelection.Api.RMA));
        }
        v.onlyFields(Set.of("operation", "lanes", "descriptors", "gpudirect", "acs", "iommuPenalty", "env", "envFile",
                "nixl", "ucx", "nccl", "ucxConf", "ucxInstall", "modelexpress", "api", "backend", "visibleDevices", "qpsPerPeer", "sliceThread"), Set.of(VARIANT_ENV, KNOB_ENV));
        Operation op = v.has("operation") ? operation(v.get("operation")) : Operation.READ;
        List<LaneSplit.Candidate> lanes = new ArrayList<>();
        if (v.has("lanes")) {
            for (YamlTree l : v.get("lanes").items()) {
                l.onlyFields(Set.of("source", "sink", "weight"));
                double w = 1.0;
                if (l.has("weight")) {
                    w = l.get("weight").number();
                    if (!(w > 0)) {
                        throw l.get("weight").error("lane weight must be positive, got " + w);
                    }
                }
                lanes.add(new LaneSplit.Candidate(l.get("source").text(), l.get("sink").text(), w));
            }
            if (lanes.isEmpty()) {
                throw v.get("lanes").error("the list of lanes is empty");
            }
        }
        // Each range was checked before narrowing: a count of 2^32 + 1 is refused, never wrapped to 1.
        int descriptors = Math.toIntExact(Parameters.DESCRIPTORS.fromYamlOrDefault(v));
        boolean gdr = Parameters.GPUDIRECT.fromYamlOrDefault(v);
        boolean acs = Parameters.ACS.fromYamlOrDefault(v);
        double iommu = Parameters.IOMMU_PENALTY.fromYamlOrDefault(v);
        List<EnvEntry> env = new ArrayList<>();
        if (v.has("envFile")) {
            YamlTree f = v.get("envFile");
            Path file = FileScope.resolve(f);
            try {
                EnvBlock block = EnvBlock.parse(FileScope.read(f), file.toString());
                block.entries().forEach(e -> env.add(e.inField(f.path())));
                // what the reader passed over or kept as written ('$' not expanded, valueFrom skipped, no env: list)
                block.warnings().forEach(w -> warnings.add(w.replaceFirst("^(.*?:[0-9]+): ", "$1: "
                        + java.util.regex.Matcher.quoteReplacement(f.path()) + ": ")));
            } catch (EnvBlockException e) {
                // The file's text is not quoted: an envFile may be a file the user did not mean to show.
                throw f.error(file + ":" + e.line() + ": not an environment line (expected NAME=VALUE, "
                        + "export NAME=VALUE or a Kubernetes env list)");
            }
        }
        if (v.has("env")) {
            env.addAll(envEntries(v.get("env"), warnings));
        }
        // a study knob's block, then the variant's, each overrides what is below it by variable name; the rest stays
        for (String layer : List.of(KNOB_ENV, VARIANT_ENV)) {
            if (v.has(layer)) {
                List<EnvEntry> over = envEntries(v.get(layer), warnings);
                Set<String> overridden = new HashSet<>();
                over.forEach(e -> overridden.add(e.name()));
                env.removeIf(e -> overridden.contains(e.name()));
                env.addAll(over);
            }
        }
        Optional<StackVersion> nixl = Optional.empty();
        if (v.has("nixl")) {
            nixl = Optional.of(version(v.get("nixl"), StackLibrary.NIXL));
        }
        StackVersion ucx = v.has("ucx") ? version(v.get("ucx"), StackLibrary.UCX) : StackProfile.DEFAULT_UCX;
        UcxInstall install = UcxInstall.commonFor(nixl);
        boolean installStated = v.has("ucxInstall");
        if (v.has("ucxConf")) {
            YamlTree c = v.get("ucxConf");
            throw c.error("ucxConf is replaced by ucxInstall: nixl-wheel (UCX bundled in NIXL's PyPI wheel, no ucx.conf "
                    + "read) or prefix (UCX installed into a prefix, its ucx.conf read)");
        }
        if (installStated) {
            YamlTree c = v.get("ucxInstall");
            install = UcxInstall.parse(c.text()).orElseThrow(() -> c.notOneOf("nixl-wheel (UCX bundled in NIXL's "
                    + "PyPI wheel: no ucx.conf read) or prefix (UCX installed into a prefix: its ucx.conf read)",
                    List.of("nixl-wheel", "prefix")));
        }
        ModelExpressBuild mx = ModelExpressBuild.LATEST_RELEASE;
        if (v.has("modelexpress")) {
            try {
                mx = ModelExpressBuild.parse(v.get("modelexpress").text());
            } catch (IllegalArgumentException e) {
                throw v.get("modelexpress").error(e.getMessage());
            }
        }
        UcxLaneSelection.Api api = UcxLaneSelection.Api.RMA;
        if (v.has("api")) {
            YamlTree a = v.get("api");
            api = switch (a.text().toLowerCase(Locale.ROOT)) {
                case "rma" -> UcxLaneSelection.Api.RMA;
                case "rendezvous", "rndv", "tag" -> UcxLaneSelection.Api.RENDEZVOUS;
                default -> throw a.notOneOf("rma or rendezvous", List.of("rma", "rendezvous"));
            };
        }
        StackProfile stack = new StackProfile(env, nixl, ucx, install, installStated, mx);
        if (v.has("nccl")) {
            // the NCCL release whose GPUDirect rule explain shows (NcclGdr); NIXL/UCX transfers do not read it
            stack = stack.withNccl(version(v.get("nccl"), StackLibrary.NCCL));
        }
        return new TransportSettings(op, lanes, stack, descriptors, gdr, acs, iommu, BackendReader.read(v, stack, api));
    }

    private static StackVersion version(YamlTree v, StackLibrary library) {
        StackVersion release;
        try {
            release = library.release(v.text());
        } catch (IllegalArgumentException e) {
            throw v.error("expected a release such as '" + library.newestRead() + "', got '" + v.text() + "'");
        }
        library.unknown(release).ifPresent(why -> {
            throw v.error(why);
        });
        return release;
    }

    /**
     * An environment written in the scenario: a block pasted from a shell or a manifest (a string),
     * a list of KEY=VALUE, or a mapping KEY: VALUE. Line numbers point into the scenario file.
     */
    /** The entries of an env block, each held by the block's field (as messages name it). */
    private static List<EnvEntry> envEntries(YamlTree v, List<String> warnings) {
        return envLines(v, warnings).stream().map(e -> e.inField(v.path())).toList();
    }

    /**
     * The variables an env value sets (a block, a list of KEY=VALUE or a mapping, as a scenario's
     * {@code transport.env} takes them), each with the line it is written on; for a study's check of a knob on
     * {@code transport.env} against the variables its variant sets itself.
     */
    public static List<EnvEntry> envVariables(YamlTree v) {
        return envLines(v, new ArrayList<>());
    }

    /**
     * As {@link #envVariables}; what the block's reader warns of ('$' kept as written, a Kubernetes valueFrom skipped,
     * a YAML block with no env: list) is added to {@code warnings} at the scenario line and field it concerns.
     */
    private static List<EnvEntry> envLines(YamlTree v, List<String> warnings) {
        // the file the value was written in: a study's knob laid over a scenario cites the study, not the scenario
        String label = v.origin();
        try {
            if (v.isScalar()) {
                // A literal block's first line is the line after its key. A quoted value is on the key's line,
                // whatever lines its \n escapes make: every entry of it is cited there.
                List<EnvEntry> out = new ArrayList<>();
                EnvBlock block = EnvBlock.parse(v.text(), label);
                for (EnvEntry e : block.entries()) {
                    out.add(new EnvEntry(e.name(), e.value(), label, v.isBlockScalar() ? e.line() + v.line() : v.line()));
                }
                for (String w : block.warnings()) {
                    // the reader counts the block's own lines ("LABEL:N: ..."): moved to the scenario's
                    java.util.regex.Matcher m = java.util.regex.Pattern.compile("^(.*?):([0-9]+): (.*)$",
                            java.util.regex.Pattern.DOTALL).matcher(w);
                    if (m.matches()) {
                        int at = v.isBlockScalar() ? Integer.parseInt(m.group(2)) + v.line() : v.line();
                        warnings.add(label + ":" + at + ": " + v.path() + ": " + m.group(3));
                    } else {
                        warnings.add(v.path() + ": " + w);
                    }
                }
                return out;
            }
            List<EnvEntry> out = new ArrayList<>();
            if (v.isList()) {
                for (YamlTree item : v.items()) {
                    if (item.isMap()) {
                        // A Kubernetes container env list: [{name: X, value: Y}] (valueFrom has no value until the pod runs).
                        item.onlyFields(Set.of("name", "value"));
                        out.add(new EnvEntry(item.get("name").text(), item.has("value") ? item.get("value").text() : "",
                                label, item.line()));
                        continue;
                    }
                    EnvBlock block;
                    try {
                        block = EnvBlock.parse(item.text(), label);
                    } catch (EnvBlockException e) {
                        // at the item, without the reader's own "FILE:1:" (it counts the item's text alone)
                        throw item.error(e.detail());
                    }
                    for (EnvEntry e : block.entries()) {
                        out.add(new EnvEntry(e.name(), e.value(), label, item.line()));
                    }
                }
                return out;
            }
            for (Map.Entry<String, YamlTree> e : v.entries().entrySet()) {
                out.add(new EnvEntry(e.getKey(), e.getValue().text(), label, e.getValue().line()));
            }
            return out;
        } catch (EnvBlockException e) {
            if (v.isScalar()) {
                // Point at the scenario line of the bad entry: the block's own line numbers start below it.
                int offset = v.isBlockScalar() ? v.line() : v.line() - 1;
                throw new ScenarioException(new InputLocation(v.file(), offset, 1).down(e.location().line()),
                        v.path() + ": " + e.detail());
            }
            throw v.error(e.getMessage());
        }
    }

    static Operation operation(YamlTree v) {
        return switch (v.text().toLowerCase(Locale.ROOT)) {
            case "read", "pull", "get" -> Operation.READ;
            case "write", "push", "put" -> Operation.WRITE;
            default -> throw v.notOneOf("read or write", List.of("read", "write"));
        };
    }

    static String leadingComment(Path file) {
        try {
            return leadingComment(Files.readString(file));
        } catch (IOException e) {
            return "";
        }
    }

    static String leadingComment(String text) {
        StringBuilder out = new StringBuilder();
        // Line by line up to the first line of YAML: a file of 4,096 transfers is not split whole for it.
        for (int start = 0; start <= text.length(); ) {
            int end = text.indexOf('\n', start);
            end = end < 0 ? text.length() : end;
            String t = text.substring(start, end).trim();
            start = end + 1;
            if (t.startsWith("#")) {
                out.append(t.replaceFirst("^#+ ?", "")).append('\n');
            } else if (!t.isEmpty() || out.length() > 0) {
                break;
            }
        }
        return out.toString().trim();
    }
}
