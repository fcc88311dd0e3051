package org.rdmasim.transport.config;

/**
 * UCX memory types, with the names of {@code ucs_memory_type_names[]}
 * ({@code src/ucs/memory/memory_type.c}) and the default rendezvous fragment size of each from
 * {@code ucp_rndv_frag_default_sizes[]} in {@code src/ucp/core/ucp_context.c}.
 */
public enum MemoryType {
    HOST("host", 512L << 10),
    CUDA("cuda", 4L << 20),
    CUDA_MANAGED("cuda-managed", 4L << 20),
    ROCM("rocm", 4L << 20),
    ROCM_MANAGED("rocm-managed", 4L << 20),
    RDMA("rdma", 0),
    ZE_HOST("ze-host", 4L << 20),
    ZE_DEVICE("ze-device", 4L << 20),
    ZE_MANAGED("ze-managed", 4L << 20);

    private final String ucxName;
    private final long defaultFragSize;

    MemoryType(String ucxName, long defaultFragSize) {
        this.ucxName = ucxName;
        this.defaultFragSize = defaultFragSize;
    }

    public String ucxName() {
        return ucxName;
    }

    long defaultFragSize() {
        return defaultFragSize;
    }

    public static MemoryType fromUcxName(String name) {
        for (MemoryType t : values()) {
            if (t.ucxName.equalsIgnoreCase(name)) {
                return t;
            }
        }
        throw new IllegalArgumentException("a memory type (host, cuda, cuda-managed, rocm, "
                + "rocm-managed, ze-host, ze-device, ze-managed) before ':'");
    }
}
