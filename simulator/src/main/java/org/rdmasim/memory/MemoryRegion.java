package org.rdmasim.memory;

import org.rdmasim.transport.config.MemoryType;
/**
 * A buffer to register: what memory it is, how big, which device owns it (a GPU for cuda, a NUMA
 * node or socket for host), its virtual address and, for GPU memory exported through dma-buf, the
 * file descriptor UCX prints. Address and fd only feed error messages and page alignment.
 *
 * @param deviceName owning device, e.g. "GPU0"
 * @param type       cuda or host
 * @param sizeBytes  length in bytes, >= 0
 * @param address    virtual address of the first byte, >= 0
 * @param dmabufFd   dma-buf fd for GPU memory registered with {@code ibv_reg_dmabuf_mr}, or -1
 */
public record MemoryRegion(String deviceName, MemoryType type, long sizeBytes, long address, int dmabufFd) {

    public static final int NO_DMABUF = -1;

    public MemoryRegion {
        MemoryInputException.requireName(deviceName, "buffer device name");
        if (type != MemoryType.CUDA && type != MemoryType.HOST) {
            // The model knows how UCX registers these two; managed, ROCm and ZE memory are not modelled.
            throw new MemoryInputException("buffer memory type must be cuda or host, got "
                    + (type == null ? "none" : type.ucxName()));
        }
        MemoryInputException.requireNonNegative(sizeBytes, "buffer size");
        MemoryInputException.requireNonNegative(address, "buffer address");
        if (dmabufFd < NO_DMABUF) {
            throw new MemoryInputException("dma-buf fd must be >= 0, or -1 for none, got " + dmabufFd);
        }
    }

    /** GPU memory; dma-buf fd unknown (registered through nvidia-peermem or fd not reported). */
    public static MemoryRegion cuda(String gpu, long sizeBytes) {
        return new MemoryRegion(gpu, MemoryType.CUDA, sizeBytes, 0, NO_DMABUF);
    }

    public static MemoryRegion host(String numaNode, long sizeBytes) {
        return new MemoryRegion(numaNode, MemoryType.HOST, sizeBytes, 0, NO_DMABUF);
    }

    public MemoryRegion withAddress(long newAddress) {
        return new MemoryRegion(deviceName, type, sizeBytes, newAddress, dmabufFd);
    }

    public MemoryRegion withDmabufFd(int fd) {
        return new MemoryRegion(deviceName, type, sizeBytes, address, fd);
    }

    public boolean usesDmabuf() {
        return dmabufFd != NO_DMABUF;
    }
}
