package org.rdmasim.transport;

/**
 * One lane of a transfer: the NIC on the data source's host, the NIC on the data sink's host, the
 * share of the bytes it carries, and which of the initiator device's paths (QPs) carries it. UCX
 * fixes the shares when the operation is posted. Two lanes may join the same NICs on two paths.
 */
public record Lane(String sourceNic, String sinkNic, long bytes, int path) {
    public Lane {
        if (bytes < 0) {
            throw new IllegalArgumentException("lane bytes must be >= 0");
        }
        if (path < 0) {
            throw new IllegalArgumentException("lane path must be >= 0");
        }
    }

    public Lane(String sourceNic, String sinkNic, long bytes) {
        this(sourceNic, sinkNic, bytes, 0);
    }

    /** The lane as UCX_PROTO_INFO names it: the initiator's device and path. */
    public String label() {
        return sourceNic + "->" + sinkNic + (path > 0 ? " path" + path : "");
    }
}
