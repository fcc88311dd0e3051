package org.rdmasim.memory;

import java.util.List;

import org.rdmasim.transport.config.MemoryType;

/**
 * How one buffer is registered: on which HCAs (in UCX's registration order, by md index), how many
 * MRs each, and what that costs.
 *
 * <p>The HCAs are registered one after another: UCX registers a buffer on the memory domains of its map in
 * turn, one {@code uct_md_mem_reg} after another ({@code ucp_memh_register_internal}, openucx/ucx v1.20.0
 * src/ucp/core/ucp_mm.c L627), so the buffer's time is the sum over its HCAs. Which process waits for which
 * buffer is {@link RegistrationTotals}'s rule.
 *
 * @param region      buffer
 * @param perHca      registrations in md-index order
 * @param onceSeconds what the buffer's registration costs once, whatever the HCA count (0 when it is
 *                    registered on no HCA)
 * @param process     the device whose process registers the buffer: the GPU for its own memory and for
 *                    the host bounce fragments its backend registers for it, the CPU socket for a host
 *                    buffer of its own
 * @param atFirstUse  the HCAs of {@code perHca} a lane registered the buffer on when it first used it, not
 *                    {@code ucp_mem_map} (empty when none)
 */
public record RegistrationPlan(MemoryRegion region, List<HcaRegistration> perHca, double onceSeconds,
        String process, List<String> atFirstUse) {

    public RegistrationPlan {
        perHca = List.copyOf(perHca);
        atFirstUse = List.copyOf(atFirstUse);
        if (perHca.isEmpty()) {
            onceSeconds = 0.0;
        }
        if (process == null) {
            process = region.deviceName();
        }
    }

    /** Registered by the process of the buffer's own device, every HCA by {@code ucp_mem_map}. */
    public RegistrationPlan(MemoryRegion region, List<HcaRegistration> perHca, double onceSeconds) {
        this(region, perHca, onceSeconds, region.deviceName(), List.of());
    }

    /** The same registration made by the process of {@code device}. */
    public RegistrationPlan inProcessOf(String device) {
        return new RegistrationPlan(region, perHca, onceSeconds, device, atFirstUse);
    }

    /** The same registration, with {@code hcas} registered at a lane's first use. */
    public RegistrationPlan withAtFirstUse(List<String> hcas) {
        return new RegistrationPlan(region, perHca, onceSeconds, process, hcas);
    }

    public int totalMrs() {
        return perHca.stream().mapToInt(HcaRegistration::mrCount).sum();
    }

    public long totalTranslationBytes() {
        return perHca.stream().mapToLong(HcaRegistration::translationBytes).sum();
    }

    /** Host memory the HCAs' firmware pins for this buffer: translation bytes plus 64 B per MR. */
    public long firmwareBytes() {
        return perHca.stream().mapToLong(HcaRegistration::firmwareBytes).sum();
    }

    /** Firmware bytes plus, for a host buffer, its own pages (pinned once). */
    public long pinnedHostBytes() {
        return totals().pinnedHostBytes();
    }

    /** The once-per-buffer cost plus every HCA's MRs. */
    public double registrationSeconds() {
        return totals().summedSeconds();
    }

    public RegistrationTotals totals() {
        return sum(perHca, !perHca.isEmpty());
    }

    /**
     * What {@code ucp_mem_map} registered: every HCA but those of {@link #atFirstUse()}, and the buffer's
     * once-per-buffer cost and its own pinned pages (the first registration pays them, so a buffer no HCA of
     * {@code ucp_mem_map} holds pays them at first use). With {@link #totalsAtFirstUse()}, the sums of
     * {@link #totals()}; with no first use, {@link #totals()} itself.
     */
    public RegistrationTotals totalsByMemMap() {
        return part(false);
    }

    /** What lanes registered at first use: the HCAs of {@link #atFirstUse()} (see {@link #totalsByMemMap()}). */
    public RegistrationTotals totalsAtFirstUse() {
        return part(true);
    }

    private RegistrationTotals part(boolean firstUse) {
        List<HcaRegistration> mine = perHca.stream().filter(r -> atFirstUse.contains(r.hca().name()) == firstUse)
                .toList();
        boolean byMemMap = perHca.stream().anyMatch(r -> !atFirstUse.contains(r.hca().name()));
        return sum(mine, !mine.isEmpty() && byMemMap != firstUse);
    }

    /**
     * The totals of registering the buffer on {@code hcas}: their MRs and firmware bytes, and, when
     * {@code paysOnce} (this part is the buffer's first registration), the once-per-buffer cost and a host
     * buffer's own pages. The whole plan and each part of it are this one sum, so the parts of a plan without
     * first use are its totals.
     */
    private RegistrationTotals sum(List<HcaRegistration> hcas, boolean paysOnce) {
        long firmware = hcas.stream().mapToLong(HcaRegistration::firmwareBytes).sum();
        long bufferPages = paysOnce && region.type() == MemoryType.HOST ? region.sizeBytes() : 0;
        double seconds = (paysOnce ? onceSeconds : 0.0) + hcas.stream()
                .mapToDouble(HcaRegistration::registrationSeconds).sum();
        return new RegistrationTotals(hcas.stream().mapToInt(HcaRegistration::mrCount).sum(),
                hcas.stream().mapToLong(HcaRegistration::translationBytes).sum(), firmware, firmware + bufferPages,
                seconds, seconds);
    }

    public List<String> hcaNames() {
        return perHca.stream().map(r -> r.hca().name()).toList();
    }
}
