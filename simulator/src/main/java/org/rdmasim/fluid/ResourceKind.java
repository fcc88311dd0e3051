package org.rdmasim.fluid;

/** What physical thing a resource stands for; used to name bottlenecks and group reports. */
public enum ResourceKind {
    PCIE_LINK,
    CPU_INTERCONNECT,
    C2C_LINK,
    HOST_MEMORY,
    NIC_TX,
    NIC_RX,
    /** A NIC's delivered RDMA READ rate taken from a calibration profile: a measurement, not a mechanism. */
    NIC_READ_CALIBRATED,
    /** A NIC's strict-order writes into GPU memory, at a profile's calibrated rate. */
    STRICT_ORDER_WRITE,
    FABRIC_LINK,
    OTHER
}
