package org.rdmasim.memory;

import java.util.List;

/**
 * Virtual address space reserved by CUDA memory pools, as NCCL creates them (one shadow pool per
 * communicator, sometimes two).
 *
 * <p>NVIDIA/nccl PR #2064 [nccl-pr-2064]: {@code cudaMemPoolCreate} with {@code maxSize = 0} reserves VA of
 * 2x the GPU's memory per pool (measured on 8xH200, CUDA 13.0, driver 580.126.09; the CUDA documentation
 * only says "system dependent"). A non-zero {@code maxSize} bounds the reservation. NCCL's shadow pool
 * sets {@code maxSize} from {@code NCCL_SHADOW_MEMPOOL_MAX_SIZE}, default 1 GiB, 0 meaning "driver
 * default" ([nccl-src] {@code src/allocator.cc}, from v2.30.7-1; proposed in PR #2064).
 *
 * <p>Rounding. 2 x 139.80 GiB is 279.60 GiB, yet PR #2064 measured 280.00 GiB per pool, and its other
 * figures agree with 280 rather than 279.6: 20 x 280 GiB = 5.469 TiB ("5.47 TiB"), 0.04 + 5.469 = 5.509
 * ("5.51 TiB"); 20 x 279.6 GiB would give 5.46 and 5.50. So the driver rounds the reservation up to
 * some granularity. Any granularity g with ceil(279.6 / g) * g = 280.00 GiB fits: 512 MiB, 1, 2, 4 or
 * 8 GiB (16 GiB would give 288). We default to 1 GiB and mark it an assumption; one data point cannot
 * say more. The granularity is overridable.
 */
public final class CudaPoolAddressSpace {

    /** NCCL_SHADOW_MEMPOOL_MAX_SIZE default, {@code 1 << 30}. */
    public static final long NCCL_SHADOW_MEMPOOL_MAX_SIZE_DEFAULT = ByteUnits.GIB;
    /** ASSUMPTION: reservation granularity; see the class comment for the range PR #2064 allows. */
    public static final long DEFAULT_RESERVATION_GRANULARITY = ByteUnits.GIB;
    /** Per NVIDIA/nccl PR #2064 [nccl-pr-2064]: maxSize = 0 reserves this many times the device memory. */
    public static final int DRIVER_DEFAULT_MULTIPLE = 2;

    private final long deviceMemoryBytes;
    private final long poolMaxSizeBytes;
    private final int poolsPerCommunicator;
    private final long granularityBytes;

    private CudaPoolAddressSpace(long deviceMemoryBytes, long poolMaxSizeBytes, int poolsPerCommunicator,
            long granularityBytes) {
        this.deviceMemoryBytes = MemoryInputException.requireNonNegative(deviceMemoryBytes, "device memory");
        this.poolMaxSizeBytes = MemoryInputException.requireNonNegative(poolMaxSizeBytes, "pool maxSize");
        if (poolsPerCommunicator < 1 || poolsPerCommunicator > 2) {
            throw new MemoryInputException("pools per NCCL communicator must be 1 or 2, got " + poolsPerCommunicator);
        }
        this.poolsPerCommunicator = poolsPerCommunicator;
        if (granularityBytes <= 0) {
            throw new MemoryInputException("reservation granularity must be > 0 bytes, got " + granularityBytes);
        }
        this.granularityBytes = granularityBytes;
    }

    /** Pools created with {@code maxSize = 0} (NCCL before PR #2064), one per communicator. */
    public static CudaPoolAddressSpace forDevice(long deviceMemoryBytes) {
        return new CudaPoolAddressSpace(deviceMemoryBytes, 0, 1, DEFAULT_RESERVATION_GRANULARITY);
    }

    /** Pools as NCCL's shadow pool creates them given {@code NCCL_SHADOW_MEMPOOL_MAX_SIZE} (0 disables the cap). */
    public CudaPoolAddressSpace withNcclShadowMempoolMaxSize(long bytes) {
        return withPoolMaxSize(bytes);
    }

    /** {@code cudaMemPoolProps.maxSize}; 0 means the driver default (2x device memory). */
    public CudaPoolAddressSpace withPoolMaxSize(long bytes) {
        return new CudaPoolAddressSpace(deviceMemoryBytes, bytes, poolsPerCommunicator, granularityBytes);
    }

    public CudaPoolAddressSpace withPoolsPerCommunicator(int pools) {
        return new CudaPoolAddressSpace(deviceMemoryBytes, poolMaxSizeBytes, pools, granularityBytes);
    }

    public CudaPoolAddressSpace withReservationGranularity(long bytes) {
        return new CudaPoolAddressSpace(deviceMemoryBytes, poolMaxSizeBytes, poolsPerCommunicator, bytes);
    }

    public long deviceMemoryBytes() {
        return deviceMemoryBytes;
    }

    public int poolsPerCommunicator() {
        return poolsPerCommunicator;
    }

    /**
     * VA one pool reserves: {@code maxSize} when set, else 2x device memory rounded up to the
     * reservation granularity.
     */
    public long vaPerPoolBytes() {
        if (poolMaxSizeBytes > 0) {
            // ASSUMPTION: an explicit maxSize is reserved as given (seed: "a fixed 1 GiB bound").
            return poolMaxSizeBytes;
        }
        return ByteUnits.roundUp(Math.multiplyExact(deviceMemoryBytes, (long) DRIVER_DEFAULT_MULTIPLE),
                granularityBytes);
    }

    /**
     * What the driver's default reservation would be before its rounding ({@code 2 x device memory}), or
     * {@link #vaPerPoolBytes()} itself for an explicit maxSize, which is not rounded.
     */
    public long unroundedVaPerPoolBytes() {
        return poolMaxSizeBytes > 0 ? poolMaxSizeBytes
                : Math.multiplyExact(deviceMemoryBytes, (long) DRIVER_DEFAULT_MULTIPLE);
    }

    /** True when the driver's default reservation is rounded up, so the per-pool figure rests on the granularity. */
    public boolean roundedUp() {
        return poolMaxSizeBytes == 0 && unroundedVaPerPoolBytes() != vaPerPoolBytes();
    }

    /** The reservation granularity assumed for the driver's default ({@link #DEFAULT_RESERVATION_GRANULARITY}). */
    public long granularityBytes() {
        return granularityBytes;
    }

    public long vaPerCommunicatorBytes() {
        return Math.multiplyExact(vaPerPoolBytes(), (long) poolsPerCommunicator);
    }

    /** VA reserved by {@code pools} pools. */
    public long vaForPools(long pools) {
        MemoryInputException.requireNonNegative(pools, "pool count");
        return Math.multiplyExact(vaPerPoolBytes(), pools);
    }

    /** Process VA after creating {@code pools} pools, starting from {@code startVaBytes} in use. */
    public long vaAfterPools(long startVaBytes, long pools) {
        MemoryInputException.requireNonNegative(startVaBytes, "starting VA");
        return Math.addExact(startVaBytes, vaForPools(pools));
    }

    /** Process VA after {@code communicators} communicators. */
    public long vaAfterCommunicators(long startVaBytes, long communicators) {
        MemoryInputException.requireNonNegative(communicators, "communicator count");
        return vaAfterPools(startVaBytes, Math.multiplyExact(communicators, (long) poolsPerCommunicator));
    }

    /** Whole communicators that still fit in {@code space} after {@code startVaBytes} are in use. */
    public long communicatorsUntilExhaustion(VirtualAddressSpace space, long startVaBytes) {
        MemoryInputException.requireNonNegative(startVaBytes, "starting VA");
        long free = space.bytes() - startVaBytes;
        if (free <= 0) {
            return 0;
        }
        long perCommunicator = vaPerCommunicatorBytes();
        return perCommunicator == 0 ? Long.MAX_VALUE : free / perCommunicator;
    }

    public boolean fits(VirtualAddressSpace space, long startVaBytes, long communicators) {
        return vaAfterCommunicators(startVaBytes, communicators) <= space.bytes();
    }

    public static List<String> assumptions() {
        return List.of(
                "ASSUMPTION: maxSize=0 reserves 2x device memory rounded up to 1 GiB; NVIDIA/nccl PR #2064 fixes the "
                        + "granularity only to 512 MiB..8 GiB",
                "ASSUMPTION: a non-zero maxSize reserves exactly maxSize",
                "ASSUMPTION: reservations never fail early or fragment; the usable space is all of it");
    }
}
