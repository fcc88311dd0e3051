package org.rdmasim.transport.ucx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.rdmasim.hardware.CpuFamily;
import org.rdmasim.hardware.HostSpec;
import org.rdmasim.hardware.LinkLayer;
import org.rdmasim.hardware.NicModel;
import org.rdmasim.transport.Operation;
import org.rdmasim.transport.config.ConfigLayer;
import org.rdmasim.transport.config.ConfigResolver;
import org.rdmasim.transport.config.DistanceOverrides;
import org.rdmasim.transport.config.EffectiveConfig;
import org.rdmasim.transport.config.NicTopologyView;
import org.rdmasim.transport.config.StackSetup;
import org.rdmasim.transport.config.StackVersion;
import org.rdmasim.transport.config.UcxConfFile;

/** UCX's mechanics one by one, against values read from its source (file and line in each test). */
class UcxMechanicsTest {
    private static final double MIB = 1 << 20;

    @Test
    void distancesArePackedToUcxsEightBitFloat() {
        // src/ucs/type/float8.h L103-140 (v1.20.0), UCS_FP8_MIN_BW 512 MiB/s (ucp_types.h L119):
        // 4-bit mantissa truncated; below the minimum rounds up to it.
        assertEquals(16384 * MIB, UcxTopoDistance.fp8PackUnpackBandwidth(17000 * MIB));
        assertEquals(512 * MIB, UcxTopoDistance.fp8PackUnpackBandwidth(220 * MIB));
        assertEquals(16384 * MIB, UcxTopoDistance.fp8PackUnpackBandwidth(16500 * MIB));
        // 5100 = 4096 x 1.245: mantissa 0.245 x 16 = 3.9 truncates to 3: 4096 x 1.1875 = 4864
        assertEquals(4864 * MIB, UcxTopoDistance.fp8PackUnpackBandwidth(5100 * MIB));
        assertEquals(Double.POSITIVE_INFINITY, UcxTopoDistance.fp8PackUnpackBandwidth(Double.POSITIVE_INFINITY));
    }

    @Test
    void theEightBitFloatsRangeEndsWhereUcxsPackPutsThem() {
        // ucs_fp8_pack (float8.h v1.20.0 L117-139) with the exponent offset IEEE754_DOUBLE_BIAS - 1: a
        // binary exponent of 42 (UCS_FP8_MAX_BW, 4 TiB/s) or more is capped to field 13, which unpacks
        // to 2^41; 41 keeps its mantissa. An exponent of 29 (UCS_FP8_MIN_BW, 512 MiB/s) is in range
        // and keeps its mantissa; 28 or less rounds up to 2^29.
        assertEquals(Math.scalb(1.0, 41), UcxTopoDistance.fp8PackUnpackBandwidth(Math.scalb(1.0, 42)));
        assertEquals(Math.scalb(1.0, 41), UcxTopoDistance.fp8PackUnpackBandwidth(Math.scalb(1.0, 50)));
        assertEquals(1.5 * Math.scalb(1.0, 41), UcxTopoDistance.fp8PackUnpackBandwidth(1.5 * Math.scalb(1.0, 41)));
        assertEquals(1.5 * Math.scalb(1.0, 29), UcxTopoDistance.fp8PackUnpackBandwidth(1.5 * Math.scalb(1.0, 29)));
        assertEquals(Math.scalb(1.0, 29), UcxTopoDistance.fp8PackUnpackBandwidth(1.9 * Math.scalb(1.0, 28)));
        assertEquals(0.0, UcxTopoDistance.fp8PackUnpackBandwidth(0.0));
    }

    @Test
    void pathsPerPortFollowSpeedAndUcxRelease() {
        // ib_iface.c uct_ib_iface_set_num_paths: NDR -> 2 since v1.13.0, >= NDR (XDR) since v1.20.0
        HostSpec.NicSpec cx7 = HostSpec.NicSpec.of("mlx5_0", NicModel.CX7, LinkLayer.INFINIBAND);
        HostSpec.NicSpec cx8 = HostSpec.NicSpec.of("mlx5_0", NicModel.CX8, LinkLayer.INFINIBAND);
        HostSpec.NicSpec cx6 = HostSpec.NicSpec.of("mlx5_0", NicModel.CX6, LinkLayer.INFINIBAND);
        assertEquals(1, UcxPaths.pathsPerPort(cx7, new StackVersion(1, 12, 0), OptionalInt.empty()));
        assertEquals(2, UcxPaths.pathsPerPort(cx7, new StackVersion(1, 13, 0), OptionalInt.empty()));
        assertEquals(1, UcxPaths.pathsPerPort(cx8, new StackVersion(1, 19, 0), OptionalInt.empty()));
        assertEquals(2, UcxPaths.pathsPerPort(cx8, new StackVersion(1, 20, 0), OptionalInt.empty()));
        assertEquals(1, UcxPaths.pathsPerPort(cx6, new StackVersion(1, 22, 0), OptionalInt.empty()));
        assertEquals(4, UcxPaths.pathsPerPort(cx7, new StackVersion(1, 20, 0), OptionalInt.of(4)));
    }

    @Test
    void readPathRatioRanksButWriteDoesNot() {
        // ib_iface.c L2005-2030: GET on NDR rates a path min(0.95 x bw, 38e9); PUT rates it at the whole iface
        double bw = 400e9 / 8 * 4096 / 4140;
        assertEquals(38e9 / bw, UcxPaths.pathRatio(NicModel.CX7, Operation.READ, bw, bw), 1e-12);
        assertEquals(1.0, UcxPaths.pathRatio(NicModel.CX7, Operation.WRITE, bw, bw));
        // XDR GET: path rated min(0.4 x bw, 35e9) = 35e9 of an estimate lowered to bw x 2 paths x 0.4;
        // proto_common.c L397 divides the one by the other
        double xdr = 800e9 / 8 * 4096 / 4140;
        assertEquals(xdr * 0.8, UcxPaths.ifaceEstimate(NicModel.CX8, Operation.READ, xdr, 2), 1);
        assertEquals(35e9 / (xdr * 0.8), UcxPaths.pathRatio(NicModel.CX8, Operation.READ, xdr, xdr * 0.8), 1e-12);
        // avail_bw: path0 at ratio, path1 at 1 - ratio, a third path at the 0.01/2 floor
        assertEquals(100 * 0.768, UcxPaths.availableBandwidth(100, 0.768, 0), 1e-9);
        assertEquals(100 * 0.232, UcxPaths.availableBandwidth(100, 0.768, 1), 1e-9);
        assertEquals(100 * 0.005, UcxPaths.availableBandwidth(100, 0.768, 2), 1e-9);
    }

    @Test
    void latenciesArePackedToUcxsEightBitFloatInNanoseconds() {
        // ucp_wireup_fp8_pack_unpack_latency (wireup.h v1.20.0 L240-244), UCS_FP8_MIN_LAT 16 ns, MAX_LAT 131072 ns
        // (ucp_types.h L121-122): 300 = 256 x 1.17 truncates to 256 x 1.125 = 288; 500 = 256 x 1.95 to 256 x 1.9375
        assertEquals(288e-9, UcxTopoDistance.fp8PackUnpackLatency(300e-9), 1e-15);
        assertEquals(496e-9, UcxTopoDistance.fp8PackUnpackLatency(500e-9), 1e-15);
        assertEquals(16e-9, UcxTopoDistance.fp8PackUnpackLatency(3e-9), 1e-15, "below the minimum rounds up to it");
        assertEquals(0.0, UcxTopoDistance.fp8PackUnpackLatency(0.0), "a PIX distance has no latency");
    }

    @Test
    void ucxDistanceLatReplacesALanesDistanceLatencyFromUcx118() {
        // ucs_topo_set_distance (topo.c v1.20.0 L391-398): a PHB, NODE or SYS relation takes the table's latency
        org.rdmasim.hardware.Host h = new org.rdmasim.hardware.Host("h", org.rdmasim.hardware.Presets.get("dgx-h100"));
        org.rdmasim.hardware.TopologyNode gpu0 = h.gpus().get(0);
        org.rdmasim.hardware.TopologyNode sysNic = h.nics().stream()
                .filter(n -> h.relation(gpu0, n) == org.rdmasim.hardware.PathType.SYS).findFirst().orElseThrow();
        EffectiveConfig set = resolve(CpuFamily.INTEL_SAPPHIRE_RAPIDS, new StackVersion(1, 20, 0), true,
                org.rdmasim.transport.config.TestEnv.parse("UCX_DISTANCE_LAT=sys:2us", "t"));
        assertEquals(Optional.of(2e-6), set.distanceLatency().get(DistanceOverrides.Kind.SYS));
        HcaDistance d = UcxTopoDistance.forLane(h, gpu0, sysNic, set.distanceBandwidth(), set.distanceLatency(),
                set.ucxVersion());
        assertEquals(UcxTopoDistance.fp8PackUnpackLatency(2e-6), d.latencySeconds(), 1e-15);
        assertEquals(1984e-9, d.latencySeconds(), 1e-15, "2000 ns packed: 1024 x 1.9375");
        HcaDistance builtIn = UcxTopoDistance.forLane(h, gpu0, sysNic, DistanceOverrides.NONE, DistanceOverrides.NONE,
                set.ucxVersion());
        assertEquals(496e-9, builtIn.latencySeconds(), 1e-15, "the built-in 500 ns, packed");
        // UCX 1.17 has no such variable: the setting is not read
        EffectiveConfig old = resolve(CpuFamily.INTEL_SAPPHIRE_RAPIDS, new StackVersion(1, 17, 0), true,
                org.rdmasim.transport.config.TestEnv.parse("UCX_DISTANCE_LAT=sys:2us", "t"));
        assertTrue(old.distanceLatency().values().isEmpty());
    }

    @Test
    void ucxConfIsALayerBetweenDefaultsAndTheEnvironment() {
        // config/ucx.conf (v1.18.0 L10, L27): Grace sys:16500MBs, AMD sys:5100MBs; none before 1.18
        EffectiveConfig grace = resolve(CpuFamily.NVIDIA_GRACE, new StackVersion(1, 20, 0), true, List.of());
        assertEquals(ConfigLayer.UCX_CONF, grace.layerOf("UCX_DISTANCE_BW"));
        assertEquals(Optional.of(16500 * MIB), grace.distanceBandwidth().get(DistanceOverrides.Kind.SYS));
        EffectiveConfig amd = resolve(CpuFamily.AMD_ZEN, new StackVersion(1, 20, 0), true, List.of());
        assertEquals(Optional.of(5100 * MIB), amd.distanceBandwidth().get(DistanceOverrides.Kind.SYS));
        assertTrue(resolve(CpuFamily.NVIDIA_GRACE, new StackVersion(1, 17, 0), true, List.of())
                .distanceBandwidth().values().isEmpty());
        assertTrue(resolve(CpuFamily.NVIDIA_GRACE, new StackVersion(1, 20, 0), false, List.of())
                .distanceBandwidth().values().isEmpty(), "a UCX without its ucx.conf");
        EffectiveConfig user = resolve(CpuFamily.NVIDIA_GRACE, new StackVersion(1, 20, 0), true,
                org.rdmasim.transport.config.TestEnv.parse("UCX_DISTANCE_BW=auto,sys:1GBs", "t"));
        assertEquals(ConfigLayer.USER, user.layerOf("UCX_DISTANCE_BW"));
        assertEquals(Optional.of((double) (1L << 30)), user.distanceBandwidth().get(DistanceOverrides.Kind.SYS));
    }

    @Test
    void beforeUcx118AnAmdHostsCrossSocketDistanceIsBuiltInAt5100MBs() {
        // ucs_topo_sys_root_distance (v1.17.0 topo.c L335-348): AMD Rome/Milan/Genoa 5100 MB/s, else 220; from v1.18.0
        // the sysfs rule says 220 and ucx.conf's [AMD] section, when installed, sets 5100 again
        for (String preset : List.of("p5.48xlarge", "gb200-tray")) {
            org.rdmasim.hardware.Host h = new org.rdmasim.hardware.Host("h", org.rdmasim.hardware.Presets.get(preset));
            org.rdmasim.hardware.TopologyNode gpu = h.gpus().get(0);
            org.rdmasim.hardware.TopologyNode far = h.nics().stream()
                    .filter(n -> h.relation(gpu, n) == org.rdmasim.hardware.PathType.SYS).findFirst().orElseThrow();
            boolean amd = h.spec().cpuFamily() == CpuFamily.AMD_ZEN;
            assertEquals(amd ? 5100 * MIB : 220 * MIB, UcxTopoDistance.configuredBandwidth(h, gpu, far,
                    DistanceOverrides.NONE, new StackVersion(1, 17, 0)), preset);
            assertEquals(220 * MIB, UcxTopoDistance.configuredBandwidth(h, gpu, far, DistanceOverrides.NONE,
                    new StackVersion(1, 18, 0)), preset);
            // before v1.12.0 the sysfs rule had no CPU model at all (v1.11.0 src/ucs/sys/topo.c): 220 everywhere
            assertEquals(220 * MIB, UcxTopoDistance.configuredBandwidth(h, gpu, far, DistanceOverrides.NONE,
                    new StackVersion(1, 11, 0)), preset);
        }
    }

    /**
     * From v1.12.0 to v1.17.x which AMD generations UCX's built-in figure and relaxed-ordering list cover grew
     * release by release, and the hardware model has one AMD family: the assumption is said, and only there.
     */
    @Test
    void anAmdHostUnderAUcxThatTellsGenerationsApartCarriesANamedAssumption() {
        assertTrue(UcxTopoDistance.amdGenerationAssumption(CpuFamily.NVIDIA_GRACE, new StackVersion(1, 15, 0)).isEmpty());
        assertTrue(UcxTopoDistance.amdGenerationAssumption(CpuFamily.AMD_ZEN, new StackVersion(1, 11, 0)).isEmpty());
        assertTrue(UcxTopoDistance.amdGenerationAssumption(CpuFamily.AMD_ZEN, new StackVersion(1, 18, 0)).isEmpty());
        String v112 = UcxTopoDistance.amdGenerationAssumption(CpuFamily.AMD_ZEN, new StackVersion(1, 12, 0)).orElseThrow();
        assertTrue(v112.startsWith("ASSUMED: UCX 1.12.0") && v112.contains("Milan from 1.13.0"), v112);
        assertTrue(!v112.contains("relaxed ordering"), "1.12.0 lists no AMD CPU for relaxed ordering: " + v112);
        String v115 = UcxTopoDistance.amdGenerationAssumption(CpuFamily.AMD_ZEN, new StackVersion(1, 15, 0)).orElseThrow();
        assertTrue(v115.contains("Genoa from 1.16.0 and Turin from 1.18.0") && v115.endsWith("registers one MR"), v115);
    }

    private static EffectiveConfig resolve(CpuFamily cpu, StackVersion ucx, boolean installed,
            List<org.rdmasim.transport.config.EnvEntry> env) {
        StackSetup s = StackSetup.of(env, ucx, "GPU0", 0, NicTopologyView.of(List.of("mlx5_0"), g -> "mlx5_0"))
                .withUcxConf(UcxConfFile.forHost(cpu, ucx, installed));
        return ConfigResolver.resolve(s);
    }

    @Test
    void modelExpressAutoProbeSpreadsEquallyNearGpusOverNics() {
        // ucx_utils.py: greedy in GPU index order by (-prefix score, prior assignments, name). On a GB200
        // tray GPU0 and GPU1 are equally near mlx5_0 and mlx5_1 (same Grace): they get one each.
        org.rdmasim.hardware.Host gb200 = new org.rdmasim.hardware.Host("h", org.rdmasim.hardware.Presets.get("gb200-tray"));
        NicTopologyView v = StackProfile.nicView(gb200);
        assertEquals(List.of("mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3"),
                List.of(v.nearestNic("GPU0"), v.nearestNic("GPU1"), v.nearestNic("GPU2"), v.nearestNic("GPU3")));
        // DGX H100: each GPU's own switch NIC has the longest common prefix
        org.rdmasim.hardware.Host dgx = new org.rdmasim.hardware.Host("d", org.rdmasim.hardware.Presets.get("dgx-h100"));
        assertEquals("mlx5_9", StackProfile.nicView(dgx).nearestNic("GPU5")); // the user guide's name for GPU5's port
        assertEquals("mlx5_5", StackProfile.nicView(dgx).nearestNic("GPU3"));
        assertEquals(List.of("mlx5_0", "mlx5_3", "mlx5_4", "mlx5_5", "mlx5_6", "mlx5_9", "mlx5_10", "mlx5_11"),
                StackProfile.nicView(dgx).visibleNics()); // storage ports are not offered
    }

    @Test
    void nixlSetsWhatEachReleaseSets() {
        // ai-dynamo/nixl ucx_utils.cpp at each tag [nixl-src]
        assertEquals("4", nixl("0.7.0", "1.20.0").rawValue("UCX_MAX_RMA_RAILS"), "0.7.0 L448");
        assertEquals("2", nixl("0.7.0", "1.19.0").rawValue("UCX_MAX_RMA_RAILS"), "0.7.0 L450");
        assertEquals("2", nixl("0.8.0", "1.20.0").rawValue("UCX_MAX_RMA_RAILS"), "0.8.0 L455");
        assertEquals("1", nixl("0.3.0", "1.20.0").rawValue("UCX_MAX_RMA_RAILS"), "0.3 sets only NET_DEVICES");
        assertEquals(ConfigLayer.DEFAULT, nixl("0.8.0", "1.20.0").layerOf("UCX_IB_PCI_RELAXED_ORDERING"));
        assertEquals("try", nixl("0.9.0", "1.20.0").rawValue("UCX_IB_PCI_RELAXED_ORDERING"), "0.9.0 L451");
        assertEquals("auto", nixl("1.2.0", "1.21.0").rawValue("UCX_MAX_HCA_PER_GPU"), "v1.2.0 L432");
        assertEquals(ConfigLayer.NIXL, nixl("1.2.0", "1.22.0").layerOf("UCX_MAX_HCA_PER_GPU"), "and on UCX 1.22");
        assertEquals("inf", nixl("1.1.0", "1.21.0").rawValue("UCX_MAX_HCA_PER_GPU"), "1.1.0 does not set it");
        assertFalse(nixl("1.4.0", "1.22.0").layerOf("UCX_RC_FENCE") == ConfigLayer.NIXL, "RC_FENCE is in no release");
    }

    private static EffectiveConfig nixl(String nixl, String ucx) {
        StackSetup s = StackSetup.of(List.of(), StackVersion.parse(ucx), "GPU0", 0,
                NicTopologyView.of(List.of("mlx5_0"), g -> "mlx5_0")).withNixl(StackVersion.parse(nixl));
        return ConfigResolver.resolve(s);
    }
}
