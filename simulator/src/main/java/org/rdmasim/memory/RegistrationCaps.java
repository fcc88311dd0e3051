package org.rdmasim.memory;

import java.util.OptionalLong;

import org.rdmasim.hardware.Host;
import org.rdmasim.memory.RegistrationLimits.FirmwareCapScope;

/**
 * Ceilings a scenario or the command line puts on registration, on top of what the host itself
 * imposes (its memory and BAR1, see {@link HostRegistration#hostLimits(Host)}).
 *
 * @param firmwarePageCapBytes    firmware (ICM) page cap, {@link RegistrationLimits#UNLIMITED} for none
 * @param firmwareCapScope        per HCA (Crusoe's "per-VF" [crusoe-kb-nixl]) or per host
 * @param hostMemoryBytes         replaces the host's physical memory when present
 * @param mttMaxRegisterableBytes most bytes one HCA may register, {@link RegistrationLimits#UNLIMITED}
 *                                for none (only mlx4-era HCAs have this limit, see {@link MttSizing})
 */
public record RegistrationCaps(long firmwarePageCapBytes, FirmwareCapScope firmwareCapScope,
        OptionalLong hostMemoryBytes, long mttMaxRegisterableBytes) {

    public RegistrationCaps {
        MemoryInputException.requireNonNegative(firmwarePageCapBytes, "firmware page cap");
        MemoryInputException.requireNonNegative(mttMaxRegisterableBytes, "MTT limit");
        if (firmwareCapScope == null || hostMemoryBytes == null) {
            throw new MemoryInputException("firmware cap scope and host memory (possibly empty) are required");
        }
        hostMemoryBytes.ifPresent(b -> MemoryInputException.requireNonNegative(b, "host memory"));
    }

    /** No caps beyond the host's own memory and BAR1. */
    public static RegistrationCaps none() {
        return new RegistrationCaps(RegistrationLimits.UNLIMITED, FirmwareCapScope.PER_HCA, OptionalLong.empty(),
                RegistrationLimits.UNLIMITED);
    }

    public RegistrationCaps withFirmwarePageCap(long bytes, FirmwareCapScope scope) {
        return new RegistrationCaps(bytes, scope, hostMemoryBytes, mttMaxRegisterableBytes);
    }

    public RegistrationCaps withHostMemory(long bytes) {
        return new RegistrationCaps(firmwarePageCapBytes, firmwareCapScope, OptionalLong.of(bytes),
                mttMaxRegisterableBytes);
    }

    public RegistrationCaps withMttLimit(long bytes) {
        return new RegistrationCaps(firmwarePageCapBytes, firmwareCapScope, hostMemoryBytes, bytes);
    }

    /** The limits registrations on {@code host} are checked against. */
    public RegistrationLimits limitsFor(Host host) {
        RegistrationLimits limits = HostRegistration.hostLimits(host)
                .withFirmwarePageCap(firmwarePageCapBytes, firmwareCapScope)
                .withMttLimit(mttMaxRegisterableBytes);
        return hostMemoryBytes.isPresent() ? limits.withHostMemory(hostMemoryBytes.getAsLong()) : limits;
    }
}
