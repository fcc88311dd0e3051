package org.rdmasim.memory;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.rdmasim.hardware.Cluster;
import org.rdmasim.hardware.Host;
import org.rdmasim.memory.RegistrationVerdict.LimitKind;
import org.rdmasim.transport.backend.RegistrationSites;
import org.rdmasim.transport.config.EffectiveConfig;

/**
 * Step 3 of running a variant (after building hosts and resolving each process's configuration): register every buffer the variant's
 * processes register, on every host, and check the result against the host's limits and the caps.
 *
 * <p>Entry point for {@code run}: {@link #registerOnSites(List, Sites, List, RegistrationModel,
 * RegistrationCaps)}, each buffer placed where the variant's transfer backend registers it. Buffers are
 * registered in list order, host by host; a host's check stops at the first MR that crosses a limit and
 * carries the real stack's error lines. A failed outcome means
 * the variant fails in simulation (exit code 1, {@code "status": "failed"} with
 * {@link Outcome#error()} as {@code "error"}); {@link Outcome#totals()} fills
 * {@code summary.json}'s {@code "registration"} object.
 */
public final class VariantRegistration {

    /**
     * Placeholder address and dma-buf fd for GPU buffers whose real ones the scenario does not give:
     * those of Crusoe's log [crusoe-kb-nixl], so that failure lines have the shape of a real log. They
     * change no figure (4 KiB page alignment of the address is exact).
     */
    public static final long SEED_000_ADDRESS = 0x7f7980000000L;
    public static final int SEED_000_DMABUF_FD = 438;

    private VariantRegistration() {
    }

    /** Resolves the configuration of the process that registers a buffer of {@code device} on {@code host}. */
    @FunctionalInterface
    public interface ProcessConfigs {
        EffectiveConfig configFor(Host host, String device);

        /** One configuration per host, shared by all its processes. */
        static ProcessConfigs perHost(Map<String, EffectiveConfig> byHost) {
            Map<String, EffectiveConfig> copy = Map.copyOf(byHost);
            return (host, device) -> {
                EffectiveConfig c = copy.get(host.name());
                if (c == null) {
                    throw new MemoryInputException("no UCX configuration for host " + host.name());
                }
                return c;
            };
        }
    }

    /** Where the process that registers a buffer of {@code device} on {@code host} places it, as its backend says. */
    @FunctionalInterface
    public interface Sites {
        RegistrationSites of(Host host, String device);
    }

    /**
     * One buffer a process registers.
     *
     * @param host    host name as in the cluster
     * @param region  the buffer; its device names the GPU (cuda) or CPU socket (host) it lives on
     * @param process the device whose process registers it (one process per GPU): the buffer's own device,
     *                or the GPU whose backend registers a host bounce fragment for it
     */
    public record Buffer(String host, MemoryRegion region, String process) {
        public Buffer {
            MemoryInputException.requireName(host, "buffer host");
            if (region == null) {
                throw new MemoryInputException("buffer region is required");
            }
            if (process == null) {
                process = region.deviceName();
            }
        }

        /** Registered by the process of the buffer's own device. */
        public Buffer(String host, MemoryRegion region) {
            this(host, region, null);
        }

        /** A GPU buffer at the address of Crusoe's log [crusoe-kb-nixl], exported through dma-buf. */
        public static Buffer gpu(String host, String gpu, long bytes) {
            return new Buffer(host, MemoryRegion.cuda(gpu, bytes).withAddress(SEED_000_ADDRESS)
                    .withDmabufFd(SEED_000_DMABUF_FD));
        }
    }

    /**
     * One host's registrations.
     *
     * @param verdict  against all limits together (the first crossing, with its error text)
     * @param perLimit against each limit alone, for every limit that is set
     * @param warnings UCX's device-selection warnings, without repeats
     */
    public record HostOutcome(String host, List<RegistrationPlan> plans, RegistrationVerdict verdict,
            Map<LimitKind, RegistrationVerdict> perLimit, List<String> warnings) {
        public HostOutcome {
            plans = List.copyOf(plans);
            perLimit = Map.copyOf(perLimit);
            warnings = List.copyOf(warnings);
        }

        public RegistrationTotals totals() {
            return RegistrationTotals.of(plans);
        }
    }

    /**
     * The variant's registrations over all hosts.
     *
     * @param totals sums over every requested registration (also those after a failure), and the wall: the
     *               slowest host's slowest process (see {@link RegistrationTotals})
     * @param hosts  per host, in cluster order; hosts without buffers are left out
     */
    public record Outcome(RegistrationTotals totals, List<HostOutcome> hosts) {
        public Outcome {
            hosts = List.copyOf(hosts);
        }

        public boolean passed() {
            return hosts.stream().allMatch(h -> h.verdict().passed());
        }

        /** The first failing host's verdict, or a pass over the totals. */
        public RegistrationVerdict verdict() {
            return hosts.stream().map(HostOutcome::verdict).filter(v -> !v.passed()).findFirst()
                    .orElse(new RegistrationVerdict(true, LimitKind.NONE, List.of(), List.of(), totals, Map.of()));
        }

        /** The failing host's name and the real stack's lines; empty on a pass. */
        public String error() {
            return hosts.stream().filter(h -> !h.verdict().passed()).findFirst()
                    .map(h -> "registration on host " + h.host() + " failed: " + h.verdict().message()).orElse("");
        }
    }

    /** The entry point for a variant: see the class comment. */
    public static Outcome register(Cluster cluster, ProcessConfigs configs, List<Buffer> buffers,
            RegistrationModel model, RegistrationCaps caps) {
        return register(cluster.hosts(), configs, buffers, model, caps);
    }

    /** With default registration parameters and no caps beyond the hosts' own. */
    public static Outcome register(Cluster cluster, Map<String, EffectiveConfig> configPerHost, List<Buffer> buffers) {
        return register(cluster.hosts(), ProcessConfigs.perHost(configPerHost), buffers, new RegistrationModel(),
                RegistrationCaps.none());
    }

    /** The same over plain hosts, for callers without a built cluster (the {@code memory} command). */
    public static Outcome register(List<Host> hosts, ProcessConfigs configs, List<Buffer> buffers,
            RegistrationModel model, RegistrationCaps caps) {
        if (configs == null) {
            throw new MemoryInputException("hosts, configurations, buffers, model and caps are required");
        }
        return registerOnSites(hosts, (host, device) -> new RegistrationSites.ByUcxConfig(configs.configFor(host, device)),
                buffers, model, caps);
    }

    /** The same with each buffer placed where the variant's transfer backend registers it. */
    public static Outcome registerOnSites(List<Host> hosts, Sites sites, List<Buffer> buffers,
            RegistrationModel model, RegistrationCaps caps) {
        if (hosts == null || sites == null || buffers == null || model == null || caps == null) {
            throw new MemoryInputException("hosts, configurations, buffers, model and caps are required");
        }
        Map<String, Host> byName = new LinkedHashMap<>();
        hosts.forEach(h -> byName.put(h.name(), h));
        Map<String, List<Buffer>> perHost = new LinkedHashMap<>();
        for (Buffer b : buffers) {
            if (!byName.containsKey(b.host())) {
                throw new MemoryInputException("buffer on unknown host " + b.host() + " (hosts: "
                        + String.join(", ", byName.keySet()) + ")");
            }
            perHost.computeIfAbsent(b.host(), k -> new ArrayList<>()).add(b);
        }
        List<HostOutcome> outcomes = new ArrayList<>();
        RegistrationTotals totals = RegistrationTotals.ZERO;
        for (Host host : hosts) {
            List<Buffer> mine = perHost.get(host.name());
            if (mine == null) {
                continue;
            }
            HostOutcome outcome = registerOnHost(host, sites, mine, model, caps.limitsFor(host));
            outcomes.add(outcome);
            totals = totals.plus(outcome.totals());
        }
        return new Outcome(totals, outcomes);
    }

    private static HostOutcome registerOnHost(Host host, Sites sites, List<Buffer> buffers,
            RegistrationModel model, RegistrationLimits limits) {
        List<RegistrationPlan> plans = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        for (Buffer b : buffers) {
            RegistrationSites where = sites.of(host, b.region().deviceName());
            if (where instanceof RegistrationSites.ByUcxConfig ucx) {
                HostRegistration process = new HostRegistration(host, ucx.config());
                process.warnings().stream().filter(w -> !warnings.contains(w)).forEach(warnings::add);
                plans.add(process.plan(model, b.region(), ucx.atFirstUse()).inProcessOf(b.process()));
            } else if (where instanceof RegistrationSites.OnDevices on) {
                plans.add(HostRegistration.planOnDevices(host, model, b.region(), on).inProcessOf(b.process()));
            } else if (where instanceof RegistrationSites.NoNic) {
                // nothing on any NIC: no MR, no translation entries, no registration time there
                continue;
            } else {
                throw new MemoryInputException("no registration sites for " + b.region().deviceName() + " on host "
                        + host.name());
            }
        }
        return new HostOutcome(host.name(), plans, RegistrationCheck.check(plans, limits), eachLimitAlone(plans, limits),
                warnings);
    }

    /** Each set limit checked on its own, so a report can say which caps a configuration fits under. */
    static Map<LimitKind, RegistrationVerdict> eachLimitAlone(List<RegistrationPlan> plans, RegistrationLimits limits) {
        RegistrationLimits none = RegistrationLimits.unlimited().withLocalHostName(limits.localHostName());
        Map<LimitKind, RegistrationVerdict> out = new EnumMap<>(LimitKind.class);
        long u = RegistrationLimits.UNLIMITED;
        if (limits.firmwarePageCapBytes() != u) {
            out.put(LimitKind.FIRMWARE_PAGE_CAP, RegistrationCheck.check(plans,
                    none.withFirmwarePageCap(limits.firmwarePageCapBytes(), limits.firmwareCapScope())));
        }
        if (limits.hostMemoryBytes() != u) {
            out.put(LimitKind.HOST_MEMORY, RegistrationCheck.check(plans, none.withHostMemory(limits.hostMemoryBytes())));
        }
        if (limits.bar1BytesPerGpu() != u) {
            out.put(LimitKind.BAR1, RegistrationCheck.check(plans, none.withBar1PerGpu(limits.bar1BytesPerGpu())));
        }
        if (limits.mttMaxRegisterableBytes() != u) {
            out.put(LimitKind.MTT, RegistrationCheck.check(plans, none.withMttLimit(limits.mttMaxRegisterableBytes())));
        }
        return out;
    }
}
