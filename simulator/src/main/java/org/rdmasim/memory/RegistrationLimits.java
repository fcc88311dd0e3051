package org.rdmasim.memory;

/**
 * Ceilings a set of registrations must fit under. {@link #UNLIMITED} switches a limit off.
 *
 * @param firmwarePageCapBytes    host memory the firmware may pin for registrations (ICM pages)
 * @param firmwareCapScope        whether that cap applies to each HCA (VF) or to the whole host/VM
 * @param hostMemoryBytes         physical host memory: all pinned memory must fit; also the "Total
 *                                memory" Open MPI reports
 * @param bar1BytesPerGpu         BAR1 aperture per GPU: registered GPU memory must be mapped through it
 * @param mttMaxRegisterableBytes most bytes one HCA can register (mlx4 MTT size, see {@link MttSizing})
 * @param localHostName           host name for Open MPI's "Local host:" line
 */
public record RegistrationLimits(long firmwarePageCapBytes, FirmwareCapScope firmwareCapScope, long hostMemoryBytes,
        long bar1BytesPerGpu, long mttMaxRegisterableBytes, String localHostName) {

    public static final long UNLIMITED = Long.MAX_VALUE;

    /**
     * Crusoe [crusoe-kb-nixl] calls the cap "per-VF" but describes it as limiting "how much host memory any single
     * VM can drive through RDMA registrations"; both readings are offered. The firmware hands out its pages
     * per PCI function: the mlx5 driver answers each page request for the function_id the firmware names
     * (Linux drivers/net/ethernet/mellanox/mlx5/core/pagealloc.c, give_pages / reclaim_pages), and a VF is
     * one function, which a VM sees as one HCA. So "vf" is the per-HCA scope; "host" or "vm" is the reading
     * in which one budget covers all of a VM's HCAs.
     */
    public enum FirmwareCapScope {
        /** Each HCA (one PCI function: a PF, or a VF in a VM) has its own cap. */
        PER_HCA,
        /** One cap shared by all HCAs of the host or VM. */
        PER_HOST;

        /**
         * The one reading of a scope, for scenarios and the command line alike: {@code hca}, {@code vf} or
         * {@code per-hca}; {@code host}, {@code vm} or {@code per-host}; any case.
         *
         * @throws IllegalArgumentException naming what is accepted
         */
        public static FirmwareCapScope parse(String text) {
            return switch (text.strip().toLowerCase(java.util.Locale.ROOT)) {
                case "hca", "vf", "per-hca" -> PER_HCA;
                case "host", "vm", "per-host" -> PER_HOST;
                default -> throw new IllegalArgumentException("expected hca (or vf: each PCI function has its own "
                        + "firmware pages) or host (or vm: one budget for all HCAs), got '" + text + "'");
            };
        }
    }

    public RegistrationLimits {
        MemoryInputException.requireNonNegative(firmwarePageCapBytes, "firmware page cap");
        MemoryInputException.requireNonNegative(hostMemoryBytes, "host memory");
        MemoryInputException.requireNonNegative(bar1BytesPerGpu, "BAR1 size");
        MemoryInputException.requireNonNegative(mttMaxRegisterableBytes, "MTT limit");
        if (firmwareCapScope == null) {
            throw new MemoryInputException("firmware cap scope is required");
        }
        MemoryInputException.requireName(localHostName, "local host name");
    }

    public static RegistrationLimits unlimited() {
        return new RegistrationLimits(UNLIMITED, FirmwareCapScope.PER_HCA, UNLIMITED, UNLIMITED, UNLIMITED, "localhost");
    }

    public RegistrationLimits withFirmwarePageCap(long bytes, FirmwareCapScope scope) {
        return new RegistrationLimits(bytes, scope, hostMemoryBytes, bar1BytesPerGpu, mttMaxRegisterableBytes,
                localHostName);
    }

    public RegistrationLimits withHostMemory(long bytes) {
        return new RegistrationLimits(firmwarePageCapBytes, firmwareCapScope, bytes, bar1BytesPerGpu,
                mttMaxRegisterableBytes, localHostName);
    }

    public RegistrationLimits withBar1PerGpu(long bytes) {
        return new RegistrationLimits(firmwarePageCapBytes, firmwareCapScope, hostMemoryBytes, bytes,
                mttMaxRegisterableBytes, localHostName);
    }

    public RegistrationLimits withMttLimit(long bytes) {
        return new RegistrationLimits(firmwarePageCapBytes, firmwareCapScope, hostMemoryBytes, bar1BytesPerGpu, bytes,
                localHostName);
    }

    public RegistrationLimits withLocalHostName(String name) {
        return new RegistrationLimits(firmwarePageCapBytes, firmwareCapScope, hostMemoryBytes, bar1BytesPerGpu,
                mttMaxRegisterableBytes, name);
    }
}
