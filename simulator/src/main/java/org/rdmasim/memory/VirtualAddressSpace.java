package org.rdmasim.memory;

/**
 * A process's usable virtual address space, as a power of two.
 *
 * <p>NVIDIA/nccl PR #2064 [nccl-pr-2064] speaks of a "48-bit (256 TiB)" space and a "57-bit (128 PiB)"
 * one; those are the full-width figures. What a process can actually map is narrower on x86-64 (Linux
 * {@code Documentation/arch/x86/x86_64/5level-paging.rst} and {@code mm.rst}): 4-level paging gives user
 * space 47 bits (128 TiB, the other half is the kernel's); 5-level paging gives user space 56 bits, but
 * the kernel hands out addresses above 47 bits only to an {@code mmap} whose hint lies above them.
 * ARM64 with {@code CONFIG_ARM64_VA_BITS=48} gives user space the full 48 bits (256 TiB).
 *
 * @param name description
 * @param bits log2 of the usable bytes
 */
public record VirtualAddressSpace(String name, int bits) {

    /** NVIDIA/nccl PR #2064's "48-bit (256 TiB)" [nccl-pr-2064]. */
    public static final VirtualAddressSpace SEED_48_BIT = new VirtualAddressSpace("48-bit (NCCL PR #2064)", 48);
    /** NVIDIA/nccl PR #2064's "57-bit (128 PiB)" [nccl-pr-2064]. */
    public static final VirtualAddressSpace SEED_57_BIT = new VirtualAddressSpace("57-bit (NCCL PR #2064)", 57);
    public static final VirtualAddressSpace X86_64_FOUR_LEVEL_USER =
            new VirtualAddressSpace("x86-64 4-level paging, user half", 47);
    public static final VirtualAddressSpace ARM64_48_BIT_USER = new VirtualAddressSpace("arm64 VA_BITS=48, user", 48);
    /** 5-level paging without a high mmap hint: still the 47-bit window. */
    public static final VirtualAddressSpace X86_64_FIVE_LEVEL_DEFAULT_WINDOW =
            new VirtualAddressSpace("x86-64 5-level paging, default mmap window", 47);
    public static final VirtualAddressSpace X86_64_FIVE_LEVEL_USER =
            new VirtualAddressSpace("x86-64 5-level paging, user half with high hint", 56);

    public VirtualAddressSpace {
        MemoryInputException.requireName(name, "address space name");
        if (bits < 1 || bits > 62) {
            throw new MemoryInputException("address space width must be 1..62 bits, got " + bits);
        }
    }

    public static VirtualAddressSpace ofBits(int bits) {
        return new VirtualAddressSpace(bits + "-bit", bits);
    }

    public long bytes() {
        return 1L << bits;
    }
}
