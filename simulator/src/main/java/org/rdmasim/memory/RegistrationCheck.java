package org.rdmasim.memory;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.rdmasim.memory.RegistrationLimits.FirmwareCapScope;
import org.rdmasim.memory.RegistrationVerdict.LimitKind;
import org.rdmasim.transport.config.MemoryType;

/**
 * Replays registrations in order (buffer by buffer, each buffer's HCAs by md index, each HCA's default
 * MR then its strict companion) and stops at the first MR that crosses a limit, reporting it with
 * the real stack's messages.
 */
public final class RegistrationCheck {

    private RegistrationCheck() {
    }

    public static RegistrationVerdict check(List<RegistrationPlan> plans, RegistrationLimits limits) {
        if (plans == null || limits == null) {
            throw new MemoryInputException("registration plans and limits are required");
        }
        RegistrationTotals totals = RegistrationTotals.of(plans);
        List<String> warnings = new ArrayList<>();
        if (limits.mttMaxRegisterableBytes() != RegistrationLimits.UNLIMITED
                && limits.hostMemoryBytes() != RegistrationLimits.UNLIMITED
                && MttSizing.openMpiWarns(limits.mttMaxRegisterableBytes(), limits.hostMemoryBytes())) {
            warnings.add(String.join("\n", RegistrationErrorText.openMpiRegMemLimitLow(limits.localHostName(),
                    limits.mttMaxRegisterableBytes(), limits.hostMemoryBytes())));
        }

        Map<String, Long> firmwarePerHca = new TreeMap<>();
        Map<String, Long> registeredPerHca = new TreeMap<>();
        Map<String, Long> bar1PerGpu = new TreeMap<>();
        long firmwareTotal = 0;
        long pinnedHost = 0;

        for (RegistrationPlan plan : plans) {
            MemoryRegion region = plan.region();
            if (plan.perHca().isEmpty()) {
                continue;
            }
            HcaRegistration first = plan.perHca().get(0);
            if (region.type() == MemoryType.CUDA) {
                // ASSUMPTION: the GPU maps a buffer into BAR1 once, however many HCAs register it.
                long mapped = bar1PerGpu.merge(region.deviceName(), region.sizeBytes(), Long::sum);
                if (mapped > limits.bar1BytesPerGpu()) {
                    // ASSUMPTION: BAR1 exhaustion surfaces as ENOMEM from the verbs call.
                    return fail(LimitKind.BAR1, region, first, first.relaxedOrdering(), RegistrationErrorText.ENOMEM,
                            "rdmasim: BAR1 of " + region.deviceName() + " exhausted: " + mapped + " bytes mapped, "
                                    + limits.bar1BytesPerGpu() + " available",
                            warnings, totals, firmwarePerHca);
                }
            } else {
                pinnedHost += region.sizeBytes();
                if (pinnedHost > limits.hostMemoryBytes()) {
                    return hostMemoryFailure(region, first, first.relaxedOrdering(), pinnedHost, limits, warnings,
                            totals, firmwarePerHca);
                }
            }
            for (HcaRegistration reg : plan.perHca()) {
                String hca = reg.hca().name();
                for (int mr = 0; mr < reg.mrCount(); mr++) {
                    boolean relaxedMr = reg.relaxedOrdering() && mr == 0;
                    long registered = registeredPerHca.getOrDefault(hca, 0L) + region.sizeBytes();
                    if (registered > limits.mttMaxRegisterableBytes()) {
                        return mttFailure(region, reg, registered, limits, warnings, totals, firmwarePerHca);
                    }
                    registeredPerHca.put(hca, registered);
                    // Tentative sums: a failing MR is reported but not counted as pinned.
                    long perMr = reg.firmwareBytesPerMr();
                    long onHca = firmwarePerHca.getOrDefault(hca, 0L) + perMr;
                    long used = limits.firmwareCapScope() == FirmwareCapScope.PER_HCA ? onHca : firmwareTotal + perMr;
                    if (used > limits.firmwarePageCapBytes()) {
                        return fail(LimitKind.FIRMWARE_PAGE_CAP, region, reg, relaxedMr, RegistrationErrorText.EAGAIN,
                                null, warnings, totals, firmwarePerHca);
                    }
                    if (pinnedHost + perMr > limits.hostMemoryBytes()) {
                        return hostMemoryFailure(region, reg, relaxedMr, pinnedHost + perMr, limits, warnings, totals,
                                firmwarePerHca);
                    }
                    firmwarePerHca.put(hca, onHca);
                    firmwareTotal += perMr;
                    pinnedHost += perMr;
                }
            }
        }
        return new RegistrationVerdict(true, LimitKind.NONE, List.of(), warnings, totals, firmwarePerHca);
    }

    private static RegistrationVerdict hostMemoryFailure(MemoryRegion region, HcaRegistration reg, boolean relaxedMr,
            long pinnedHost, RegistrationLimits limits, List<String> warnings, RegistrationTotals totals,
            Map<String, Long> firmwarePerHca) {
        // ASSUMPTION: running the host out of pinnable memory surfaces as ENOMEM from the verbs call.
        return fail(LimitKind.HOST_MEMORY, region, reg, relaxedMr, RegistrationErrorText.ENOMEM,
                "rdmasim: pinned host memory " + pinnedHost + " bytes exceeds host memory "
                        + limits.hostMemoryBytes() + " bytes",
                warnings, totals, firmwarePerHca);
    }

    private static RegistrationVerdict mttFailure(MemoryRegion region, HcaRegistration reg, long registered,
            RegistrationLimits limits, List<String> warnings, RegistrationTotals totals,
            Map<String, Long> firmwarePerHca) {
        List<String> lines = new ArrayList<>();
        long total = limits.hostMemoryBytes() == RegistrationLimits.UNLIMITED ? 0 : limits.hostMemoryBytes();
        lines.addAll(RegistrationErrorText.openMpiRegMemLimitLow(limits.localHostName(),
                limits.mttMaxRegisterableBytes(), total));
        lines.add("rdmasim: " + reg.hca().name() + " would hold " + registered + " registered bytes, above its MTT "
                + "limit of " + limits.mttMaxRegisterableBytes() + " bytes (registering " + region.deviceName() + ")");
        return new RegistrationVerdict(false, LimitKind.MTT, lines, warnings, totals, firmwarePerHca);
    }

    private static RegistrationVerdict fail(LimitKind kind, MemoryRegion region, HcaRegistration reg, boolean relaxedMr,
            String strerror, String note, List<String> warnings, RegistrationTotals totals,
            Map<String, Long> firmwarePerHca) {
        List<String> lines = new ArrayList<>(
                RegistrationErrorText.registrationFailure(region, reg.hca(), relaxedMr, strerror));
        if (note != null) {
            lines.add(note);
        }
        return new RegistrationVerdict(false, kind, lines, warnings, totals, firmwarePerHca);
    }
}
