package org.rdmasim.workload;

import org.rdmasim.transport.Endpoint;
import org.rdmasim.transport.Operation;

/**
 * One planned transfer: {@code bytes} from {@code from} to {@code to}, posted at {@code atSeconds}.
 * For a READ the receiver ({@code to}) pulls; for a WRITE the source pushes.
 *
 * @param bufferBytes size of the registered buffer on each side: {@code bytes} for a model pull, one
 *                    message for a benchmark that reuses one buffer for every message (perftest)
 */
public record TransferItem(String id, Endpoint from, Endpoint to, long bytes, double atSeconds, Operation operation,
        int descriptors, long bufferBytes) {
    public TransferItem(String id, Endpoint from, Endpoint to, long bytes, double atSeconds, Operation operation,
            int descriptors) {
        this(id, from, to, bytes, atSeconds, operation, descriptors, bytes);
    }
}
