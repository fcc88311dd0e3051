package org.rdmasim.importers;

import org.rdmasim.hardware.CpuFamily;

/**
 * Memory and inter-socket figures for a CPU family, which neither an NCCL topology file nor
 * {@code nvidia-smi topo -m} carries. The figures are the ones the presets use
 * ({@link org.rdmasim.hardware.Presets}): Sapphire Rapids 8 x DDR5-4800 = 307.2 GB/s per socket and
 * 4 UPI links of ~32 GB/s per direction; Grace 512 GB/s LPDDR5X and the presets' assumed 100 GB/s
 * between the two Graces of a tray.
 *
 * @param memoryBandwidth per socket, bytes per second
 * @param memoryBytes     per socket
 * @param interSocket     per direction between two sockets, bytes per second
 */
public record SocketDefaults(double memoryBandwidth, long memoryBytes, double interSocket) {

    public static SocketDefaults of(CpuFamily family) {
        return switch (family) {
            case NVIDIA_GRACE -> new SocketDefaults(512e9, 480L << 30, 100e9);
            // ASSUMPTION: other x86 families get the Sapphire Rapids figures; no scenario so far
            // depends on their memory or socket-link bandwidth.
            default -> new SocketDefaults(307.2e9, 1L << 40, 4 * 32e9);
        };
    }
}
