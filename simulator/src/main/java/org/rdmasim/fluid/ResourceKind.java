package org.rdmasim.fluid;

/** What physical thing a resource stands for; used to name bottlenecks and group reports. */
public enum ResourceKind {
    PCIE_LINK,
    CPU_INTERCONNECT,
    C2C_LINK,
    HOST_MEMORY,
    NIC_TX,
    NIC_RX,
    FABRIC_LINK,
    OTHER
}
