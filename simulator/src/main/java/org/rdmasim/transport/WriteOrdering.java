package org.rdmasim.transport;

/**
 * Whether a NIC writes into a buffer in strict PCIe order: the buffer's registration on that NIC's
 * HCA lacks {@code IBV_ACCESS_RELAXED_ORDERING}. UCX moves data with the default MR, which carries the
 * flag whenever the memory domain enables relaxed ordering; the strict companion MR serves atomics
 * only (openucx/ucx v1.20.0 src/uct/ib/base/ib_md.c L668-689, uct_ib_verbs_mem_reg).
 */
@FunctionalInterface
public interface WriteOrdering {
    /** True when the NIC {@code nic} of {@code host} writes into {@code device}'s buffer without relaxed ordering. */
    boolean strict(String host, String device, String nic);

    /** No registration known (explicit lanes, NIXL's libfabric backend): no ordering penalty. */
    WriteOrdering RELAXED = (host, device, nic) -> false;
}
