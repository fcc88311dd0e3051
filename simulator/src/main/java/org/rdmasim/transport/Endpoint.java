package org.rdmasim.transport;

/**
 * One side of a transfer: a buffer in the memory of {@code device} (a GPU, or a CPU socket
 * {@code CPU0}.. for host memory) on {@code host}.
 */
public record Endpoint(String host, String device) {
    @Override
    public String toString() {
        return host + ":" + device;
    }
}
