package org.rdmasim.memory;

import java.util.Collection;

/**
 * Sums over registrations, in the shape {@code summary.json}'s "registration" object reports.
 *
 * @param mrCount             memory regions
 * @param translationBytes    translation entry bytes
 * @param firmwareBytes       host memory pinned by HCA firmware (translation + mkey contexts)
 * @param pinnedHostBytes     firmware bytes plus host buffers' own pinned pages
 * @param registrationSeconds time to register everything one after another: summed over every GPU, whose
 *                            processes register side by side in practice (a host waits for its slowest GPU)
 */
public record RegistrationTotals(long mrCount, long translationBytes, long firmwareBytes, long pinnedHostBytes,
        double registrationSeconds) {

    public static final RegistrationTotals ZERO = new RegistrationTotals(0, 0, 0, 0, 0.0);

    public RegistrationTotals plus(RegistrationTotals other) {
        return new RegistrationTotals(mrCount + other.mrCount, translationBytes + other.translationBytes,
                firmwareBytes + other.firmwareBytes, pinnedHostBytes + other.pinnedHostBytes,
                registrationSeconds + other.registrationSeconds);
    }

    public static RegistrationTotals of(Collection<RegistrationPlan> plans) {
        RegistrationTotals sum = ZERO;
        for (RegistrationPlan plan : plans) {
            sum = sum.plus(plan.totals());
        }
        return sum;
    }
}
