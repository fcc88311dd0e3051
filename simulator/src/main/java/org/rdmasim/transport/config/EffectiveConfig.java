package org.rdmasim.transport.config;

import org.rdmasim.hardware.PathType;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.rdmasim.transport.citation.CitedNote;
import org.rdmasim.hardware.PathType;

/**
 * The configuration one process runs with: every modelled variable that has a value, with the
 * layer that set it, and typed accessors that read the values with the libraries' own syntax.
 *
 * <p>Construction checks every value: a value UCX would reject throws
 * {@link ConfigValueException} naming the variable, value, layer and what was expected; a value
 * NCCL or ModelExpress would read loosely adds a warning saying what they will actually do.
 */
public final class EffectiveConfig {

    private final Map<String, EffectiveValue> values;
    private final StackVersion ucxVersion;
    private final List<String> warnings;
    private final List<CitedNote> notes;
    private final List<ConfigOverride> overrides;

    EffectiveConfig(Collection<EffectiveValue> values, StackVersion ucxVersion, List<String> warnings,
            List<CitedNote> notes) {
        this(values, ucxVersion, warnings, notes, List.of());
    }

    EffectiveConfig(Collection<EffectiveValue> values, StackVersion ucxVersion, List<String> warnings,
            List<CitedNote> notes, List<ConfigOverride> overrides) {
        Map<String, EffectiveValue> ordered = new LinkedHashMap<>();
        Map<String, EffectiveValue> byName = new LinkedHashMap<>();
        values.forEach(v -> byName.put(v.name(), v));
        for (KnownVariable k : KnownVariables.all()) {
            if (byName.containsKey(k.name())) {
                ordered.put(k.name(), byName.remove(k.name()));
            }
        }
        ordered.putAll(byName);
        this.values = ordered;
        this.ucxVersion = ucxVersion;
        List<String> all = new ArrayList<>(warnings);
        for (EffectiveValue v : ordered.values()) {
            KnownVariables.find(v.name()).ifPresent(k -> check(k, v).ifPresent(all::add));
        }
        this.warnings = List.copyOf(all);
        this.notes = List.copyOf(notes);
        this.overrides = List.copyOf(overrides);
    }

    /** Values the user set that a layer replaced or the library ignored, in the order they arose. */
    public List<ConfigOverride> overrides() {
        return overrides;
    }

    private static Optional<String> check(KnownVariable k, EffectiveValue v) {
        try {
            return k.syntax().check(v.name(), v.rawValue());
        } catch (IllegalArgumentException e) {
            throw new ConfigValueException(v.name(), v.rawValue(), v.layer(), v.origin(), e.getMessage());
        }
    }

    public StackVersion ucxVersion() {
        return ucxVersion;
    }

    /** Warnings in the order they arose: unknown names, duplicates, devices, loose values. */
    public List<String> warnings() {
        return warnings;
    }

    /** Why each ModelExpress, ucx.conf and NIXL change was applied or skipped, with the code each follows. */
    public List<CitedNote> notes() {
        return notes;
    }

    /** {@link #notes()} as {@code explain} prints them. */
    public List<String> decisions() {
        return notes.stream().map(CitedNote::text).toList();
    }

    public Optional<EffectiveValue> get(String name) {
        return Optional.ofNullable(values.get(name));
    }

    /** Every value, modelled variables first in registry order. */
    public List<EffectiveValue> values() {
        return List.copyOf(values.values());
    }

    public ConfigLayer layerOf(String name) {
        return require(name).layer();
    }

    public String rawValue(String name) {
        return require(name).rawValue();
    }

    private EffectiveValue require(String name) {
        EffectiveValue v = values.get(name);
        if (v == null) {
            throw new IllegalArgumentException(name + " has no value in this configuration");
        }
        return v;
    }

    private <T> T typed(String name, Function<String, T> parser) {
        EffectiveValue v = require(name);
        try {
            return parser.apply(v.rawValue());
        } catch (IllegalArgumentException e) {
            throw new ConfigValueException(name, v.rawValue(), v.layer(), v.origin(), e.getMessage());
        }
    }

    /**
     * The refusal of {@code name}'s value, which parses but leaves the run nothing rdmasim models: the message
     * names the variable, its value and the layer that set it, then {@code expected}.
     */
    public ConfigValueException refusal(String name, String expected) {
        EffectiveValue v = require(name);
        return new ConfigValueException(name, v.rawValue(), v.layer(), v.origin(), expected);
    }

    /** UCX unsigned as an int; {@code inf} becomes {@link Integer#MAX_VALUE}. */
    private int rails(String name) {
        long v = typed(name, UcxNumbers::unsigned);
        return (int) Math.min(v, Integer.MAX_VALUE);
    }

    /** {@code UCX_DISTANCE_BW}: per-relation bandwidth replacing UCX's built-in distance. */
    public DistanceOverrides distanceBandwidth() {
        return values.containsKey("UCX_DISTANCE_BW") && ucxVersion.atLeast(new StackVersion(1, 18, 0))
                ? typed("UCX_DISTANCE_BW", DistanceOverrides::parseBandwidth) : DistanceOverrides.NONE;
    }

    /** {@code UCX_DISTANCE_LAT}: per-relation latency replacing UCX's built-in distance (read from v1.18.0). */
    public DistanceOverrides distanceLatency() {
        return values.containsKey("UCX_DISTANCE_LAT") && ucxVersion.atLeast(new StackVersion(1, 18, 0))
                ? typed("UCX_DISTANCE_LAT", DistanceOverrides::parseLatency) : DistanceOverrides.NONE;
    }

    /** {@code UCX_IB_NUM_PATHS}: empty for {@code auto}. */
    public java.util.OptionalInt ibNumPaths() {
        if (!values.containsKey("UCX_IB_NUM_PATHS") || rawValue("UCX_IB_NUM_PATHS").trim().equalsIgnoreCase("auto")) {
            return java.util.OptionalInt.empty();
        }
        return java.util.OptionalInt.of(Math.max(1, rails("UCX_IB_NUM_PATHS")));
    }

    /** UCX_RC_TIMEOUT in seconds. */
    public double rcTimeoutSeconds() {
        return typed("UCX_RC_TIMEOUT", UcxNumbers::time);
    }

    /** UCX_RC_RETRY_COUNT, limited to 7 as UCX does (rc_iface.c L532-542, L607-610, v1.20.0). */
    public int rcRetryCount() {
        return (int) Math.min(7, typed("UCX_RC_RETRY_COUNT", UcxNumbers::unsigned));
    }

    /**
     * ModelExpress's RDMA receive budget per source: MX_TRANSFER_TIMEOUT when set to a finite positive
     * number, else 300 s (rdma_strategy.py L41-87, v0.5.1).
     */
    public double mxTransferTimeoutSeconds() {
        String raw = get("MX_TRANSFER_TIMEOUT").map(EffectiveValue::rawValue).orElse(null);
        if (raw != null) {
            try {
                double d = Double.parseDouble(raw.strip());
                if (d > 0 && Double.isFinite(d)) {
                    return d;
                }
            } catch (NumberFormatException e) {
                // ModelExpress warns and falls back, as the check in ValueSyntax reports
            }
        }
        return 300.0;
    }

    public int maxRmaRails() {
        return rails("UCX_MAX_RMA_RAILS");
    }

    public int maxRndvRails() {
        return rails("UCX_MAX_RNDV_RAILS");
    }

    public int maxEagerRails() {
        return rails("UCX_MAX_EAGER_RAILS");
    }

    public double multiLaneMaxRatio() {
        return typed("UCX_MULTI_LANE_MAX_RATIO", UcxNumbers::decimal);
    }

    public RndvScheme rndvScheme() {
        return typed("UCX_RNDV_SCHEME", RndvScheme::parse);
    }

    public MemUnits rndvThresh() {
        return typed("UCX_RNDV_THRESH", MemUnits::parse);
    }

    public long rndvFragSize(MemoryType type) {
        return typed("UCX_RNDV_FRAG_SIZE", FragSizes::parse).bytesFor(type);
    }

    public MemUnits minRmaChunk() {
        return typed("UCX_MIN_RMA_CHUNK_SIZE", MemUnits::parse);
    }

    public MemUnits minRndvChunk() {
        return typed("UCX_MIN_RNDV_CHUNK_SIZE", MemUnits::parse);
    }

    public Ternary relaxedOrdering() {
        return typed("UCX_IB_PCI_RELAXED_ORDERING", Ternary::parse);
    }

    /** {@code inf} on UCX older than 1.21, which registers GPU memory on every HCA. */
    public HcaPerGpuLimit maxHcaPerGpu() {
        return typed("UCX_MAX_HCA_PER_GPU", HcaPerGpuLimit::parse);
    }

    public RcFence rcFence() {
        return typed("UCX_RC_FENCE", RcFence::parse);
    }

    public NetDevices netDevices() {
        return NetDevices.of(require("UCX_NET_DEVICES"));
    }

    /** {@link #netDevices()} resolved on a host with this UCX version's matching rules. */
    public DeviceSelection selectNetDevices(List<String> hostNics) {
        return netDevices().resolve(hostNics, ucxVersion);
    }

    /** As {@link #selectNetDevices(List)}, {@code listedOnly} (storage ports) selected only by name. */
    public DeviceSelection selectNetDevices(List<String> hostNics, java.util.Set<String> listedOnly) {
        return netDevices().resolve(hostNics, listedOnly, ucxVersion);
    }

    public NicPin nicPin() {
        return get("MX_RDMA_NIC_PIN").map(v -> NicPin.parse(v.rawValue())).orElse(NicPin.OFF);
    }

    /** {@code NCCL_IB_HCA} as NCCL {@code release} reads it, or {@link NcclIbHca#unset()}. */
    public NcclIbHca ncclIbHca(StackVersion release) {
        return get("NCCL_IB_HCA").map(v -> NcclIbHca.of(v, release)).orElseGet(NcclIbHca::unset);
    }

    /**
     * NCCL's GPUDirect decision for one GPU-NIC pair at an NCCL release, from the NCCL variables set in
     * this process ({@code NCCL_NET_GDR_LEVEL}, {@code NCCL_NET_GDR_C2C}); the defaults are the release's.
     */
    public NcclGdr ncclGdr(StackVersion nccl, PathType relation, boolean gpuOverC2c) {
        return NcclGdr.decide(nccl, get("NCCL_NET_GDR_LEVEL").map(EffectiveValue::rawValue),
                get("NCCL_NET_GDR_C2C").map(EffectiveValue::rawValue), relation, gpuOverC2c);
    }

    /** Empty when unset: NCCL then decides by GPU generation. */
    public Optional<Boolean> gdrRead() {
        return get("NCCL_NET_GDR_READ").map(v -> NcclNumbers.strtoll(v.rawValue()))
                .filter(p -> !p.overflow()).map(p -> p.value() != 0);
    }

    public long qpsPerConnection() {
        return ncclInteger("NCCL_IB_QPS_PER_CONNECTION");
    }

    public long shadowMempoolMaxSize() {
        return ncclInteger("NCCL_SHADOW_MEMPOOL_MAX_SIZE");
    }

    private long ncclInteger(String name) {
        NcclNumbers.Parsed p = NcclNumbers.strtoll(rawValue(name));
        if (p.overflow() || rawValue(name).isEmpty()) {
            return Long.parseLong(KnownVariables.get(name).defaultValue());
        }
        return p.value();
    }

    /**
     * The configuration as an aligned table with columns NAME, VALUE, LAYER, one row per value,
     * modelled variables first.
     */
    public String describe() {
        int nameWidth = "NAME".length();
        int valueWidth = "VALUE".length();
        for (EffectiveValue v : values.values()) {
            nameWidth = Math.max(nameWidth, v.name().length());
            valueWidth = Math.max(valueWidth, v.rawValue().length());
        }
        String format = "%-" + nameWidth + "s  %-" + valueWidth + "s  %s\n";
        StringBuilder out = new StringBuilder();
        out.append(String.format(format, "NAME", "VALUE", "LAYER"));
        for (EffectiveValue v : values.values()) {
            out.append(String.format(format, v.name(), v.rawValue(), v.layer()));
        }
        return out.toString();
    }

    @Override
    public String toString() {
        return describe();
    }
}
