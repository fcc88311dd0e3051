package org.rdmasim.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.Presets;

/** One GPUDirect decision for NIXL/UCX transfers: registration decides it, not NCCL's path level. */
class GpuDirectDecisionTest {
    private final Host dgx = new Host("a", Presets.get("dgx-h100"));

    @Test
    void gpuMemoryGoesDirectOnAnyPathWhenItCanBeRegistered() {
        assertEquals(DataPath.GPUDIRECT, GpuDirectDecision.of(dgx, "GPU0", true, true));
        // GPU7 sits on the other socket from mlx5_0: still GPUDirect (UCX has no path-type limit)
        assertEquals(DataPath.GPUDIRECT, GpuDirectDecision.of(dgx, "GPU7", true, true));
        assertEquals(DataPath.GPUDIRECT, GpuDirectDecision.of(dgx, "GPU7", true, false));
    }

    @Test
    void withoutGpuRegistrationRmaIsEmulatedAndRendezvousIsPipelined() {
        // ucp_put_nbx/ucp_get_nbx: only put/am/bcopy, get/am/bcopy remain (proto_common.c L651-667)
        assertEquals(DataPath.RMA_EMULATION, GpuDirectDecision.of(dgx, "GPU0", false, true));
        // a rendezvous send: rndv/put/mtype, rndv/get/mtype through host fragments
        assertEquals(DataPath.STAGED, GpuDirectDecision.of(dgx, "GPU0", false, false));
    }

    @Test
    void hostMemoryIsHostMemoryWhateverGpuDirectSays() {
        assertEquals(DataPath.HOST_MEMORY, GpuDirectDecision.of(dgx, "CPU1", true, true));
        assertEquals(DataPath.HOST_MEMORY, GpuDirectDecision.of(dgx, "CPU1", false, true));
    }
}
