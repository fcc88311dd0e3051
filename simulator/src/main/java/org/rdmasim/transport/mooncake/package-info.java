/**
 * Mooncake's Transfer Engine (kvcache-ai/Mooncake {@code mooncake-transfer-engine}), reached standalone or
 * through NIXL's Mooncake plugin: which RDMA devices a buffer's slices use, from the topology matrix the
 * engine discovers for each buffer location ({@code cpu:N} for host memory, {@code cuda:N} for a GPU).
 */
package org.rdmasim.transport.mooncake;
