package org.rdmasim.scenario;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.rdmasim.hardware.FabricSpec;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.HostSpec;
import org.rdmasim.hardware.TopologyNode;
import org.rdmasim.transport.Endpoint;
import org.rdmasim.transport.LaneSplit;
import org.rdmasim.transport.Operation;
import org.rdmasim.transport.ProtocolParameters;
import org.rdmasim.engine.SimulationClock;
import org.rdmasim.fluid.FluidNetwork;
import org.rdmasim.hardware.Cluster;
import org.rdmasim.importers.env.EnvBlock;
import org.rdmasim.importers.env.EnvBlockException;
import org.rdmasim.transport.config.EnvEntry;
import org.rdmasim.transport.DataPath;
import org.rdmasim.transport.TransferSpec;
import org.rdmasim.transport.config.ConfigValueException;
import org.rdmasim.transport.config.ModelExpressBuild;
import org.rdmasim.transport.config.StackVersion;
import org.rdmasim.transport.ucx.StackProfile;
import org.rdmasim.transport.ucx.UcxLaneSelection;
import org.rdmasim.memory.RegistrationCaps;
import org.rdmasim.memory.RegistrationLimits;
import org.rdmasim.memory.RegistrationParameters;
import org.rdmasim.workload.Claim;
import org.rdmasim.workload.FanoutPlan;
import org.rdmasim.workload.TransferItem;
import java.util.Optional;

/** Reads a scenario file into validated records; every problem is a {@link ScenarioException}. */
public final class ScenarioLoader {
    private static final Set<String> TOP = Set.of("name", "description", "seed", "replications", "hosts", "fabric",
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
            throw new ScenarioException(file.toString(), 0, 0, "no such scenario file");
        }
        YamlTree root = YamlTree.parse(file);
        String comment = leadingComment(file);
        return read(root, comment);
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
        int replications = 1;
        if (root.has("replications")) {
            long r = root.get("replications").integer();
            if (r < 1 || r > 100_000) {
                throw root.get("replications").error("expected 1 to 100000 replications, got " + r);
            }
            replications = (int) r;
        }
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
                        throw v.get("expect").error("expected 'failed' (a variant that fails by design), got '"
                                + v.get("expect").text() + "'");
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
                if (v.has("claim")) {
                    spec = new VariantSpec(spec.name(), spec.description(), spec.hosts(), spec.fabric(), spec.transport(),
                            spec.protocol(), spec.registration(), spec.transfers(), claim(v.get("claim"), spec),
                            spec.warnings(), spec.fanout(), spec.faults());
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
            sweep = sweep(root.get("sweep"), variants);
            variants = expand(variants, sweep);
        }
        return new Scenario(name, description, root.file(), seed, replications, variants, refs, sweep, expectedFailures);
    }

    /** A one-field mapping {@code key: value} cut out of a variant, keeping locations. */
    /** Where a variant's transport.env is carried beside the base env while the variant is read. */
    private static final String VARIANT_ENV = "env (variant)";

    private static YamlTree wrap(YamlTree variant, String key) {
        return variant.onlyKey(key);
    }

    private static VariantSpec variant(YamlTree v, String name, String description) {
        List<String> warnings = new ArrayList<>();
        HostTable hosts = hosts(v.get("hosts"), warnings);
        // Build one host per shape: a malformed spec fails at its first use, and 16k copies cost one build.
        for (String rep : hosts.representatives()) {
            try {
                hosts.get(rep);
            } catch (IllegalArgumentException ex) {
                throw v.get("hosts").get(groupOf(hosts, rep)).error(ex.getMessage());
            }
        }
        FabricSpec fabric = v.has("fabric") ? fabric(v.get("fabric")) : FabricSpec.nonBlocking();
        ProtocolParameters protocol = v.has("protocol") ? protocol(v.get("protocol")) : ProtocolParameters.defaults();
        TransportSettings transport = transport(v.has("transport") ? v.get("transport") : null);
        RegistrationSettings registration = v.has("registration") ? registration(v.get("registration"))
                : RegistrationSettings.defaults();
        YamlTree work = v.get("workload");
        if (work.isMap() && work.has("fanout")) {
            work.onlyFields(Set.of("fanout"));
            FanoutPlan plan = FanoutReader.read(work.get("fanout"), hosts, transport);
            if (v.has("transport") && v.get("transport").has("lanes")) {
                throw v.get("transport").get("lanes").error("explicit lanes are not supported with a fan-out; "
                        + "let UCX choose them from the environment");
            }
            warnings.addAll(FanoutReader.checkStack(v.has("transport") ? v.get("transport") : v, transport, fabric, plan,
                    hosts));
            return new VariantSpec(name, description, hosts.specs(), fabric, transport, protocol, registration, List.of(),
                    null, warnings, plan, faults(v, hosts, plan, transport));
        }
        List<TransferItem> transfers = workload(work, hosts, transport);
        if (v.has("transport") && v.get("transport").has("lanes")) {
            checkLanes(v.get("transport").get("lanes"), transport.lanes(), transfers, hosts);
        } else {
            warnings.addAll(checkStack(v.has("transport") ? v.get("transport") : v, transport, fabric, transfers, hosts));
        }
        return new VariantSpec(name, description, hosts.specs(), fabric, transport, protocol, registration, transfers, null,
                warnings, null, faults(v, hosts, null, transport));
    }

    /** The variant's faults, with the QP retry timing of the environment its first host's process sees. */
    private static org.rdmasim.workload.FaultPlan faults(YamlTree v, HostTable hosts, FanoutPlan plan,
            TransportSettings transport) {
        if (!v.has("faults")) {
            return org.rdmasim.workload.FaultPlan.NONE;
        }
        org.rdmasim.hardware.Host first = hosts.get(hosts.representatives().get(0));
        org.rdmasim.hardware.TopologyNode device = first.gpus().isEmpty() ? first.sockets().get(0) : first.gpus().get(0);
        return FaultReader.read(v.get("faults"), hosts, plan, transport.stack().configFor(first, device));
    }

    private static String groupOf(HostTable hosts, String host) {
        for (Map.Entry<String, List<String>> g : hosts.groups().entrySet()) {
            if (g.getValue().contains(host)) {
                return g.getKey();
            }
        }
        return host;
    }

    /**
     * A published pull time for this variant: {@code pullSeconds} (a number or [low, high]), the NIC
     * count it assumes, and its source. The floor is the largest receiver's bytes at that many of the
     * receiver host's fastest NICs, each at its payload rate (line rate after framing), the same floor
     * explain prints.
     */
    private static Claim claim(YamlTree c, VariantSpec spec) {
        c.onlyFields(Set.of("pullSeconds", "nics", "source"));
        YamlTree p = c.get("pullSeconds");
        double lo;
        double hi;
        if (p.isList()) {
            List<YamlTree> two = p.items();
            if (two.size() != 2) {
                throw p.error("expected one number or [low, high]");
            }
            lo = Quantities.seconds(two.get(0));
            hi = Quantities.seconds(two.get(1));
            if (hi < lo) {
                throw p.error("high is below low");
            }
        } else {
            lo = Quantities.seconds(p);
            hi = lo;
        }
        long n = c.get("nics").integer();
        if (n < 1 || n > 64) {
            throw c.get("nics").error("expected 1 to 64 NICs");
        }
        Map<String, Long> perReceiver = new LinkedHashMap<>();
        double payload = 0;
        for (TransferItem t : spec.transfers()) {
            perReceiver.merge(t.to().toString(), t.bytes(), Long::sum);
            for (HostSpec.NicSpec nic : spec.hosts().get(t.to().host()).nicSpecs()) {
                payload = Math.max(payload, nic.payloadBytesPerSecond());
            }
        }
        long most = perReceiver.values().stream().mapToLong(Long::longValue).max().orElse(0);
        double floor = most / (n * payload);
        return new Claim(c.string("source", ""), lo, hi, (int) n, floor);
    }

    private static Scenario.Sweep sweep(YamlTree v, List<VariantSpec> variants) {
        v.onlyFields(Set.of("messageSize", "messages"));
        YamlTree sizes = v.get("messageSize");
        List<Long> values = new ArrayList<>();
        if (sizes.isList()) {
            for (YamlTree s : sizes.items()) {
                values.add(Quantities.bytes(s));
            }
        } else {
            sizes.onlyFields(Set.of("from", "to", "factor"));
            long from = Quantities.bytes(sizes.get("from"));
            long to = Quantities.bytes(sizes.get("to"));
            long factor = sizes.has("factor") ? sizes.get("factor").integer() : 2;
            if (from < 1 || to < from || factor < 2) {
                throw sizes.error("expected 1 <= from <= to and factor >= 2");
            }
            for (long x = from; x <= to; x *= factor) {
                values.add(x);
                if (x > Long.MAX_VALUE / factor) {
                    break;
                }
            }
        }
        for (long x : values) {
            if (x < 1) {
                throw sizes.error("message sizes must be at least 1 byte");
            }
        }
        if (values.isEmpty() || values.size() > 64) {
            throw sizes.error("expected 1 to 64 message sizes, got " + values.size());
        }
        long messages = v.has("messages") ? v.get("messages").integer() : 1000;
        if (messages < 1 || messages > 1_000_000) {
            throw v.get("messages").error("expected 1 to 1000000 messages per point");
        }
        return new Scenario.Sweep(variants.stream().map(VariantSpec::name).toList(), values, (int) messages);
    }

    private static List<VariantSpec> expand(List<VariantSpec> variants, Scenario.Sweep sweep) {
        List<VariantSpec> out = new ArrayList<>();
        for (VariantSpec v : variants) {
            for (long size : sweep.messageSizes()) {
                List<TransferItem> items = new ArrayList<>();
                for (TransferItem t : v.transfers()) {
                    items.add(new TransferItem(t.id(), t.from(), t.to(), Math.multiplyExact(size, (long) sweep.messages()),
                            t.atSeconds(), t.operation(), sweep.messages(), size));
                }
                out.add(new VariantSpec(Scenario.Sweep.variantName(v.name(), size), v.description(), v.hosts(), v.fabric(),
                        v.transport(), v.protocol(), v.registration(), items, v.claim(), v.warnings()));
            }
        }
        return out;
    }

    private static RegistrationSettings registration(YamlTree v) {
        v.onlyFields(Set.of("pageSize", "firmwarePageCap", "capScope", "hostMemory", "mttLimit"));
        RegistrationParameters params = RegistrationParameters.defaults();
        if (v.has("pageSize")) {
            YamlTree p = v.get("pageSize");
            long bytes = Quantities.bytes(p);
            try {
                params = params.withPageSizeBytes(bytes);
            } catch (IllegalArgumentException e) {
                throw p.error(e.getMessage());
            }
        }
        RegistrationCaps caps = RegistrationCaps.none();
        if (v.has("firmwarePageCap")) {
            RegistrationLimits.FirmwareCapScope scope = RegistrationLimits.FirmwareCapScope.PER_HCA;
            if (v.has("capScope")) {
                YamlTree sc = v.get("capScope");
                scope = switch (sc.text().toLowerCase(Locale.ROOT)) {
                    case "hca", "per-hca" -> RegistrationLimits.FirmwareCapScope.PER_HCA;
                    case "host", "vf", "per-host" -> RegistrationLimits.FirmwareCapScope.PER_HOST;
                    default -> throw sc.error("expected hca or host, got '" + sc.text() + "'");
                };
            }
            caps = caps.withFirmwarePageCap(Quantities.bytes(v.get("firmwarePageCap")), scope);
        }
        if (v.has("hostMemory")) {
            caps = caps.withHostMemory(Quantities.bytes(v.get("hostMemory")));
        }
        if (v.has("mttLimit")) {
            caps = caps.withMttLimit(Quantities.bytes(v.get("mttLimit")));
        }
        return new RegistrationSettings(params, caps);
    }

    /**
     * {@code hosts:} entries: {@code name: {preset: ...}} is one host; {@code name: {preset: ..., count: N,
     * prefix: p}} is a group of N hosts p0..p(N-1) sharing one spec (prefix defaults to the entry's name).
     */
    private static HostTable hosts(YamlTree v, List<String> warnings) {
        Map<String, HostSpec> out = new LinkedHashMap<>();
        Map<String, List<String>> groups = new LinkedHashMap<>();
        for (Map.Entry<String, YamlTree> e : v.entries().entrySet()) {
            Names.checked(e.getValue(), e.getKey(), "host");
            if (!e.getKey().matches("[A-Za-z0-9._-]+")) {
                throw e.getValue().error("host names may use letters, digits, '.', '_' and '-' only");
            }
            YamlTree entry = e.getValue();
            if (entry.isMap() && (entry.has("count") || entry.has("prefix"))) {
                if (!entry.has("count")) {
                    throw entry.get("prefix").error("'prefix' names the hosts of a counted group; add 'count: N'");
                }
                long count = entry.get("count").integer();
                if (count < 1 || count > 1_000_000) {
                    throw entry.get("count").error("expected 1 to 1000000 hosts, got " + count);
                }
                String prefix = entry.has("prefix") ? entry.get("prefix").text() : e.getKey();
                if (!prefix.matches("[A-Za-z0-9._-]+")) {
                    throw entry.get("prefix").error("a prefix may use letters, digits, '.', '_' and '-' only");
                }
                HostSpec spec = HostReader.read(entry.without(Set.of("count", "prefix")), warnings);
                List<String> names = new ArrayList<>((int) count);
                for (int i = 0; i < count; i++) {
                    String n = prefix + i;
                    if (out.putIfAbsent(n, spec) != null) {
                        throw entry.get("count").error("host '" + n + "' of group '" + e.getKey() + "' is already defined");
                    }
                    names.add(n);
                }
                groups.put(e.getKey(), names);
            } else {
                if (out.putIfAbsent(e.getKey(), HostReader.read(entry, warnings)) != null) {
                    throw entry.error("host '" + e.getKey() + "' is already defined by a counted group");
                }
                groups.put(e.getKey(), List.of(e.getKey()));
            }
        }
        if (out.isEmpty()) {
            throw v.error("at least one host is needed");
        }
        return new HostTable(out, groups);
    }

    private static FabricSpec fabric(YamlTree v) {
        v.onlyFields(Set.of("kind", "hostsPerLeaf", "oversubscription", "hopLatency"));
        FabricSpec.Kind kind = FabricSpec.Kind.NON_BLOCKING;
        if (v.has("kind")) {
            YamlTree k = v.get("kind");
            kind = switch (k.text().toLowerCase(Locale.ROOT)) {
                case "non-blocking", "nonblocking" -> FabricSpec.Kind.NON_BLOCKING;
                case "leaf-spine" -> FabricSpec.Kind.LEAF_SPINE;
                case "rail-optimized", "rail-optimised" -> FabricSpec.Kind.RAIL_OPTIMIZED;
                default -> throw k.error("expected non-blocking, leaf-spine or rail-optimized, got '" + k.text() + "'");
            };
        }
        int perLeaf = 1;
        if (v.has("hostsPerLeaf")) {
            long n = v.get("hostsPerLeaf").integer();
            if (n < 1) {
                throw v.get("hostsPerLeaf").error("must be at least 1");
            }
            perLeaf = (int) n;
        }
        double over = 1.0;
        if (v.has("oversubscription")) {
            over = v.get("oversubscription").number();
            if (!(over >= 1.0)) {
                throw v.get("oversubscription").error("must be >= 1 (1 = non-blocking, 2 = 2:1), got " + over);
            }
        }
        double hop = v.has("hopLatency") ? Quantities.seconds(v.get("hopLatency")) : FabricSpec.DEFAULT_HOP_LATENCY;
        return new FabricSpec(kind, perLeaf, over, hop);
    }

    private static ProtocolParameters protocol(YamlTree v) {
        v.onlyFields(Set.of("nicLatency", "pcieHop", "perDescriptor", "perFragment", "maxOutstandingReads", "stagingCopy"));
        ProtocolParameters d = ProtocolParameters.defaults();
        int outstanding = d.maxOutstandingReads();
        if (v.has("maxOutstandingReads")) {
            long n = v.get("maxOutstandingReads").integer();
            if (n < 1 || n > 1024) {
                throw v.get("maxOutstandingReads").error("expected 1 to 1024");
            }
            outstanding = (int) n;
        }
        return new ProtocolParameters(
                v.has("nicLatency") ? Quantities.seconds(v.get("nicLatency")) : d.nicLatencySeconds(),
                v.has("pcieHop") ? Quantities.seconds(v.get("pcieHop")) : d.pcieHopSeconds(),
                v.has("perDescriptor") ? Quantities.seconds(v.get("perDescriptor")) : d.perDescriptorSeconds(),
                v.has("perFragment") ? Quantities.seconds(v.get("perFragment")) : d.perFragmentSeconds(),
                outstanding,
                v.has("stagingCopy") ? Quantities.seconds(v.get("stagingCopy")) : d.stagingCopySeconds());
    }

    private static TransportSettings transport(YamlTree v) {
        if (v == null) {
            return new TransportSettings(Operation.READ, List.of(), StackProfile.plainUcx(), UcxLaneSelection.Api.RMA, 1,
                    true, false, 0.0);
        }
        v.onlyFields(Set.of("operation", "lanes", "descriptors", "gpudirect", "acs", "iommuPenalty", "env", "envFile",
                "nixl", "ucx", "nccl", "ucxConf", "modelexpress", "api", VARIANT_ENV));
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
        int descriptors = 1;
        if (v.has("descriptors")) {
            long n = v.get("descriptors").integer();
            if (n < 1 || n > 100_000_000) {
                throw v.get("descriptors").error("expected 1 to 100000000 descriptors, got " + n);
            }
            descriptors = (int) n;
        }
        boolean gdr = !v.has("gpudirect") || v.get("gpudirect").bool();
        boolean acs = v.has("acs") && v.get("acs").bool();
        double iommu = 0;
        if (v.has("iommuPenalty")) {
            iommu = v.get("iommuPenalty").number();
            if (iommu < 0 || iommu >= 1) {
                throw v.get("iommuPenalty").error("expected a fraction in [0, 1), got " + iommu);
            }
        }
        List<EnvEntry> env = new ArrayList<>();
        if (v.has("envFile")) {
            YamlTree f = v.get("envFile");
            Path file = FileScope.resolve(f);
            try {
                env.addAll(EnvBlock.parse(FileScope.read(f), file.toString()).entries());
            } catch (EnvBlockException e) {
                // The file's text is not quoted: an envFile may be a file the user did not mean to show.
                throw f.error(file + ":" + e.line() + ": not an environment line (expected NAME=VALUE, "
                        + "export NAME=VALUE or a Kubernetes env list)");
            }
        }
        if (v.has("env")) {
            env.addAll(envEntries(v.get("env")));
        }
        if (v.has(VARIANT_ENV)) {
            // the variant's block overrides the base env by variable name; the rest of the base stays
            List<EnvEntry> variantEnv = envEntries(v.get(VARIANT_ENV));
            Set<String> overridden = new HashSet<>();
            variantEnv.forEach(e -> overridden.add(e.name()));
            env.removeIf(e -> overridden.contains(e.name()));
            env.addAll(variantEnv);
        }
        Optional<StackVersion> nixl = Optional.empty();
        if (v.has("nixl")) {
            nixl = Optional.of(version(v.get("nixl")));
        }
        StackVersion ucx = v.has("ucx") ? version(v.get("ucx")) : StackProfile.DEFAULT_UCX;
        boolean ucxConf = true;
        if (v.has("ucxConf")) {
            YamlTree c = v.get("ucxConf");
            ucxConf = switch (c.text().toLowerCase(Locale.ROOT)) {
                case "installed" -> true;
                case "absent" -> false;
                default -> throw c.error("expected installed (UCX reads its ucx.conf) or absent, got '" + c.text() + "'");
            };
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
                default -> throw a.error("expected rma or rendezvous, got '" + a.text() + "'");
            };
        }
        StackProfile stack = new StackProfile(env, nixl, ucx, ucxConf, mx);
        if (v.has("nccl")) {
            // the NCCL release whose GPUDirect rule explain shows (NcclGdr); NIXL/UCX transfers do not read it
            stack = stack.withNccl(version(v.get("nccl")));
        }
        return new TransportSettings(op, lanes, stack, api, descriptors, gdr, acs, iommu);
    }

    private static StackVersion version(YamlTree v) {
        try {
            return StackVersion.parse(v.text());
        } catch (IllegalArgumentException e) {
            throw v.error("expected a release such as '1.21.0', got '" + v.text() + "'");
        }
    }

    /**
     * An environment written in the scenario: a block pasted from a shell or a manifest (a string),
     * a list of KEY=VALUE, or a mapping KEY: VALUE. Line numbers point into the scenario file.
     */
    private static List<EnvEntry> envEntries(YamlTree v) {
        String label = v.file();
        try {
            if (v.isScalar()) {
                // A literal block's first line is the line after its key; a one-line value is on the key's line.
                int offset = v.isBlockScalar() ? v.line() : v.line() - 1;
                List<EnvEntry> out = new ArrayList<>();
                for (EnvEntry e : EnvBlock.parse(v.text(), label).entries()) {
                    out.add(new EnvEntry(e.name(), e.value(), label, e.line() + offset));
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
                    for (EnvEntry e : EnvBlock.parse(item.text(), label).entries()) {
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
                // Point at the scenario line of the bad entry.
                String detail = e.getMessage().substring(e.getMessage().indexOf(": ") + 2);
                int offset = v.isBlockScalar() ? v.line() : v.line() - 1;
                throw new ScenarioException(v.file(), offset + e.line(), 1, v.path() + ": " + detail);
            }
            throw v.error(e.getMessage());
        }
    }

    static Operation operation(YamlTree v) {
        return switch (v.text().toLowerCase(Locale.ROOT)) {
            case "read", "pull", "get" -> Operation.READ;
            case "write", "push", "put" -> Operation.WRITE;
            default -> throw v.error("expected read or write, got '" + v.text() + "'");
        };
    }

    private static List<TransferItem> workload(YamlTree v, HostTable hosts, TransportSettings transport) {
        v.onlyFields(Set.of("transfers", "fanout"));
        List<TransferItem> out = new ArrayList<>();
        int i = 0;
        for (YamlTree t : v.get("transfers").items()) {
            t.onlyFields(Set.of("id", "from", "to", "size", "at", "operation", "descriptors"));
            Endpoint from = endpoint(t.get("from"), hosts);
            Endpoint to = endpoint(t.get("to"), hosts);
            if (from.host().equals(to.host())) {
                throw t.get("to").error("source and destination are on the same host; rdmasim models transfers between hosts");
            }
            long bytes = Quantities.payload(t.get("size"));
            double at = t.has("at") ? Quantities.seconds(t.get("at")) : 0.0;
            Operation op = t.has("operation") ? operation(t.get("operation")) : transport.operation();
            int descriptors = transport.descriptors();
            if (t.has("descriptors")) {
                long n = t.get("descriptors").integer();
                if (n < 1) {
                    throw t.get("descriptors").error("expected at least 1 descriptor");
                }
                descriptors = (int) n;
            }
            String id = t.string("id", "t" + i);
            out.add(new TransferItem(id, from, to, bytes, at, op, descriptors));
            i++;
        }
        if (out.isEmpty()) {
            throw v.get("transfers").error("the workload has no transfer");
        }
        return out;
    }

    static Endpoint endpoint(YamlTree v, HostTable hosts) {
        String text = v.text().trim();
        int colon = text.indexOf(':');
        if (colon <= 0 || colon == text.length() - 1) {
            throw v.error("expected HOST:DEVICE such as 'source:GPU0' or 'source:CPU0', got '" + text + "'");
        }
        String host = text.substring(0, colon);
        String device = text.substring(colon + 1);
        Host h = hosts.get(host);
        if (h == null) {
            throw v.error("no host named '" + host + "' (hosts: " + hosts.describe() + ")");
        }
        TopologyNode node = h.find(device).orElse(null);
        if (node == null || (node.kind() != TopologyNode.Kind.GPU && node.kind() != TopologyNode.Kind.SOCKET)) {
            List<String> names = new ArrayList<>();
            h.gpus().forEach(g -> names.add(g.name()));
            h.sockets().forEach(s -> names.add(s.name()));
            throw v.error("host '" + host + "' has no GPU or CPU named '" + device + "' (has: " + String.join(", ", names) + ")");
        }
        return new Endpoint(host, device);
    }

    private static void checkLanes(YamlTree lanesNode, List<LaneSplit.Candidate> lanes, List<TransferItem> transfers,
            HostTable hosts) {
        List<YamlTree> items = lanesNode.items();
        for (TransferItem t : transfers) {
            for (int i = 0; i < lanes.size(); i++) {
                LaneSplit.Candidate c = lanes.get(i);
                Host src = hosts.get(t.from().host());
                Host dst = hosts.get(t.to().host());
                if (src.find(c.sourceNic()).filter(n -> n.kind() == TopologyNode.Kind.NIC).isEmpty()) {
                    throw items.get(i).get("source").error("host '" + src.name() + "' has no NIC named '" + c.sourceNic()
                            + "' (NICs: " + nicNames(src) + ")");
                }
                if (dst.find(c.sinkNic()).filter(n -> n.kind() == TopologyNode.Kind.NIC).isEmpty()) {
                    throw items.get(i).get("sink").error("host '" + dst.name() + "' has no NIC named '" + c.sinkNic()
                            + "' (NICs: " + nicNames(dst) + ")");
                }
            }
        }
    }

    /**
     * Resolves every process's configuration and lane choice once, so a malformed value or a
     * UCX_NET_DEVICES that selects nothing is reported now, at the scenario's line, not mid-run.
     */
    private static List<String> checkStack(YamlTree where, TransportSettings transport, FabricSpec fabric,
            List<TransferItem> transfers, HostTable hosts) {
        // Lane choice depends on host shapes and devices only: check each distinct pair once, on a
        // cluster of one representative host per shape.
        Map<String, Host> reps = new LinkedHashMap<>();
        Set<String> seen = new HashSet<>();
        List<TransferItem> distinct = new ArrayList<>();
        for (TransferItem t : transfers) {
            Host from = hosts.representative(t.from().host());
            Host to = hosts.representative(t.to().host());
            if (seen.add(from.name() + ":" + t.from().device() + ">" + to.name() + ":" + t.to().device() + ">"
                    + t.operation())) {
                reps.put(from.name(), from);
                reps.put(to.name(), to);
                distinct.add(new TransferItem(t.id(), new Endpoint(from.name(), t.from().device()),
                        new Endpoint(to.name(), t.to().device()), t.bytes(), t.atSeconds(), t.operation(), t.descriptors()));
            }
        }
        return checkLaneChoice(where, transport, fabric, distinct, new ArrayList<>(reps.values()));
    }

    /** Resolves each transfer's configuration and lanes on a cluster of {@code hosts}; errors point at {@code where}. */
    static List<String> checkLaneChoice(YamlTree where, TransportSettings transport, FabricSpec fabric,
            List<TransferItem> transfers, List<Host> hosts) {
        Set<String> warnings = new java.util.LinkedHashSet<>();
        Cluster cluster = new Cluster(hosts, fabric, new FluidNetwork(new SimulationClock()));
        UcxLaneSelection selection = new UcxLaneSelection(transport.stack(), transport.api());
        for (TransferItem t : transfers) {
            TransferSpec spec = new TransferSpec(t.id(), t.from(), t.to(), t.bytes(), t.operation(), t.descriptors(),
                    DataPath.GPUDIRECT, DataPath.GPUDIRECT, false, 0);
            try {
                var decision = selection.decide(cluster, spec);
                if (decision.picked().isEmpty()) {
                    throw where.error("UCX finds no lane for transfer " + t.id());
                }
                warnings.addAll(decision.warnings());
                warnings.addAll(decision.remoteConfig().warnings());
            } catch (ConfigValueException e) {
                throw where.error(e.getMessage());
            }
        }
        return new ArrayList<>(warnings);
    }

    private static String nicNames(Host h) {
        return String.join(", ", h.nics().stream().map(TopologyNode::name).toList());
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
        for (String line : text.split("\n", -1)) {
            String t = line.trim();
            if (t.startsWith("#")) {
                out.append(t.replaceFirst("^#+ ?", "")).append('\n');
            } else if (!t.isEmpty() || out.length() > 0) {
                break;
            }
        }
        return out.toString().trim();
    }
}
