package org.rdmasim.workload;

import org.rdmasim.transport.Endpoint;
import org.rdmasim.transport.Operation;

/**
 * One planned transfer: {@code bytes} from {@code from} to {@code to}, posted at {@code atSeconds}.
 * For a READ the receiver ({@code to}) pulls; for a WRITE the source pushes.
 */
public record TransferItem(String id, Endpoint from, Endpoint to, long bytes, double atSeconds, Operation operation,
        int descriptors) {
}
