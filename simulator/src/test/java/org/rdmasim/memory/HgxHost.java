package org.rdmasim.memory;

import org.rdmasim.transport.ucx.HcaDistance;
import java.util.ArrayList;
import java.util.List;

import org.rdmasim.transport.config.MemoryType;

/**
 * An 8-GPU, 8-NIC HGX-style host as the registration model sees it ([dgx-h100-guide]): GPU i shares
 * a PCIe switch with mlx5_i; GPUs and NICs 0-3 sit on socket 0, 4-7 on socket 1. Distances use the
 * UCX figures ([ucx-src] src/ucs/sys/topo/base/topo.c): same switch 0 ns / no limit, same NUMA node 300 ns / 17 GB/s,
 * across NUMA nodes 500 ns / 0.22 GB/s. The NICs' UCX md indexes start at 6, as on the host of Crusoe's log
 * [crusoe-kb-nixl] where mlx5_5 was md[11].
 */
final class HgxHost {

    static final int GPUS = 8;
    static final int FIRST_NIC_MD_INDEX = 6;
    static final HcaDistance PIX = new HcaDistance(0.0, Double.POSITIVE_INFINITY);
    static final HcaDistance NODE = new HcaDistance(300e-9, 17e9);
    static final HcaDistance SYS = new HcaDistance(500e-9, 0.22e9);
    /** The buffer address and dma-buf fd of Crusoe's log [crusoe-kb-nixl]. */
    static final long SEED_ADDRESS = 0x7f7980000000L;
    static final int SEED_DMABUF_FD = 438;

    private HgxHost() {
    }

    /**
     * The registration settings a NIXL release runs with when the user sets nothing, taken from the one
     * NIXL release table (transport.config.ConfigResolver): NIXL 1.1 + UCX 1.20 gives try / inf, NIXL 1.2
     * + UCX 1.21 gives try / auto.
     */
    static UcxRegistrationConfig nixl(org.rdmasim.hardware.CpuFamily cpu, boolean fixedRelease) {
        var setup = org.rdmasim.transport.config.StackSetup.of(List.of(),
                org.rdmasim.transport.config.StackVersion.parse(fixedRelease ? "1.21.0" : "1.20.0"), "GPU0", 0,
                org.rdmasim.transport.config.NicTopologyView.of(List.of("mlx5_0"), g -> "mlx5_0"))
                .withNixl(org.rdmasim.transport.config.StackVersion.parse(fixedRelease ? "1.2.0" : "1.1.0"));
        var c = org.rdmasim.transport.config.ConfigResolver.resolve(setup);
        return new UcxRegistrationConfig(c.maxHcaPerGpu(), c.relaxedOrdering(), cpu, c.ucxVersion());
    }

    static String gpu(int i) {
        return "GPU" + i;
    }

    /** The HCAs as seen from GPU {@code gpu}'s memory; {@code nics} limits them to mlx5_0..nics-1. */
    static List<HcaCandidate> hcasSeenFrom(int gpu, int nics) {
        List<HcaCandidate> list = new ArrayList<>();
        for (int nic = 0; nic < nics; nic++) {
            HcaDistance d = nic == gpu ? PIX : (nic / 4 == gpu / 4 ? NODE : SYS);
            list.add(new HcaCandidate("mlx5_" + nic, FIRST_NIC_MD_INDEX + nic, d, true));
        }
        return list;
    }

    static List<HcaCandidate> hcasSeenFrom(int gpu) {
        return hcasSeenFrom(gpu, 8);
    }

    /**
     * One {@code bytes} GPU buffer per GPU, one process per GPU (so each at the address of Crusoe's log
     * [crusoe-kb-nixl]).
     */
    static MemoryRegion gpuBuffer(int gpu, long bytes) {
        return new MemoryRegion(gpu(gpu), MemoryType.CUDA, bytes, SEED_ADDRESS, SEED_DMABUF_FD);
    }

    static List<RegistrationPlan> planEveryGpu(RegistrationModel model, long bytesPerGpu, int nics,
            UcxRegistrationConfig config) {
        List<RegistrationPlan> plans = new ArrayList<>();
        for (int g = 0; g < GPUS; g++) {
            plans.add(model.plan(gpuBuffer(g, bytesPerGpu), hcasSeenFrom(g, nics), config));
        }
        return plans;
    }
}
