package org.rdmasim.transport.backend;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What {@code explain} says about the lanes once they are chosen: the protocol UCX runs over them (its
 * {@code UCX_PROTO_INFO=y} table), the PCIe order of each sink NIC's writes, and NCCL's GPUDirect rule for the
 * initiating GPU beside them. The text is printed from these records and the JSON built from them.
 *
 * @param protocol    the protocol table; empty for a backend without one
 * @param writeOrders one per sink NIC the lanes use
 * @param nccl        NCCL's decision per NIC; empty when the initiator is not a GPU or the backend is not UCX's
 */
public record PathExplanation(Optional<ProtocolTable> protocol, List<NicWriteOrder> writeOrders,
        Optional<NcclGdrTable> nccl) {
    /** A backend that says nothing of its own about the lanes. */
    public static final PathExplanation NONE = new PathExplanation(Optional.empty(), List.of(), Optional.empty());

    public PathExplanation {
        writeOrders = List.copyOf(writeOrders);
    }

    public List<String> lines() {
        if (protocol.isEmpty() && writeOrders.isEmpty() && nccl.isEmpty()) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        out.add("");
        protocol.ifPresent(p -> out.addAll(p.lines()));
        writeOrders.forEach(w -> out.add(w.line()));
        nccl.ifPresent(n -> out.addAll(n.lines()));
        return out;
    }
}
