package org.rdmasim.transport.config;

import java.util.Optional;
import org.rdmasim.hardware.PathType;
import org.rdmasim.transport.citation.Citation;

/**
 * Whether NCCL at a given release would use GPUDirect RDMA between a GPU and a NIC, as
 * {@code ncclTopoCheckGdr} decides it (NVIDIA/nccl {@code src/graph/paths.cc} [nccl-src]). This
 * is NCCL's rule: NIXL/UCX transfers do not read it ({@link org.rdmasim.transport.GpuDirectDecision}).
 *
 * <p>By release:
 * <ul>
 *   <li>up to 2.26.1: the path type against {@code NCCL_NET_GDR_LEVEL}, default PXB (v2.25.1-1 L415-427).
 *       A NIC behind the CPU is PHB even when the GPU reaches that CPU over NVLink-C2C, so GB200 stages;</li>
 *   <li>2.26.2: {@code NCCL_PARAM(NetGdrC2c, "NET_GDR_C2C", 0)} (v2.26.2-1 L381): when set, a PHB path of
 *       a GPU whose CPU link is C2C counts as C2C (L433-437), which passes PXB;</li>
 *   <li>2.27.3: the default becomes 1 (v2.27.3-1 L386) and such a path gets its own type, P2C (L669-681);
 *       with the switch on, P2C counts as C2C (L437-440). The same through 2.28.x (v2.28.9-1 L416, L467);</li>
 *   <li>2.29.2: no more remapping; the default level is P2C while the switch is on, PXB otherwise
 *       (v2.29.2-1 L456), so an explicit {@code NCCL_NET_GDR_LEVEL=PXB} now stops GPUDirect on P2C.</li>
 * </ul>
 * Not modelled: GPUs or NICs without GPUDirect support, the PXN detour (a proxy GPU's distance is used),
 * and {@code NCCL_NET_GDR_READ}'s extra condition on sends before Ampere.
 *
 * @param release   the NCCL release
 * @param path      NCCL's path type between GPU and NIC at that release
 * @param distance  the type compared with the level, after the C2C remap of 2.26.2-2.28.x
 * @param level     the level in force: the user's, if the release recognises it, else the release default
 * @param userLevel whether {@code level} is the user's
 * @param c2c       whether {@code NCCL_NET_GDR_C2C} is in force (exists at the release and is not 0)
 * @param gpuDirect whether NCCL uses GPUDirect RDMA on this GPU-NIC pair
 */
public record NcclGdr(StackVersion release, NcclPathType path, NcclPathType distance, NcclPathType level,
        boolean userLevel, boolean c2c, boolean gpuDirect) {

    /** First release with {@code NCCL_NET_GDR_C2C} (default 0): v2.26.2-1 paths.cc L381. */
    static final StackVersion C2C_SWITCH = new StackVersion(2, 26, 2);
    /** First release where {@code NCCL_NET_GDR_C2C} defaults to 1 and P2C exists: v2.27.3-1 paths.cc L386. */
    static final StackVersion C2C_ON_BY_DEFAULT = new StackVersion(2, 27, 3);
    /** First release whose default level is P2C with C2C on, without remapping: v2.29.2-1 paths.cc L456. */
    static final StackVersion P2C_DEFAULT_LEVEL = new StackVersion(2, 29, 2);

    /**
     * @param levelText   {@code NCCL_NET_GDR_LEVEL} as set, if it is
     * @param c2cText     {@code NCCL_NET_GDR_C2C} as set, if it is
     * @param relation    the GPU-NIC relation on the host (nvidia-smi's words)
     * @param gpuOverC2c  whether the GPU's link to its CPU is NVLink-C2C (Grace Hopper, Grace Blackwell)
     */
    public static NcclGdr decide(StackVersion release, Optional<String> levelText, Optional<String> c2cText,
            PathType relation, boolean gpuOverC2c) {
        NcclPathType path = pathType(relation, gpuOverC2c, release);
        boolean c2c = release.atLeast(C2C_SWITCH) && c2cSwitch(c2cText, release.atLeast(C2C_ON_BY_DEFAULT) ? 1 : 0) != 0;
        NcclPathType user = levelText.map(t -> NcclPathType.parseLevel(t, release)).orElse(null);
        NcclPathType level = user != null ? user
                : release.atLeast(P2C_DEFAULT_LEVEL) && c2c ? NcclPathType.P2C : NcclPathType.PXB;
        NcclPathType distance = path;
        if (c2c && !release.atLeast(P2C_DEFAULT_LEVEL)) {
            // 2.26.x: PHB with the GPU on C2C; 2.27.3-2.28.x: P2C, which is the same pair of hops
            boolean graceNic = release.atLeast(C2C_ON_BY_DEFAULT) ? path == NcclPathType.P2C
                    : path == NcclPathType.PHB && gpuOverC2c;
            if (graceNic) {
                distance = NcclPathType.C2C;
            }
        }
        return new NcclGdr(release, path, distance, level, user != null, c2c, distance.atMost(level, release));
    }

    /**
     * NCCL's path type for a GPU-NIC relation: PCIe switches only give PIX or PXB, any hop through a CPU
     * gives PHB (NCCL has no NODE), across CPUs SYS; a PHB path whose GPU sits on C2C is P2C from 2.27.3
     * (paths.cc v2.27.3-1 L669-681; v2.28.9-1 L707-709 via {@code mergePathType}).
     */
    public static NcclPathType pathType(PathType relation, boolean gpuOverC2c, StackVersion release) {
        return switch (relation) {
            case PIX -> NcclPathType.PIX;
            case PXB -> NcclPathType.PXB;
            case PHB, NODE -> gpuOverC2c && release.atLeast(C2C_ON_BY_DEFAULT) ? NcclPathType.P2C : NcclPathType.PHB;
            case SYS -> NcclPathType.SYS;
            case X, NV -> throw new IllegalArgumentException("not a GPU-NIC path over PCIe: " + relation);
        };
    }

    /** {@code ncclLoadParam} (src/misc/param.cc v2.27.3-1 L74-93): strtoll, the default when empty or out of range. */
    private static long c2cSwitch(Optional<String> text, long defaultValue) {
        if (text.isEmpty() || text.get().isEmpty()) {
            return defaultValue;
        }
        NcclNumbers.Parsed p = NcclNumbers.strtoll(text.get());
        return p.overflow() ? defaultValue : p.value();
    }

    /**
     * Where {@code ncclTopoCheckGdr} compares the path type with the level, as the rule stood at {@code release}: read
     * at one tag per rule above (the level's default, the C2C remap where there is one, the comparison).
     */
    public static Citation ruleSource(StackVersion release) {
        String at = !release.atLeast(C2C_SWITCH) ? "v2.25.1-1 src/graph/paths.cc:415-427"
                : !release.atLeast(C2C_ON_BY_DEFAULT) ? "v2.26.2-1 src/graph/paths.cc:418-439"
                : !release.atLeast(P2C_DEFAULT_LEVEL) ? "v2.28.9-1 src/graph/paths.cc:453-472"
                : "v2.29.2-1 src/graph/paths.cc:456-470";
        return Citation.parse("NVIDIA/nccl " + at + " ncclTopoCheckGdr");
    }

    /** NCCL's path type for a hop through a CPU's host bridge, which nvidia-smi calls NODE or PHB. */
    public static final Citation PATH_PHB = Citation.parse("NVIDIA/nccl v2.28.9-1 src/graph/topo.h:85-86 PATH_PHB");

    /** One line for {@code explain}, in the terms of NCCL's own INFO message. */
    public String words() {
        String compared = distance == path ? path.name() : path + " counted as " + distance + " (NCCL_NET_GDR_C2C=1)";
        String limit = level + (userLevel ? " (NCCL_NET_GDR_LEVEL)" : " (default at " + release + ")");
        return gpuDirect ? compared + " <= " + limit + ": GPUDirect RDMA"
                : compared + " > " + limit + ": staged through host memory";
    }
}
