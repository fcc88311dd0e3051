package org.rdmasim.hardware;

/**
 * How two devices on a host are connected, in the words of {@code nvidia-smi topo -m} (and NCCL's
 * path types, src/include/graph.h), best first: X (itself), NV# (NVLink), PIX (one PCIe switch),
 * PXB (several PCIe switches, no host bridge), PHB (through a PCIe host bridge), NODE (across host
 * bridges within a NUMA node), SYS (across the inter-socket link).
 */
public enum PathType {
    X, NV, PIX, PXB, PHB, NODE, SYS;

    public boolean atMost(PathType other) {
        return ordinal() <= other.ordinal();
    }
}
