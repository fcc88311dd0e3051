package org.rdmasim.transport;

/**
 * One lane of a transfer: the NIC on the data source's host, the NIC on the data sink's host, and
 * the share of the bytes it carries. UCX fixes the shares when the operation is posted.
 */
public record Lane(String sourceNic, String sinkNic, long bytes) {
    public Lane {
        if (bytes < 0) {
            throw new IllegalArgumentException("lane bytes must be >= 0");
        }
    }
}
