package org.rdmasim.memory;

import org.rdmasim.transport.ucx.HcaDistance;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.rdmasim.transport.config.HcaPerGpuLimit;
import org.rdmasim.transport.config.MemoryType;
import org.rdmasim.transport.config.Ternary;

/**
 * Plans the registration of a buffer the way {@code ucp_mem_map} does it: choose the HCAs
 * ({@code UCX_MAX_HCA_PER_GPU}), decide one or two MRs per HCA ({@code UCX_IB_PCI_RELAXED_ORDERING}
 * and the CPU), then count translation bytes, firmware host memory and time.
 */
public final class RegistrationModel {

    private final RegistrationParameters parameters;

    public RegistrationModel(RegistrationParameters parameters) {
        if (parameters == null) {
            throw new MemoryInputException("registration parameters are required");
        }
        this.parameters = parameters;
    }

    public RegistrationModel() {
        this(RegistrationParameters.defaults());
    }

    public RegistrationParameters parameters() {
        return parameters;
    }

    /**
     * The HCAs a buffer is registered on, in md-index order (the order UCX walks its MD map).
     *
     * <p>GPU memory is filtered by {@code UCX_MAX_HCA_PER_GPU} (UCX >= 1.21; openucx/ucx PR #11422 on
     * master and #11453 on v1.21.x, "UCP/MM: Add MAX_HCA_PER_GPU policy for GPU registrations", in
     * {@code ucp_mem_map}, {@code src/ucp/core/ucp_mm.c}): the network MDs are ranked by topology
     * latency and bandwidth to the buffer's device, ties broken by MD name; {@code inf} keeps all,
     * {@code auto} every HCA whose distance equals the closest one's, {@code N} the N closest. As read at
     * v1.21.0: {@code ucp_context_select_reg_mds} ({@code src/ucp/core/ucp_context.c} L1873-1974, the
     * {@code UCP_REG_DEVICES_CLOSEST} case L1948-1957 stops at the first distance that compares unequal;
     * {@code ucp_reg_select_md_cmp} L1859-1871 sorts by distance, then name), applied by
     * {@code ucp_memh_apply_reg_policy} ({@code src/ucp/core/ucp_mm.c} L849) to CUDA memory with a known
     * system device only, so host memory bypasses it.
     */
    public List<HcaCandidate> selectHcas(MemoryRegion region, List<HcaCandidate> candidates, HcaPerGpuLimit policy) {
        List<HcaCandidate> all = checkedCandidates(candidates);
        List<HcaCandidate> chosen;
        if (region.type() != MemoryType.CUDA || policy.kind() == HcaPerGpuLimit.Kind.INF || all.isEmpty()) {
            chosen = all;
        } else {
            List<HcaCandidate> ranked = new ArrayList<>(all);
            ranked.sort(Comparator.comparing(HcaCandidate::distance, HcaDistance.CLOSEST_FIRST)
                    .thenComparing(HcaCandidate::name));
            if (policy.kind() == HcaPerGpuLimit.Kind.AUTO) {
                HcaDistance nearest = ranked.get(0).distance();
                chosen = ranked.stream()
                        .filter(h -> HcaDistance.CLOSEST_FIRST.compare(h.distance(), nearest) == 0)
                        .toList();
            } else {
                chosen = ranked.subList(0, Math.min(policy.count(), ranked.size()));
            }
        }
        List<HcaCandidate> ordered = new ArrayList<>(chosen);
        ordered.sort(Comparator.comparingInt(HcaCandidate::mdIndex));
        return List.copyOf(ordered);
    }

    /**
     * Whether the MD registers this buffer with relaxed ordering, and so with a strict-order companion
     * MR too. Semantics from openucx/ucx {@code src/uct/ib/base/ib_md.c} ({@code
     * uct_ib_md_parse_relaxed_order}, {@code uct_ib_verbs_mem_reg}, {@code uct_ib_memh_alloc}): the MD
     * enables relaxed ordering for {@code yes} (warning if unsupported), for {@code try} when supported,
     * and for {@code auto} when supported and the CPU prefers it ({@link RelaxedOrderingCpus}); whenever
     * it is enabled, the default MR carries {@code IBV_ACCESS_RELAXED_ORDERING} and a second, strict-order
     * MR ({@code UCT_IB_MR_STRICT_ORDER}) covers the same range.
     */
    public boolean relaxedOrderingEnabled(MemoryRegion region, HcaCandidate hca, UcxRegistrationConfig config) {
        boolean supported = hca.supportsRelaxedOrdering();
        return switch (config.relaxedOrdering()) {
            case NO -> false;
            // yes on an HCA without support: UCX warns and leaves it disabled (ib_md.c).
            case YES, TRY -> supported;
            case AUTO -> supported && RelaxedOrderingCpus.prefersRelaxedOrdering(config.cpu(), region.type(), config.ucx());
        };
    }

    /** MRs this buffer gets on this HCA: 2 with relaxed ordering (default + strict companion), else 1. */
    public int mrsPerHca(MemoryRegion region, HcaCandidate hca, UcxRegistrationConfig config) {
        if (!relaxedOrderingEnabled(region, hca, config)) {
            return 1;
        }
        if (config.relaxedOrdering() == Ternary.YES && !parameters.yesKeepsStrictCompanion()) {
            return 1;
        }
        return 2;
    }

    public RegistrationPlan plan(MemoryRegion region, List<HcaCandidate> candidates, UcxRegistrationConfig config) {
        return plan(region, candidates, config, List.of());
    }

    /**
     * The same, and on the candidates named in {@code atFirstUse} that the policy left out: a lane that uses
     * an HCA the buffer's memh lacks registers it there ({@code ucp_datatype_iter_mem_reg_single} calls
     * {@code ucp_memh_register} for the missing md, openucx/ucx v1.20.0 src/ucp/dt/datatype_iter.inl
     * L276-282), with the MD's own MR rules; in md-index order with the rest.
     */
    public RegistrationPlan plan(MemoryRegion region, List<HcaCandidate> candidates, UcxRegistrationConfig config,
            List<String> atFirstUse) {
        if (region == null || config == null) {
            throw new MemoryInputException("a buffer and a UCX registration config are required");
        }
        OneMr one = oneMr(region);
        List<HcaCandidate> registered = new ArrayList<>(selectHcas(region, candidates, config.maxHcaPerGpu()));
        List<String> added = new ArrayList<>();
        for (HcaCandidate c : checkedCandidates(candidates)) {
            if (atFirstUse.contains(c.name()) && !registered.contains(c)) {
                registered.add(c);
                added.add(c.name());
            }
        }
        registered.sort(Comparator.comparingInt(HcaCandidate::mdIndex));
        List<HcaRegistration> perHca = new ArrayList<>();
        for (HcaCandidate hca : registered) {
            perHca.add(one.times(hca, mrsPerHca(region, hca, config), relaxedOrderingEnabled(region, hca, config)));
        }
        return new RegistrationPlan(region, perHca, parameters.onceSeconds(region.type(), region.sizeBytes()))
                .withAtFirstUse(added);
    }

    /**
     * The registration a backend places itself: on every one of {@code devices}, in md-index order,
     * {@code mrsPerDevice} MRs each, in strict PCIe order.
     */
    public RegistrationPlan planOnDevices(MemoryRegion region, List<HcaCandidate> devices, int mrsPerDevice) {
        if (region == null) {
            throw new MemoryInputException("a buffer is required");
        }
        if (mrsPerDevice < 1) {
            throw new MemoryInputException("at least one MR per device, got " + mrsPerDevice);
        }
        OneMr one = oneMr(region);
        List<HcaCandidate> ordered = new ArrayList<>(checkedCandidates(devices));
        ordered.sort(Comparator.comparingInt(HcaCandidate::mdIndex));
        List<HcaRegistration> perHca = new ArrayList<>();
        for (HcaCandidate hca : ordered) {
            perHca.add(one.times(hca, mrsPerDevice, false));
        }
        return new RegistrationPlan(region, perHca, parameters.onceSeconds(region.type(), region.sizeBytes()));
    }

    /** What one MR of a buffer costs: translation entries and bytes, and time. */
    private record OneMr(MemoryRegion region, long entries, long translationBytes, double seconds, long mkeyContextBytes) {
        /** {@code mrs} MRs of the buffer on {@code hca}. */
        HcaRegistration times(HcaCandidate hca, int mrs, boolean relaxedOrdering) {
            long translation = Math.multiplyExact(translationBytes, mrs);
            long firmware = translation + mrs * mkeyContextBytes;
            return new HcaRegistration(hca, mrs, relaxedOrdering, entries, translation, firmware,
                    Math.multiplyExact(region.sizeBytes(), (long) mrs), seconds * mrs);
        }
    }

    private OneMr oneMr(MemoryRegion region) {
        long entries = parameters.pageSize().pagesCovering(region.address(), region.sizeBytes());
        return new OneMr(region, entries, Math.multiplyExact(entries, parameters.bytesPerTranslationEntry()),
                parameters.perMrSeconds() + parameters.perByteSeconds(region.type()) * region.sizeBytes(),
                parameters.mkeyContextBytes());
    }

    /**
     * Fraction of MRs saved by {@code proposed} relative to {@code baseline}, e.g. 0.875 for 16 -> 2.
     * This counts registrations only; see the tests for why Crusoe's "up to ~70%" (host memory) is lower.
     */
    public static double reductionInMrs(RegistrationTotals baseline, RegistrationTotals proposed) {
        if (baseline.mrCount() == 0) {
            return 0.0;
        }
        return 1.0 - (double) proposed.mrCount() / baseline.mrCount();
    }

    private static List<HcaCandidate> checkedCandidates(List<HcaCandidate> candidates) {
        if (candidates == null) {
            throw new MemoryInputException("HCA candidate list is required (may be empty)");
        }
        Set<String> names = new HashSet<>();
        Set<Integer> mdIndexes = new HashSet<>();
        for (HcaCandidate hca : candidates) {
            if (!names.add(hca.name())) {
                throw new MemoryInputException("HCA " + hca.name() + " listed twice");
            }
            if (!mdIndexes.add(hca.mdIndex())) {
                throw new MemoryInputException("md index " + hca.mdIndex() + " used by two HCAs");
            }
        }
        return List.copyOf(candidates);
    }
}
