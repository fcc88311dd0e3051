package org.rdmasim.workload;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The transfer method a refit names ({@code workload: refit: method:}), with what the scenario reader, the
 * sizing search and the "what would halve it" reruns need to know of a method before its plan is built. The
 * refit packages build each kind's implementation; the rules that pick methods out by a trait live here once.
 * Declared in the order messages and reports list the methods.
 */
public enum RefitMethodKind implements Spelled {
    RDMA_PULL("rdma-pull"),
    WRITE_SCHEDULE("write-schedule"),
    NCCL_BROADCAST("nccl-broadcast"),
    CHECKPOINT_ENGINE("checkpoint-engine"),
    NIXL_RING("nixl-ring"),
    MOONCAKE_RING("mooncake-ring"),
    COLOCATED_IPC("colocated-ipc"),
    NCCL_P2P("nccl-p2p"),
    SHARDED_RDT("sharded-rdt");

    private final String spelling;

    RefitMethodKind(String spelling) {
        this.spelling = spelling;
    }

    /** The name a scenario writes ({@code rdma-pull}). */
    @Override
    public String spelling() {
        return spelling;
    }

    /** The kind a scenario spells {@code text}, case-insensitively, or empty when no method is spelt so. */
    public static Optional<RefitMethodKind> of(String text) {
        return Spelled.named(values(), text);
    }

    /**
     * Whether verl runs this method as one of its checkpoint engines under its manager (nccl and nccl_parallel,
     * nixl, mooncake: verl-project/verl e88dcf17b verl/checkpoint_engine/__init__.py:34-69), so a refit timed by verl's
     * trainer pays the manager's frame around it.
     */
    public boolean verlEngine() {
        return this == NCCL_BROADCAST || this == NIXL_RING || this == MOONCAKE_RING;
    }

    /** Every kind's spelling, in declaration order. */
    public static List<String> spellings() {
        return Arrays.stream(values()).map(RefitMethodKind::spelling).toList();
    }

    /**
     * Whether the method sends in buckets, so its plan reads {@code bucket}: rdma-pull and nccl-p2p move each
     * rank's runs and sharded-rdt one gather group per pull, so a bucket size changes nothing for them (rdma-pull's
     * host replica, which gathers in buckets, is a knob of rdma-pull and asked apart).
     */
    public boolean bucketed() {
        return switch (this) {
            case WRITE_SCHEDULE, NCCL_BROADCAST, CHECKPOINT_ENGINE, NIXL_RING, MOONCAKE_RING, COLOCATED_IPC -> true;
            case RDMA_PULL, NCCL_P2P, SHARDED_RDT -> false;
        };
    }

    /** The bucketed kinds ({@link #bucketed}), in declaration order. */
    public static List<RefitMethodKind> bucketedKinds() {
        return Arrays.stream(values()).filter(RefitMethodKind::bucketed).toList();
    }

    /**
     * Whether a variant's "what would halve it" reruns the method in place of its own: every method but
     * colocated-ipc, which needs trainer and engine on the same GPUs, a deployment rather than a method swap;
     * sharded-rdt, vLLM's own engine (it needs vLLM inference with Ray workers), not yet tried in place of the
     * others; and mooncake-ring, nixl-ring's chain with another transfer engine under it, which nixl-ring stands for.
     */
    public boolean compared() {
        return switch (this) {
            case COLOCATED_IPC, SHARDED_RDT, MOONCAKE_RING -> false;
            case RDMA_PULL, WRITE_SCHEDULE, NCCL_BROADCAST, CHECKPOINT_ENGINE, NIXL_RING, NCCL_P2P -> true;
        };
    }

    /** The compared kinds ({@link #compared}), in declaration order. */
    public static List<RefitMethodKind> comparedKinds() {
        return Arrays.stream(values()).filter(RefitMethodKind::compared).toList();
    }

    /**
     * Whether the method's NICs are NCCL's, picked through {@code NCCL_IB_HCA}: the broadcasts (nccl-broadcast,
     * checkpoint-engine) and NCCL send/recv. The variable restricts their NICs, its warnings belong in their
     * plans, and the sizing search varies their NICs by rewriting it.
     */
    public boolean readsNcclIbHca() {
        return switch (this) {
            case NCCL_BROADCAST, CHECKPOINT_ENGINE, NCCL_P2P -> true;
            case RDMA_PULL, WRITE_SCHEDULE, NIXL_RING, MOONCAKE_RING, COLOCATED_IPC, SHARDED_RDT -> false;
        };
    }

    /**
     * Whether the method's bytes ride UCX's lanes, so {@code UCX_NET_DEVICES} and {@code UCX_MAX_RMA_RAILS} stripe
     * them over a host's NICs: rdma-pull reading the trainer GPUs, write-schedule, nixl-ring and sharded-rdt. Not
     * rdma-pull's host replica ({@code hostReplica}) nor mooncake-ring, whose writes leave by the HCAs Mooncake's
     * Transfer Engine prefers; not NCCL's methods ({@link #readsNcclIbHca}); not colocated-ipc, which uses no NIC.
     */
    public boolean ridesUcxLanes(boolean hostReplica) {
        return switch (this) {
            case RDMA_PULL -> !hostReplica;
            case WRITE_SCHEDULE, NIXL_RING, SHARDED_RDT -> true;
            case NCCL_BROADCAST, CHECKPOINT_ENGINE, NCCL_P2P, MOONCAKE_RING, COLOCATED_IPC -> false;
        };
    }
}
