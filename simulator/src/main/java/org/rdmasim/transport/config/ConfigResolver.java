package org.rdmasim.transport.config;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.rdmasim.transport.citation.Citation;
import org.rdmasim.transport.citation.CitedNote;

/**
 * Works out a process's {@link EffectiveConfig} in the order the real stack builds it.
 *
 * <ol>
 *   <li><b>User environment.</b> The process starts with the user's variables. A name set twice
 *       keeps its later value, as a shell or a Kubernetes container spec does.</li>
 *   <li><b>ModelExpress</b> ({@code apply_nic_pin_for_device}, called before the NIXL agent is
 *       built) writes {@code os.environ["UCX_NET_DEVICES"]} unconditionally when
 *       {@code MX_RDMA_NIC_PIN} resolves to a pin, so it replaces a user's
 *       {@code UCX_NET_DEVICES}; the stripe mode also sets {@code UCX_MAX_RMA_RAILS} to the NIC
 *       count when it lists two NICs or more, but only if the environment does not already have it
 *       ({@code modelexpress_client/python/modelexpress/ucx_utils.py} L476 and L489-491, ai-dynamo/modelexpress
 *       commit 2c6fd8ac, the tip of {@code kavink/multi-nic-stripe-mode}).</li>
 *   <li><b>UCX</b> reads its installed {@code ucx.conf} (the section matching the CPU, UCX >= 1.18)
 *       and then the environment into its config ({@code ucp_config_read}); everything in neither
 *       keeps UCX's default.</li>
 *   <li><b>NIXL</b> then edits that config. Its overrides go through {@code config::modify}, which
 *       skips a key whose {@code UCX_} variable is in the environment at that moment (the user's,
 *       or one ModelExpress wrote). The device list given to the agent goes through
 *       {@code config::modifyAlways} and replaces any {@code UCX_NET_DEVICES}. Since only the
 *       environment is checked, NIXL also overrides a value from {@code ucx.conf}.</li>
 * </ol>
 *
 * <p>On the question of ai-dynamo/modelexpress #449 [mx-issue-449]: in the NIXL code read for this
 * model (ai-dynamo/nixl {@code src/plugins/ucx/config.cpp}, {@code config::modify}), a user's
 * {@code UCX_MAX_RMA_RAILS} does win over NIXL's 2 ("UCX env var overrides NIXL's default" is right).
 * The "hard-set" the issue calls the bug describes NIXL before mid-2025: its first version of this code
 * (ai-dynamo/nixl PR #367, 2025-05) called {@code ucp_config_modify(ucp_config, "MAX_RMA_RAILS", "2")} directly,
 * which did override the environment; PR #459 and PR #506 (2025-06) added the getenv check. The
 * NIXL release that first shipped the check was not established, so rdmasim models only the current
 * behaviour. A user's {@code UCX_NET_DEVICES} is the one UCX variable that does not win: both
 * ModelExpress's pin and NIXL's agent device list overwrite it.
 */
public final class ConfigResolver {

    private static final Optional<StackVersion> ANY = Optional.empty();

    private static Optional<StackVersion> v(int major, int minor) {
        return Optional.of(new StackVersion(major, minor, 0));
    }

    /**
     * NIXL's {@code config.modify} calls in {@code nixlUcxContext::nixlUcxContext}, by release, read
     * from the tags ([nixl-src] {@code src/utils/ucx/ucx_utils.cpp} up to 0.9.x, then
     * {@code src/plugins/ucx/ucx_utils.cpp}). Only the settings rdmasim models are listed. NIXL <= 0.3
     * sets nothing but {@code NET_DEVICES}. {@code RC_FENCE=none} (PR #1917) is in no release up to
     * 1.4.0 and is not listed. Each is cited at the NIXL release a scenario names ({@link NixlSite}).
     */
    static final List<NixlOverride> NIXL_OVERRIDES = List.of(
            new NixlOverride("UCX_RNDV_THRESH", "inf", v(0, 4), ANY, ANY, ANY, NixlSite.RNDV_THRESH),
            // 0.4.0 to 0.7.x: config.modify("MAX_RMA_RAILS", "4") when UCX >= 1.20, else "2"
            new NixlOverride("UCX_MAX_RMA_RAILS", "4", v(0, 4), v(0, 8), v(1, 20), ANY, NixlSite.RMA_RAILS_4),
            new NixlOverride("UCX_MAX_RMA_RAILS", "2", v(0, 4), v(0, 8), ANY, v(1, 20), NixlSite.RMA_RAILS_2),
            // config.modify("MAX_RMA_RAILS", "2") whatever the UCX from 0.8.0 ([mx-issue-449]'s ucx_utils.cpp:422 is v1.1.0's)
            new NixlOverride("UCX_MAX_RMA_RAILS", "2", v(0, 8), ANY, ANY, ANY, NixlSite.RMA_RAILS_2),
            new NixlOverride("UCX_IB_PCI_RELAXED_ORDERING", "try", v(0, 9), ANY, ANY, ANY, NixlSite.RELAXED_ORDERING),
            // if (ucpVersion_ >= UCP_VERSION(1, 21)) config.modify("MAX_HCA_PER_GPU", "auto"), from 1.2.0
            new NixlOverride("UCX_MAX_HCA_PER_GPU", "auto", v(1, 2), ANY, v(1, 21), ANY, NixlSite.MAX_HCA_PER_GPU));

    /** The ModelExpress client's file rdmasim's rules were read from, the same path at both commits below. */
    private static final String MX_UCX_UTILS = "modelexpress_client/python/modelexpress/ucx_utils.py";
    /** The ModelExpress client code rdmasim's rules were read from: the newest release, ... */
    private static final String MX_RELEASE = "ai-dynamo/modelexpress v0.5.1 " + MX_UCX_UTILS;
    /**
     * ... and the stripe-mode branch build ({@code kavink/multi-nic-stripe-mode} at its tip, commit 2c6fd8ac of
     * 2026-06-23, the day PR #450's measurements were posted).
     */
    private static final String MX_STRIPE_BUILD = "ai-dynamo/modelexpress 2c6fd8ac " + MX_UCX_UTILS;

    /**
     * Where {@code apply_nic_pin_for_device} writes {@code os.environ["UCX_NET_DEVICES"]}: v0.5.1 L443, 2c6fd8ac L476.
     * The one citation of the pin: the override's why, the value's origin and explain's note all use it.
     */
    static Citation modelExpressPin(ModelExpressBuild build) {
        return Citation.parse(build.stripeMode() ? MX_STRIPE_BUILD + ":476 apply_nic_pin_for_device"
                : MX_RELEASE + ":443 apply_nic_pin_for_device");
    }

    /** A decision note with the public source it follows. */
    private static CitedNote cited(String note, Citation source) {
        return CitedNote.cited(note, source);
    }

    private ConfigResolver() {
    }

    /**
     * Resolves the configuration of the process described by {@code setup}.
     *
     * @throws ConfigValueException when a value UCX would reject is in effect
     */
    public static EffectiveConfig resolve(StackSetup setup) {
        List<String> warnings = new ArrayList<>();
        List<ConfigOverride> overrides = new ArrayList<>();
        List<CitedNote> decisions = new ArrayList<>();
        StackVersion ucx = setup.ucxVersion();

        // 1. the user's environment; later assignments replace earlier ones
        Map<String, EffectiveValue> env = new LinkedHashMap<>();
        for (EnvEntry e : setup.userEnv()) {
            EffectiveValue previous = env.get(e.name());
            if (previous != null && !previous.rawValue().equals(e.value())) {
                warnings.add(e.name() + " is set twice (" + previous.origin() + " and " + e.location()
                        + "); the later value '" + KnownVariables.shownValue(e.name(), e.value()) + "' is used");
            }
            env.put(e.name(), new EffectiveValue(e.name(), e.value(), ConfigLayer.USER, e.location()));
            if (KnownVariables.find(e.name()).isEmpty() && KnownVariables.isWatched(e.name())
                    && previous == null) {
                warnings.add(KnownVariables.unknownVariableWarning(e.name(), e.location()));
            }
        }
        EffectiveValue tls = env.get("UCX_TLS");
        if (tls != null && !allowsRc(tls.rawValue())) {
            // UCX_TLS is recognised, not modelled: a list without an RC transport (UCX_TLS=tcp) ran as RC RDMA
            // lanes without a word, where UCX would move the data some other way or not at all
            warnings.add("UCX_TLS='" + tls.rawValue() + "' (" + tls.origin() + ") names no RC transport (rc, rc_x, "
                    + "rc_v, rc_mlx5, rc_verbs, ib or all; openucx/ucx v1.20.0 src/ucp/core/ucp_context.c:709-731 "
                    + "ucp_tl_aliases): UCX would not use the rc_mlx5 lanes rdmasim models; rdmasim does not model "
                    + "UCX_TLS and answers as if it allowed them");
        }

        if (env.containsKey("NCCL_NET_GDR_LEVEL")) {
            decisions.add(CitedNote.uncited("NCCL_NET_GDR_LEVEL is read by NCCL only: NIXL/UCX transfers use "
                    + "GPUDirect whenever GPU memory can be registered with the NIC, whatever the path type"));
        }

        // 2. ModelExpress rewrites the environment before NIXL starts
        applyModelExpress(setup, env, warnings, decisions, overrides);

        // 3. UCX reads the environment over its defaults (UCX variables it does not know are unused)
        Map<String, EffectiveValue> config = new LinkedHashMap<>();
        for (KnownVariable k : KnownVariables.all()) {
            if (k.hasDefault()) {
                config.put(k.name(), new EffectiveValue(k.name(), k.defaultValue(), ConfigLayer.DEFAULT,
                        k.source()));
            }
        }
        // 3a. the installed ucx.conf section for this CPU sits between the defaults and the environment
        for (UcxConfFile.Setting c : setup.ucxConf().settings()) {
            if (!env.containsKey(c.name())) {
                config.put(c.name(), new EffectiveValue(c.name(), c.value(), ConfigLayer.UCX_CONF,
                        c.citation().text() + " " + setup.ucxConf().section()));
                decisions.add(cited("ucx.conf " + setup.ucxConf().section() + " set " + c.name() + "=" + c.value(),
                        c.citation()));
            }
        }
        for (EffectiveValue v : env.values()) {
            Optional<KnownVariable> known = KnownVariables.find(v.name());
            if (known.isEmpty()) {
                continue;
            }
            if (!known.get().knownTo(ucx)) {
                warnings.add("UCX " + ucx + " does not know " + v.name() + " (added in "
                        + known.get().sinceUcx() + "): UCX reports it as an unused environment variable "
                        + "and keeps its older behaviour (" + known.get().defaultValue() + ")");
                if (v.layer() == ConfigLayer.USER) {
                    overrides.add(new ConfigOverride(v.name(), v.rawValue(), ConfigOverride.fileAndLine(v.origin()),
                            known.get().defaultValue(),
                            ConfigLayer.DEFAULT, "UCX " + ucx + " has no " + v.name() + " (added in "
                                    + known.get().sinceUcx() + "): an unused environment variable, the older "
                                    + "behaviour stays"));
                }
                continue;
            }
            config.put(v.name(), v);
        }

        // 4. NIXL edits the UCX config
        setup.nixlVersion().ifPresent(nixl -> applyNixl(setup, nixl, env, config, warnings, decisions));

        return new EffectiveConfig(config.values(), ucx, warnings, decisions, overrides);
    }

    /**
     * Whether a {@code UCX_TLS} list leaves UCX an RC transport, through the aliases of
     * openucx/ucx v1.20.0 src/ucp/core/ucp_context.c:709-731 ucp_tl_aliases ({@code rc}: rc_mlx5 and rc_verbs;
     * {@code rc_x}: rc_mlx5; {@code rc_v}: rc_verbs; {@code ib}: every IB transport), the names themselves or
     * {@code all}; a list opening with {@code ^} excludes what it names, and a leading backslash asks for a name
     * exactly, not as an alias.
     */
    static boolean allowsRc(String value) {
        String v = value.strip();
        boolean negated = v.startsWith("^");
        java.util.Set<String> names = new java.util.HashSet<>();
        for (String t : (negated ? v.substring(1) : v).split(",")) {
            String n = t.strip().toLowerCase(java.util.Locale.ROOT);
            names.add(n.startsWith("\\") ? n.substring(1) : n);
        }
        names.remove("");
        if (!negated) {
            return names.isEmpty() || names.stream().anyMatch(n -> java.util.Set.of("all", "ib", "rc", "rc_x", "rc_v",
                    "rc_mlx5", "rc_verbs").contains(n));
        }
        boolean mlx5Out = names.contains("ib") || names.contains("rc") || names.contains("rc_x")
                || names.contains("rc_mlx5");
        boolean verbsOut = names.contains("ib") || names.contains("rc") || names.contains("rc_v")
                || names.contains("rc_verbs");
        return !(mlx5Out && verbsOut);
    }

    private static void applyModelExpress(StackSetup setup, Map<String, EffectiveValue> env,
            List<String> warnings, List<CitedNote> decisions, List<ConfigOverride> overrides) {
        EffectiveValue pinVar = env.get("MX_RDMA_NIC_PIN");
        if (pinVar == null) {
            return;
        }
        NicPin pin = NicPin.parse(pinVar.rawValue());
        NicPin.Mode mode = pin.mode();
        if (mode == NicPin.Mode.STRIPE && !setup.modelExpress().stripeMode()) {
            // released clients (<= 0.5.1) have no stripe mode and fall through to the auto probe
            // _resolve_nic_pin: any word other than off/0/false/no without a comma runs the auto probe (v0.5.1 L425)
            decisions.add(cited("ModelExpress " + setup.modelExpress().name() + " has no stripe mode: MX_RDMA_NIC_PIN="
                    + pinVar.rawValue() + " pins one NIC as auto does (the stripe mode is on a feature branch only)",
                    Citation.parse(MX_RELEASE + ":425 _resolve_nic_pin")));
            mode = NicPin.Mode.AUTO;
        }
        String pinned = switch (mode) {
            case OFF -> null;
            case AUTO -> {
                String nic = setup.topology().nearestNic(setup.gpu());
                if (nic == null) {
                    warnings.add("MX_RDMA_NIC_PIN auto-probe: no compute NIC found for " + setup.gpu()
                            + "; skipping pin");
                    yield null;
                }
                yield nic + ":1";
            }
            case STRIPE -> {
                List<String> nics = setup.topology().visibleNics();
                if (nics.isEmpty()) {
                    warnings.add("MX_RDMA_NIC_PIN=stripe: no compute-rate NICs found; skipping pin");
                    yield null;
                }
                // if nic_count >= 2 and "UCX_MAX_RMA_RAILS" not in os.environ: os.environ[...] = str(nic_count)
                Citation rails = Citation.parse(MX_STRIPE_BUILD + ":489-491 apply_nic_pin_for_device");
                if (nics.size() < 2) {
                    decisions.add(cited("ModelExpress stripe listed one NIC and left UCX_MAX_RMA_RAILS alone", rails));
                } else if (!env.containsKey("UCX_MAX_RMA_RAILS")) {
                    env.put("UCX_MAX_RMA_RAILS", new EffectiveValue("UCX_MAX_RMA_RAILS",
                            Integer.toString(nics.size()), ConfigLayer.MODEL_EXPRESS, rails.text()));
                    decisions.add(cited("ModelExpress stripe set UCX_MAX_RMA_RAILS=" + nics.size() + " (was unset)", rails));
                } else {
                    decisions.add(cited("ModelExpress stripe left UCX_MAX_RMA_RAILS="
                            + env.get("UCX_MAX_RMA_RAILS").rawValue() + " as set", rails));
                }
                yield nics.stream().map(n -> n + ":1").collect(Collectors.joining(","));
            }
            case EXPLICIT_LIST -> {
                int i = setup.gpuIndex();
                if (i < 0 || i >= pin.explicit().size()) {
                    warnings.add("MX_RDMA_NIC_PIN explicit list: device_id " + i + " out of range for list "
                            + "of length " + pin.explicit().size() + "; skipping pin");
                    yield null;
                }
                yield pin.explicit().get(i);
            }
        };
        if (pinned == null) {
            return;
        }
        Citation pinSource = modelExpressPin(setup.modelExpress());
        EffectiveValue previous = env.get("UCX_NET_DEVICES");
        if (previous != null && !previous.rawValue().equals(pinned)) {
            warnings.add("MX_RDMA_NIC_PIN=" + pinVar.rawValue() + " replaced UCX_NET_DEVICES='"
                    + previous.rawValue() + "' (" + previous.origin() + ") with '" + pinned
                    + "': ModelExpress writes os.environ unconditionally");
            overrides.add(new ConfigOverride("UCX_NET_DEVICES", previous.rawValue(),
                    ConfigOverride.fileAndLine(previous.origin()), pinned, ConfigLayer.MODEL_EXPRESS,
                    "MX_RDMA_NIC_PIN=" + pinVar.rawValue() + " (" + ConfigOverride.fileAndLine(pinVar.origin())
                            + "): the client writes os.environ[\"UCX_NET_DEVICES\"] unconditionally (" + pinSource + ")"));
        }
        env.put("UCX_NET_DEVICES", new EffectiveValue("UCX_NET_DEVICES", pinned, ConfigLayer.MODEL_EXPRESS,
                pinSource.text() + " " + setup.modelExpress().name() + " (" + mode.name().toLowerCase(java.util.Locale.ROOT) + ")"));
        decisions.add(cited("ModelExpress pinned " + setup.gpu() + " to UCX_NET_DEVICES=" + pinned
                + " (was: " + (previous == null ? "None" : previous.rawValue()) + ")", pinSource));
    }

    private static void applyNixl(StackSetup setup, StackVersion nixl, Map<String, EffectiveValue> env,
            Map<String, EffectiveValue> config, List<String> warnings, List<CitedNote> decisions) {
        StackVersion ucx = setup.ucxVersion();
        for (NixlOverride o : NIXL_OVERRIDES) {
            if (!o.appliesTo(nixl, ucx)) {
                boolean anotherRowApplies = NIXL_OVERRIDES.stream()
                        .anyMatch(x -> x.ucxVariable().equals(o.ucxVariable()) && x.appliesTo(nixl, ucx));
                String note = "NIXL " + nixl + " with UCX " + ucx + " does not set " + o.ucxVariable() + " (set to "
                        + o.value() + " " + o.when() + ")";
                if (!anotherRowApplies && decisions.stream().noneMatch(d -> d.words().startsWith("NIXL " + nixl
                        + " with UCX " + ucx + " does not set " + o.ucxVariable() + " "))) {
                    // the row that would set it, with the releases and UCX it needs
                    decisions.add(cited(note, o.citation(nixl)));
                }
                continue;
            }
            EffectiveValue inEnv = env.get(o.ucxVariable());
            if (inEnv != null) {
                decisions.add(cited("NIXL skipped " + o.ucxVariable() + "=" + o.value() + ": " + o.ucxVariable()
                        + "='" + inEnv.rawValue() + "' is in the environment (" + inEnv.layer() + ", "
                        + inEnv.origin() + "); config::modify checks the environment first",
                        NixlSite.MODIFY_ENV_FIRST.cite(nixl)));
                continue;
            }
            config.put(o.ucxVariable(), new EffectiveValue(o.ucxVariable(), o.value(), ConfigLayer.NIXL,
                    o.citation(nixl).text()));
            decisions.add(cited("NIXL set " + o.ucxVariable() + "=" + o.value()
                    + (o.ucxBound().isEmpty() ? "" : " (" + o.ucxBound() + ")"), o.citation(nixl)));
        }
        if (!setup.nixlAgentDevices().isEmpty()) {
            // devs_str += dev + ":1,"; config.modifyAlways("NET_DEVICES", devs_str)
            String devices = setup.nixlAgentDevices().stream().map(d -> d + ":1")
                    .collect(Collectors.joining(","));
            EffectiveValue previous = config.get("UCX_NET_DEVICES");
            if (previous != null && previous.layer() != ConfigLayer.DEFAULT
                    && !previous.rawValue().equals(devices)) {
                warnings.add("NIXL agent devices replace UCX_NET_DEVICES='" + previous.rawValue() + "' ("
                        + previous.layer() + ") with '" + devices + "': NIXL uses config::modifyAlways");
            }
            Citation netDevices = NixlSite.NET_DEVICES.cite(nixl);
            config.put("UCX_NET_DEVICES", new EffectiveValue("UCX_NET_DEVICES", devices, ConfigLayer.NIXL,
                    netDevices.text()));
            decisions.add(cited("NIXL set UCX_NET_DEVICES=" + devices + " from the agent's device list", netDevices));
        }
    }
}
