package org.rdmasim.memory;

import java.util.List;

import org.rdmasim.transport.config.MemoryType;

/**
 * How one buffer is registered: on which HCAs (in UCX's registration order, by md index), how many
 * MRs each, and what that costs.
 *
 * @param region      buffer
 * @param perHca      registrations in md-index order
 * @param onceSeconds what the buffer's registration costs once, whatever the HCA count (0 when it is
 *                    registered on no HCA)
 */
public record RegistrationPlan(MemoryRegion region, List<HcaRegistration> perHca, double onceSeconds) {

    public RegistrationPlan {
        perHca = List.copyOf(perHca);
        if (perHca.isEmpty()) {
            onceSeconds = 0.0;
        }
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
                registrationSeconds());
    }

    public List<String> hcaNames() {
        return perHca.stream().map(r -> r.hca().name()).toList();
    }
}
