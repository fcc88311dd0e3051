package org.rdmasim.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The refit method kinds and registration modes: each reads back from its scenario spelling, the lists messages
 * print keep their order, and the traits pick the methods the scenario reader, sizing search and reruns picked
 * by name before.
 */
class RefitMethodKindTest {
    @Test
    void everyKindRoundTripsItsSpelling() {
        for (RefitMethodKind k : RefitMethodKind.values()) {
            assertEquals(Optional.of(k), RefitMethodKind.of(k.spelling()), k.name());
        }
        assertEquals(RefitMethodKind.values().length, RefitMethodKind.spellings().stream().distinct().count());
        assertEquals(Optional.empty(), RefitMethodKind.of("carrier-pigeon"));
        assertEquals(Optional.empty(), RefitMethodKind.of("RDMA_PULL"), "the constant's name is not a spelling");
    }

    @Test
    void everyRegistrationModeRoundTripsItsSpelling() {
        for (RefitRegistrationMode m : RefitRegistrationMode.values()) {
            assertEquals(Optional.of(m), RefitRegistrationMode.of(m.spelling()), m.name());
        }
        assertEquals(Optional.empty(), RefitRegistrationMode.of("pooled"), "the scenario writes pool");
        assertEquals("per-tensor, pool or arena", RefitRegistrationMode.expected());
    }

    /** Every spelled value reads back whatever the case a scenario writes it in (one look-up for all: Spelled). */
    @Test
    void spellingsReadCaseInsensitively() {
        assertEquals(Optional.of(RefitMethodKind.RDMA_PULL), RefitMethodKind.of("RDMA-Pull"));
        assertEquals(Optional.of(RefitRegistrationMode.POOLED), RefitRegistrationMode.of("POOL"));
        assertEquals(Optional.of(InferenceEngine.SGLANG), InferenceEngine.of("SGLang"));
        assertEquals("vllm or sglang", InferenceEngine.expected());
        assertEquals("rdma-pull", Spelled.listed(new Spelled[] {RefitMethodKind.RDMA_PULL}));
    }

    /** The order messages list the methods in, and the subsets they list. */
    @Test
    void theListsKeepTheirOrder() {
        assertEquals(List.of("rdma-pull", "write-schedule", "nccl-broadcast", "checkpoint-engine", "nixl-ring",
                "mooncake-ring", "colocated-ipc", "nccl-p2p", "sharded-rdt"), RefitMethodKind.spellings());
        assertEquals(List.of("write-schedule", "nccl-broadcast", "checkpoint-engine", "nixl-ring", "mooncake-ring",
                "colocated-ipc"), RefitMethodKind.bucketedKinds().stream().map(RefitMethodKind::spelling).toList());
        assertEquals(List.of("rdma-pull", "write-schedule", "nccl-broadcast", "checkpoint-engine", "nixl-ring",
                "nccl-p2p"), RefitMethodKind.comparedKinds().stream().map(RefitMethodKind::spelling).toList());
    }

    /**
     * NCCL's methods read NCCL_IB_HCA, UCX's ride its lanes, and no method does both; colocated-ipc and
     * mooncake-ring do neither (no NIC; Mooncake's own HCAs), nor does rdma-pull from a host replica.
     */
    @Test
    void aMethodsNicsAreNcclsOrUcxsOrNeither() {
        for (RefitMethodKind k : RefitMethodKind.values()) {
            assertFalse(k.readsNcclIbHca() && k.ridesUcxLanes(false), k.spelling());
        }
        assertEquals(List.of(RefitMethodKind.NCCL_BROADCAST, RefitMethodKind.CHECKPOINT_ENGINE,
                RefitMethodKind.NCCL_P2P), List.of(RefitMethodKind.values()).stream()
                        .filter(RefitMethodKind::readsNcclIbHca).toList());
        assertEquals(List.of(RefitMethodKind.RDMA_PULL, RefitMethodKind.WRITE_SCHEDULE, RefitMethodKind.NIXL_RING,
                RefitMethodKind.SHARDED_RDT), List.of(RefitMethodKind.values()).stream()
                        .filter(k -> k.ridesUcxLanes(false)).toList());
        assertTrue(RefitMethodKind.WRITE_SCHEDULE.ridesUcxLanes(true), "host replica is rdma-pull's knob only");
        assertFalse(RefitMethodKind.RDMA_PULL.ridesUcxLanes(true));
    }
}
