package org.rdmasim.transport.ucx;

import org.rdmasim.hardware.CpuFamily;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.PathType;
import org.rdmasim.hardware.TopologyNode;
import org.rdmasim.transport.citation.Citation;
import org.rdmasim.transport.config.DistanceOverrides;
import org.rdmasim.transport.config.StackVersion;
import org.rdmasim.transport.config.UcxSite;

/**
 * UCX's estimate of the distance between a buffer's device and an HCA, from the relation the
 * hardware model gives them.
 *
 * <p>Source: openucx/ucx {@code src/ucs/sys/topo/base/topo.c}, {@code ucs_topo_update_distance_sysfs}
 * [ucx-src]. UCX compares the two devices' sysfs paths: when their common parent is a PCIe
 * switch port (our PIX and PXB) the distance is the default, 0 ns and no bandwidth limit; when it is a
 * PCI root ({@code /sys/devices/pciDDDD:BB}, our PHB) it is 300 ns and
 * {@code min(3500 MB/s, 19200 MB/s / path_distance)}; when it is {@code /sys/devices} itself, 300 ns and
 * 17000 MB/s on the same NUMA node (our NODE) and 500 ns and 220 MB/s across nodes (our SYS). UCX's MB
 * is {@code UCS_MBYTE} = 2^20 bytes ({@code topo.c} L408, L507, L510 in v1.20.0). Since v1.18.0
 * {@code UCX_DISTANCE_BW} and {@code UCX_DISTANCE_LAT} replace them per relation kind.
 *
 * <p>These are the figures UCX ranks HCAs with for {@code UCX_MAX_HCA_PER_GPU}, not real throughput.
 * Note that UCX's PHB bandwidth (at most 3500 MB/s) is below its NODE bandwidth, so at equal latency a
 * NIC on another root port of the same NUMA node ranks closer than one behind the same host bridge.
 *
 * <p>Not modelled: for host memory UCX v1.20.0 adds to each interface's latency estimate the NUMA distance
 * between the HCA and the CPUs the opening thread may run on ({@code ucp_worker_iface_get_memory_distance},
 * {@code src/ucp/core/ucp_worker.c} L1258-1271, L1433-1434; {@code ucs_topo_get_memory_distance_sysfs},
 * {@code topo.c} L616-658). That ranks HCAs by the thread's affinity, not by the buffer's NUMA node; a
 * process with full CPU affinity sees every HCA at the same distance, which is what {@link #NEAR} gives.
 */
public final class UcxTopoDistance {
    /** Where UCX works out a distance from sysfs (the 3500/19200, 17000 and 220 MB/s figures at L408, L507, L510). */
    public static Citation source(org.rdmasim.transport.config.StackVersion ucx) {
        return UcxSite.TOPO_DISTANCE.cite(ucx);
    }

    /** {@code UCS_MBYTE}. */
    public static final double UCS_MBYTE = 1 << 20;

    /** Same PCIe switch, or an unknown device (host memory): {@code ucs_topo_default_distance}. */
    public static final HcaDistance NEAR = new HcaDistance(0.0, Double.POSITIVE_INFINITY);
    /** Different root complexes, same NUMA node. */
    public static final HcaDistance SAME_NUMA_NODE = new HcaDistance(300e-9, 17000 * UCS_MBYTE);
    /** Different NUMA nodes. */
    public static final HcaDistance OTHER_NUMA_NODE = new HcaDistance(500e-9, 220 * UCS_MBYTE);

    static final double PHB_LATENCY_SECONDS = 300e-9;
    static final double PHB_BANDWIDTH_CAP = 3500 * UCS_MBYTE;
    static final double PHB_BANDWIDTH_PER_HOP = 19200 * UCS_MBYTE;

    private UcxTopoDistance() {
    }

    /**
     * Distance from {@code device} (a GPU, or a CPU socket for host memory) to {@code nic} on
     * {@code host}. Host memory has no system device in UCX, so it is always {@link #NEAR}.
     */
    public static HcaDistance between(Host host, TopologyNode device, TopologyNode nic) {
        if (device.kind() == TopologyNode.Kind.SOCKET) {
            return NEAR;
        }
        PathType relation = host.relation(device, nic);
        return switch (relation) {
            case X, NV, PIX, PXB -> NEAR;
            case PHB -> new HcaDistance(PHB_LATENCY_SECONDS,
                    Math.min(PHB_BANDWIDTH_CAP, PHB_BANDWIDTH_PER_HOP / treeHops(host, device, nic)));
            case NODE -> SAME_NUMA_NODE;
            case SYS -> OTHER_NUMA_NODE;
        };
    }

    /**
     * The distance a multi-lane protocol uses for a lane: the built-in distance with the
     * {@code UCX_DISTANCE_BW} and {@code UCX_DISTANCE_LAT} overrides applied, then both packed to UCX's 8-bit
     * float and unpacked, as {@code ucp_proto_common_get_lane_distance} does so that local and remote distances
     * compare equal (openucx/ucx v1.20.0 src/ucp/proto/proto_common.c:155-183).
     */
    public static HcaDistance forLane(Host host, TopologyNode device, TopologyNode nic, DistanceOverrides bandwidth,
            DistanceOverrides latency, StackVersion ucx) {
        return new HcaDistance(fp8PackUnpackLatency(configuredLatency(host, device, nic, latency, ucx)),
                fp8PackUnpackBandwidth(configuredBandwidth(host, device, nic, bandwidth, ucx)));
    }

    /**
     * The distance latency from {@code device} to {@code nic}: the built-in figure, or the {@code UCX_DISTANCE_LAT}
     * value for the path's kind. UCX takes a PHB, NODE or SYS relation's latency from that table alone
     * ({@code ucs_topo_set_distance}, openucx/ucx v1.20.0 src/ucs/sys/topo/base/topo.c:391-398, called at
     * :502-510); its default, {@code phb:300ns,node:300ns,sys:500ns} (src/ucs/config/global_opts.c:211), is the
     * built-in figure, and {@code EffectiveConfig} reads the variable from v1.18.0, as for {@code UCX_DISTANCE_BW}.
     */
    static double configuredLatency(Host host, TopologyNode device, TopologyNode nic, DistanceOverrides latency,
            StackVersion ucx) {
        double lat = between(host, device, nic).latencySeconds();
        if (device.kind() == TopologyNode.Kind.SOCKET) {
            return lat;
        }
        DistanceOverrides.Kind kind = overrideKind(host.relation(device, nic));
        return kind == null ? lat : latency.get(kind).orElse(lat);
    }

    private static DistanceOverrides.Kind overrideKind(PathType relation) {
        return switch (relation) {
            case PHB -> DistanceOverrides.Kind.PHB;
            case NODE -> DistanceOverrides.Kind.NODE;
            case SYS -> DistanceOverrides.Kind.SYS;
            default -> null;
        };
    }

    /** The first UCX whose sysfs rule has no CPU model in it: v1.18.0 moved AMD's 5100 MB/s into ucx.conf. */
    static final StackVersion CPU_RULE_IN_UCX_CONF = new StackVersion(1, 18, 0);
    /**
     * Before v1.18.0 UCX built in, for two devices on different NUMA nodes of an AMD Rome, Milan or Genoa host,
     * 5100 MB/s instead of 220 ({@code ucs_topo_sys_root_distance}, openucx/ucx v1.17.0
     * src/ucs/sys/topo/base/topo.c L335-348; Rome from v1.12.0 src/ucs/sys/topo.c L215-216, Milan added in v1.13.0
     * src/ucs/sys/topo/base/topo.c L247, Genoa in v1.16.0; before v1.12.0 no CPU rule, so 220 on every host).
     * An AMD host of no stated generation ({@link CpuFamily#AMD_ZEN}) is taken, from v1.12.0 to v1.17.x, to be one
     * UCX knew by then: the figure would be 220 on Milan with UCX 1.12 and on Genoa with UCX 1.12-1.15;
     * {@link #amdGenerationAssumption} says so to the user.
     */
    static final double AMD_SYS_BUILT_IN = 5100 * UCS_MBYTE;
    /** The first UCX with a CPU rule in its sysfs distance: Rome's, v1.12.0 (src/ucs/sys/topo.c L215-216). */
    static final StackVersion FIRST_AMD_RULE = new StackVersion(1, 12, 0);
    /** Milan joins the built-in figure, and AMD's first CPUs the relaxed-ordering list, in v1.13.0. */
    private static final StackVersion MILAN_RULE = new StackVersion(1, 13, 0);
    /** Genoa joins the built-in figure in v1.16.0. */
    private static final StackVersion GENOA_RULE = new StackVersion(1, 16, 0);

    /**
     * Whether UCX {@code ucx} built the 5100 MB/s cross-socket figure in for {@code cpu}: Rome from v1.12.0, Milan
     * from v1.13.0, Genoa from v1.16.0, to v1.17.x; never Naples or Turin; an AMD host of no stated generation is
     * assumed covered ({@link #amdGenerationAssumption}).
     */
    static boolean builtInAmdFigure(CpuFamily cpu, StackVersion ucx) {
        if (!ucx.atLeast(FIRST_AMD_RULE) || ucx.atLeast(CPU_RULE_IN_UCX_CONF)) {
            return false;
        }
        return switch (cpu) {
            case AMD_ZEN, AMD_ROME -> true;
            case AMD_MILAN -> ucx.atLeast(MILAN_RULE);
            case AMD_GENOA -> ucx.atLeast(GENOA_RULE);
            default -> false;
        };
    }

    /**
     * The assumption a UCX release makes the model take on an AMD host, in words for the variant's warnings, or
     * empty when the release decides alone: from v1.12.0 to v1.17.x which AMD generations the built-in cross-socket
     * figure covers grew release by release (above), and from v1.13.0 to v1.17.x so did the CPUs
     * {@code UCX_IB_PCI_RELAXED_ORDERING=auto} turns relaxed ordering on for (Naples, Rome and Milan from v1.13.0,
     * Genoa from v1.16.0, Turin from v1.18.0: openucx/ucx src/ucs/arch/cpu.h, v1.13.0 L159-163, v1.16.0 L171,
     * v1.18.0 L168).
     */
    public static java.util.Optional<String> amdGenerationAssumption(CpuFamily cpu, StackVersion ucx) {
        if (cpu != CpuFamily.AMD_ZEN || !ucx.atLeast(FIRST_AMD_RULE) || ucx.atLeast(CPU_RULE_IN_UCX_CONF)) {
            return java.util.Optional.empty();
        }
        boolean relaxed = ucx.atLeast(MILAN_RULE);
        return java.util.Optional.of("ASSUMED: UCX " + ucx + " treats AMD CPUs by generation, which the host does not "
                + "state (cpu: amd-naples, amd-rome, amd-milan, amd-genoa or amd-turin would): its built-in cross-socket "
                + "distance of 5100 MB/s (not 220) covers Rome from 1.12.0, Milan from 1.13.0 and Genoa from 1.16.0"
                + (relaxed ? ", and relaxed ordering under UCX_IB_PCI_RELAXED_ORDERING=auto (one more MR a "
                        + "registration) Naples to Milan from 1.13.0, Genoa from 1.16.0 and Turin from 1.18.0" : "")
                + " (openucx/ucx v1.17.0 src/ucs/sys/topo/base/topo.c:335-348, v1.16.0 src/ucs/arch/cpu.h:171); the "
                + "host is taken to have " + (relaxed ? "both" : "the figure") + ". On a later generation than this "
                + "release knew, UCX ranks a cross-socket NIC at 220 MB/s"
                + (relaxed ? " and registers one MR" : ""));
    }

    /**
     * The distance bandwidth from {@code device} to {@code nic} before UCX {@code ucx} packs it into its 8-bit
     * float: the sysfs rule's (with the AMD figure UCX built in before v1.18.0), or the {@code UCX_DISTANCE_BW}
     * override for the path's kind.
     */
    public static double configuredBandwidth(Host host, TopologyNode device, TopologyNode nic, DistanceOverrides bandwidth,
            StackVersion ucx) {
        double bw = between(host, device, nic).bandwidthBytesPerSecond();
        if (device.kind() != TopologyNode.Kind.SOCKET) {
            PathType relation = host.relation(device, nic);
            if (relation == PathType.SYS && builtInAmdFigure(host.spec().cpuFamily(), ucx)) {
                bw = AMD_SYS_BUILT_IN;
            }
            DistanceOverrides.Kind kind = overrideKind(relation);
            if (kind != null) {
                bw = bandwidth.get(kind).orElse(bw);
            }
        }
        return bw;
    }

    /** {@code UCS_FP8_MIN_BW} and {@code UCS_FP8_MAX_BW} ({@code src/ucp/core/ucp_types.h} L119-120). */
    static final int FP8_MIN_BW_LOG2 = 29;
    static final int FP8_MAX_BW_LOG2 = 42;

    /**
     * {@code UCS_FP8_PACK_UNPACK(BANDWIDTH, bw)} ({@code src/ucs/type/float8.h} L103-170, v1.20.0):
     * 4-bit exponent, 4-bit mantissa truncated; below 512 MiB/s rounds up to 512 MiB/s; 4 TiB/s and
     * above caps at 2 TiB/s; infinity (no limit) stays infinity. 17000 MiB/s becomes 16384 MiB/s.
     */
    public static double fp8PackUnpackBandwidth(double bw) {
        return fp8PackUnpack(bw, FP8_MIN_BW_LOG2, FP8_MAX_BW_LOG2);
    }

    /** {@code UCS_FP8_MIN_LAT} and {@code UCS_FP8_MAX_LAT}, in nanoseconds ({@code src/ucp/core/ucp_types.h} L121-122). */
    static final int FP8_MIN_LAT_NS_LOG2 = 4;
    static final int FP8_MAX_LAT_NS_LOG2 = 17;

    /**
     * {@code ucp_wireup_fp8_pack_unpack_latency} (openucx/ucx v1.20.0 src/ucp/wireup/wireup.h:240-244): the latency
     * in nanoseconds through the same 8-bit float, 16 ns to 131 us. 300 ns becomes 288 ns, 500 ns 496 ns; 0 stays 0.
     */
    public static double fp8PackUnpackLatency(double seconds) {
        return fp8PackUnpack(seconds * 1e9, FP8_MIN_LAT_NS_LOG2, FP8_MAX_LAT_NS_LOG2) / 1e9;
    }

    /** {@code ucs_fp8_pack} then {@code ucs_fp8_unpack} over [2^minLog2, 2^maxLog2) ({@code src/ucs/type/float8.h}). */
    private static double fp8PackUnpack(double value, int minLog2, int maxLog2) {
        if (Double.isInfinite(value) || Double.isNaN(value) || value == 0) {
            return value;
        }
        int exponent = Math.getExponent(value);
        if (exponent >= maxLog2) {
            return Math.scalb(1.0, maxLog2 - 1);
        }
        if (exponent < minLog2) {
            return Math.scalb(1.0, minLog2);
        }
        long mantissa = Double.doubleToRawLongBits(value) & ((1L << 52) - 1);
        long top4 = mantissa >>> 48;
        return Math.scalb(1.0 + top4 / 16.0, exponent);
    }

    /**
     * Edges between two devices in the host tree: our stand-in for UCX's {@code ucs_path_calc_distance}
     * over sysfs paths. ASSUMPTION: one tree edge per sysfs path component; with the 3500 MB/s cap the
     * bandwidth only changes at 6 hops or more, so the approximation rarely matters.
     */
    static int treeHops(Host host, TopologyNode a, TopologyNode b) {
        TopologyNode common = host.commonAncestor(a, b);
        int depth = common == null ? 0 : common.depth();
        return Math.max(1, (a.depth() - depth) + (b.depth() - depth));
    }
}
