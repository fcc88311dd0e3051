package org.rdmasim.transport;

/**
 * A transfer to run: {@code bytes} from the {@code source} buffer into the {@code sink} buffer, by
 * READ (the sink pulls) or WRITE (the source pushes), as {@code descriptors} equal descriptors (one
 * {@code ucp_get_nbx}/{@code ucp_put_nbx} each, as NIXL posts them).
 *
 * @param acsRedirect   PCIe ACS enabled on the switches: peer traffic is sent up to the root complex
 * @param iommuPenalty  fraction of throughput lost to IOMMU translation when not in passthrough (0 = passthrough)
 */
public record TransferSpec(String id, Endpoint source, Endpoint sink, long bytes, Operation operation,
        int descriptors, DataPath sourcePath, DataPath sinkPath, boolean acsRedirect, double iommuPenalty) {
    public TransferSpec {
        if (bytes < 0) {
            throw new IllegalArgumentException("transfer " + id + " has negative size");
        }
        if (descriptors < 1) {
            throw new IllegalArgumentException("transfer " + id + " needs at least one descriptor");
        }
        if (iommuPenalty < 0 || iommuPenalty >= 1) {
            throw new IllegalArgumentException("iommuPenalty must be in [0, 1)");
        }
    }

    /** The host that posts the operation: the sink for a READ, the source for a WRITE. */
    public Endpoint initiator() {
        return operation == Operation.READ ? sink : source;
    }
}
