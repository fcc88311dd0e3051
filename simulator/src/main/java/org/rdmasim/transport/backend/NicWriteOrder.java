package org.rdmasim.transport.backend;

import java.util.Locale;
import java.util.Optional;
import org.rdmasim.transport.citation.Citation;
import org.rdmasim.transport.config.StackVersion;
import org.rdmasim.transport.config.UcxSite;

/**
 * How one sink NIC writes into the sink buffer: in relaxed or strict PCIe order, which the buffer's registration on
 * that NIC decides, or into host bounce buffers when there is no GPUDirect RDMA. {@code explain}'s "writes by" line
 * and the JSON's {@code writeOrder} entry are both this record.
 *
 * @param nic    the NIC, {@code host:nic}
 * @param into   the sink buffer's endpoint
 * @param order  what the NIC writes and how
 * @param cost   for a strict order into a GPU: what the platform's strict-order route costs, or that none is known;
 *               empty otherwise
 * @param source the code that puts the relaxed-ordering flag on the MR, or leaves it off; empty for host memory
 */
public record NicWriteOrder(String nic, String into, Order order, String cost, Optional<Citation> source) {
    /**
     * Where UCX {@code ucx} registers the default MR (with the flag when relaxed ordering is on) and the strict
     * companion: {@code uct_ib_verbs_mem_reg}, v1.20.0 {@code src/uct/ib/base/ib_md.c} L668-689.
     */
    public static Citation mrFlags(StackVersion ucx) {
        return UcxSite.MR_RELAXED_ORDER.cite(ucx);
    }

    /** The three cases. */
    public enum Order {
        /** The MR carries {@code IBV_ACCESS_RELAXED_ORDERING}. */
        RELAXED,
        /** No relaxed-ordering MR. */
        STRICT,
        /** No GPUDirect RDMA: the NIC writes host bounce buffers, not the GPU. */
        HOST_MEMORY;

        /** As the JSON names it. */
        public String jsonName() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
    }

    public String line() {
        String what = switch (order) {
            case HOST_MEMORY -> String.format(Locale.ROOT, "writes by %s land in host memory, not in %s (no GPUDirect "
                    + "RDMA)", nic, into);
            case RELAXED -> String.format(Locale.ROOT, "writes by %s into %s: relaxed PCIe order (the buffer's MR there "
                    + "carries IBV_ACCESS_RELAXED_ORDERING)", nic, into);
            case STRICT -> String.format(Locale.ROOT, "writes by %s into %s: strict PCIe order (no relaxed-ordering MR: "
                    + "UCX_IB_PCI_RELAXED_ORDERING and the UCX release's CPU list)%s", nic, into, cost);
        };
        return what + source.map(s -> "; source: " + s.text()).orElse("");
    }
}
