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
 */
public record RegistrationPlan(MemoryRegion region, List<HcaRegistration> perHca, double onceSeconds,
        String process) {

    public RegistrationPlan {
        perHca = List.copyOf(perHca);
        if (perHca.isEmpty()) {
            onceSeconds = 0.0;
        }
        if (process == null) {
            process = region.deviceName();
        }
    }

    /** Registered by the process of the buffer's own device. */
    public RegistrationPlan(MemoryRegion region, List<HcaRegistration> perHca, double onceSeconds) {
        this(region, perHca, onceSeconds, region.deviceName());
    }

    /** The same registration made by the process of {@code device}. */
    public RegistrationPlan inProcessOf(String device) {
        return new RegistrationPlan(region, perHca, onceSeconds, device);
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
        long bufferPages = region.type() == MemoryType.HOST && !perHca.isEmpty() ? region.sizeBytes() : 0;
        return firmwareBytes() + bufferPages;
    }

    /** The once-per-buffer cost plus every HCA's MRs. */
    public double registrationSeconds() {
        return onceSeconds + perHca.stream().mapToDouble(HcaRegistration::registrationSeconds).sum();
    }

    public RegistrationTotals totals() {
        return new RegistrationTotals(totalMrs(), totalTranslationBytes(), firmwareBytes(), pinnedHostBytes(),
                registrationSeconds(), registrationSeconds());
    }

    public List<String> hcaNames() {
        return perHca.stream().map(r -> r.hca().name()).toList();
    }
}
