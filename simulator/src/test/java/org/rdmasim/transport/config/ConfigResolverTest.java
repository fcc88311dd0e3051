package org.rdmasim.transport.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rdmasim.hardware.PathType;
import org.rdmasim.transport.config.EnvEntry;

class ConfigResolverTest {

    private static final StackVersion UCX_119 = StackVersion.parse("1.19");
    private static final StackVersion UCX_121 = StackVersion.parse("1.21.0");
    private static final StackVersion NIXL_110 = StackVersion.parse("1.1.0");
    private static final StackVersion NIXL_120 = StackVersion.parse("v1.2.0");

    /** GB200-like pod: four NICs, GPU i nearest mlx5_i. */
    private static final NicTopologyView FOUR_NICS = NicTopologyView.of(
            List.of("mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3"),
            gpu -> Map.of("gpu0", "mlx5_0", "gpu1", "mlx5_1", "gpu2", "mlx5_2", "gpu3", "mlx5_3").get(gpu));

    private static List<EnvEntry> env(String shell) {
        return org.rdmasim.transport.config.TestEnv.parse(shell, "env.sh");
    }

    private static EffectiveConfig resolve(String shell, StackVersion nixl, StackVersion ucx) {
        StackSetup setup = StackSetup.of(env(shell), ucx, "gpu2", 2, FOUR_NICS);
        return ConfigResolver.resolve(nixl == null ? setup : setup.withNixl(nixl));
    }

    private static EffectiveConfig resolveOnStripeBranch(String shell) {
        StackSetup setup = StackSetup.of(env(shell), UCX_121, "gpu2", 2, FOUR_NICS).withNixl(NIXL_120)
                .withModelExpress(ModelExpressBuild.parse("kavink/multi-nic-stripe-mode"));
        return ConfigResolver.resolve(setup);
    }

    @Test
    void withoutNixlEverythingIsUcxDefault() {
        EffectiveConfig c = resolve("", null, UCX_119);
        assertEquals(1, c.maxRmaRails());
        assertEquals(2, c.maxRndvRails());
        assertEquals(1, c.maxEagerRails());
        assertEquals(4.0, c.multiLaneMaxRatio());
        assertEquals(RndvScheme.AUTO, c.rndvScheme());
        assertTrue(c.rndvThresh().isAuto());
        assertEquals(512L << 10, c.rndvFragSize(MemoryType.HOST));
        assertEquals(4L << 20, c.rndvFragSize(MemoryType.CUDA));
        assertEquals(8192, c.minRmaChunk().requireBytes());
        assertEquals(16384, c.minRndvChunk().requireBytes());
        assertEquals(Ternary.AUTO, c.relaxedOrdering());
        assertEquals(HcaPerGpuLimit.INF, c.maxHcaPerGpu());
        assertEquals(RcFence.AUTO, c.rcFence());
        assertEquals(ConfigLayer.DEFAULT, c.layerOf("UCX_MAX_RMA_RAILS"));
        assertEquals(List.of("mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3"),
                c.selectNetDevices(FOUR_NICS.visibleNics()).devices());
        assertEquals(NicPin.Mode.OFF, c.nicPin().mode());
        assertEquals(NcclPathType.PXB, c.ncclGdr(StackVersion.parse("2.28.9"), PathType.PIX, false).level());
        assertEquals(1, c.qpsPerConnection());
        assertEquals(1L << 30, c.shadowMempoolMaxSize());
    }

    @Test
    void aTransportListWithoutRcIsWarnedOfSinceTheLanesModelledAreRc() {
        // UCX_TLS is not modelled: with tcp alone UCX would not use rc_mlx5, yet the answer is RC lanes
        EffectiveConfig tcp = resolve("export UCX_TLS=tcp\n", NIXL_110, UCX_119);
        assertTrue(tcp.warnings().stream().anyMatch(w -> w.startsWith("UCX_TLS='tcp' (env.sh:1) names no RC transport")
                && w.contains("ucp_context.c:709-731 ucp_tl_aliases")), tcp.warnings().toString());
        EffectiveConfig excluded = resolve("export UCX_TLS=^rc\n", NIXL_110, UCX_119);
        assertTrue(excluded.warnings().stream().anyMatch(w -> w.startsWith("UCX_TLS='^rc'")),
                excluded.warnings().toString());
        // lists that keep an RC transport, as the validation scenario's rc,ud,cuda does, say nothing
        for (String ok : new String[] {"rc,ud,cuda", "rc_x,cuda_copy", "ib", "all", "^tcp", "^rc_v", "\\rc_mlx5"}) {
            EffectiveConfig c = resolve("export UCX_TLS=" + ok + "\n", NIXL_110, UCX_119);
            assertTrue(c.warnings().stream().noneMatch(w -> w.startsWith("UCX_TLS=")), ok + ": " + c.warnings());
        }
    }

    @Test
    void aBadDistanceSaysWhatWasExpectedOnce() {
        // the refusal reads "expected " + what was expected: the distance parser's own "expected" doubled it
        for (String bad : new String[] {"UCX_DISTANCE_BW=sys:fast", "UCX_DISTANCE_BW=gpu:1GBs", "UCX_DISTANCE_LAT=sys"}) {
            ConfigValueException e = assertThrows(ConfigValueException.class, () -> {
                EffectiveConfig c = resolve("export " + bad + "\n", NIXL_110, UCX_121);
                c.distanceBandwidth();
                c.distanceLatency();
            }, bad);
            assertTrue(e.getMessage().contains("): expected ") && !e.getMessage().contains("expected expected")
                    && !e.getMessage().contains("expected unknown"), e.getMessage());
        }
    }

    @Test
    void nixlMaxRmaRailsBeatsUcxDefaultButLosesToTheUser() {
        EffectiveConfig nixlOnly = resolve("", NIXL_120, UCX_119);
        assertEquals(2, nixlOnly.maxRmaRails());
        assertEquals(ConfigLayer.NIXL, nixlOnly.layerOf("UCX_MAX_RMA_RAILS"));
        assertTrue(nixlOnly.rndvThresh().isInf());
        assertEquals(Ternary.TRY, nixlOnly.relaxedOrdering());

        EffectiveConfig user = resolve("export UCX_MAX_RMA_RAILS=4\n", NIXL_120, UCX_119);
        assertEquals(4, user.maxRmaRails());
        assertEquals(ConfigLayer.USER, user.layerOf("UCX_MAX_RMA_RAILS"));
        assertEquals("env.sh:1", user.get("UCX_MAX_RMA_RAILS").orElseThrow().origin());
        assertTrue(user.decisions().stream().anyMatch(d -> d.startsWith("NIXL skipped UCX_MAX_RMA_RAILS=2")));
        // the other overrides still apply
        assertEquals(ConfigLayer.NIXL, user.layerOf("UCX_RNDV_THRESH"));
    }

    @Test
    void userRelaxedOrderingAutoIsRespectedAsTheCrusoeWorkaroundSays() {
        EffectiveConfig c = resolve("export UCX_IB_PCI_RELAXED_ORDERING=auto\n", NIXL_120, UCX_119);
        assertEquals(Ternary.AUTO, c.relaxedOrdering());
        assertEquals(ConfigLayer.USER, c.layerOf("UCX_IB_PCI_RELAXED_ORDERING"));
    }

    @Test
    void nixlSetsMaxHcaPerGpuOnlyWithNixl120AndUcx121() {
        assertEquals(HcaPerGpuLimit.AUTO, resolve("", NIXL_120, UCX_121).maxHcaPerGpu());
        assertEquals(ConfigLayer.NIXL, resolve("", NIXL_120, UCX_121).layerOf("UCX_MAX_HCA_PER_GPU"));
        assertEquals(HcaPerGpuLimit.INF, resolve("", NIXL_120, UCX_119).maxHcaPerGpu());
        assertEquals(HcaPerGpuLimit.INF, resolve("", NIXL_110, UCX_121).maxHcaPerGpu());
        assertEquals(ConfigLayer.DEFAULT, resolve("", NIXL_110, UCX_121).layerOf("UCX_MAX_HCA_PER_GPU"));
    }

    @Test
    void rcFenceIsNotSetByAnyNixlRelease() {
        // PR #1917's config.modify("RC_FENCE", "none") is on main only: v1.4.0 ucx_utils.cpp L428-446 has none
        assertEquals(RcFence.AUTO, resolve("", NIXL_120, UCX_121).rcFence());
        assertEquals(RcFence.AUTO, resolve("", StackVersion.parse("1.4.0"), UCX_121).rcFence());
    }

    @Test
    void userMaxHcaPerGpuOnOldUcxIsUnusedAndWarned() {
        EffectiveConfig c = resolve("UCX_MAX_HCA_PER_GPU=2\n", null, UCX_119);
        assertEquals(HcaPerGpuLimit.INF, c.maxHcaPerGpu());
        assertEquals(ConfigLayer.DEFAULT, c.layerOf("UCX_MAX_HCA_PER_GPU"));
        assertTrue(c.warnings().stream().anyMatch(w -> w.startsWith("UCX 1.19.0 does not know UCX_MAX_HCA_PER_GPU")));

        EffectiveConfig newer = resolve("UCX_MAX_HCA_PER_GPU=2\n", NIXL_120, UCX_121);
        assertEquals(new HcaPerGpuLimit(HcaPerGpuLimit.Kind.COUNT, 2), newer.maxHcaPerGpu());
        assertEquals(ConfigLayer.USER, newer.layerOf("UCX_MAX_HCA_PER_GPU"));
    }

    @Test
    void modelExpressAutoPinsTheNearestNicOnly() {
        EffectiveConfig c = resolve("export MX_RDMA_NIC_PIN=auto\n", NIXL_120, UCX_121);
        assertEquals("mlx5_2:1", c.rawValue("UCX_NET_DEVICES"));
        assertEquals(ConfigLayer.MODEL_EXPRESS, c.layerOf("UCX_NET_DEVICES"));
        assertEquals(List.of("mlx5_2"), c.selectNetDevices(FOUR_NICS.visibleNics()).devices());
        // auto does not touch the rail count: NIXL's 2 stays
        assertEquals(2, c.maxRmaRails());
        assertEquals(NicPin.Mode.AUTO, c.nicPin().mode());
    }

    @Test
    void modelExpressPinReplacesTheUsersNetDevicesWithAWarning() {
        EffectiveConfig c = resolve("""
                export UCX_NET_DEVICES=mlx5_0:1,mlx5_1:1,mlx5_2:1,mlx5_3:1
                export MX_RDMA_NIC_PIN=auto
                """, NIXL_120, UCX_121);
        assertEquals("mlx5_2:1", c.rawValue("UCX_NET_DEVICES"));
        assertEquals(ConfigLayer.MODEL_EXPRESS, c.layerOf("UCX_NET_DEVICES"));
        assertTrue(c.warnings().stream().anyMatch(w -> w.startsWith(
                "MX_RDMA_NIC_PIN=auto replaced UCX_NET_DEVICES='mlx5_0:1,mlx5_1:1,mlx5_2:1,mlx5_3:1' (env.sh:1)")));
    }

    @Test
    void stripeListsEveryNicAndRaisesRmaRailsUnlessTheUserSetThem() {
        // a released ModelExpress has no stripe mode ([mx-src], [mx-pr-450]): stripe pins one NIC as auto does
        assertEquals("mlx5_2:1", resolve("MX_RDMA_NIC_PIN=stripe\n", NIXL_120, UCX_121).rawValue("UCX_NET_DEVICES"));
        EffectiveConfig c = resolveOnStripeBranch("MX_RDMA_NIC_PIN=stripe\n");
        assertEquals("mlx5_0:1,mlx5_1:1,mlx5_2:1,mlx5_3:1", c.rawValue("UCX_NET_DEVICES"));
        assertEquals(ConfigLayer.MODEL_EXPRESS, c.layerOf("UCX_NET_DEVICES"));
        // ModelExpress wrote UCX_MAX_RMA_RAILS into the environment, so NIXL's modify skips its 2
        assertEquals(4, c.maxRmaRails());
        assertEquals(ConfigLayer.MODEL_EXPRESS, c.layerOf("UCX_MAX_RMA_RAILS"));
        assertEquals(4, c.selectNetDevices(FOUR_NICS.visibleNics()).devices().size());

        EffectiveConfig user = resolveOnStripeBranch("MX_RDMA_NIC_PIN=stripe\nUCX_MAX_RMA_RAILS=3\n");
        assertEquals(3, user.maxRmaRails());
        assertEquals(ConfigLayer.USER, user.layerOf("UCX_MAX_RMA_RAILS"));
    }

    @Test
    void allIsStripeAndOneNicListedLeavesTheRailsToNixl() {
        // 2c6fd8ac ucx_utils.py L422: raw.lower() in ("stripe", "all")
        EffectiveConfig all = resolveOnStripeBranch("MX_RDMA_NIC_PIN=All\n");
        assertEquals("mlx5_0:1,mlx5_1:1,mlx5_2:1,mlx5_3:1", all.rawValue("UCX_NET_DEVICES"));
        assertEquals(4, all.maxRmaRails());
        assertTrue(all.warnings().stream().noneMatch(x -> x.contains("not a value ModelExpress names")), all.warnings().toString());
        // L489-491: the rails are raised only for two NICs or more; one NIC leaves NIXL's setting
        NicTopologyView oneNic = NicTopologyView.of(List.of("mlx5_0"), gpu -> "mlx5_0");
        StackSetup setup = StackSetup.of(env("MX_RDMA_NIC_PIN=stripe\n"), UCX_121, "gpu0", 0, oneNic).withNixl(NIXL_120)
                .withModelExpress(ModelExpressBuild.parse("kavink/multi-nic-stripe-mode"));
        EffectiveConfig one = ConfigResolver.resolve(setup);
        assertEquals("mlx5_0:1", one.rawValue("UCX_NET_DEVICES"));
        assertTrue(one.layerOf("UCX_MAX_RMA_RAILS") != ConfigLayer.MODEL_EXPRESS, one.layerOf("UCX_MAX_RMA_RAILS").toString());
        assertEquals(ConfigResolver.resolve(StackSetup.of(env(""), UCX_121, "gpu0", 0, oneNic).withNixl(NIXL_120))
                .maxRmaRails(), one.maxRmaRails(), "the rails NIXL sets without ModelExpress");
    }

    @Test
    void explicitPinListIsIndexedByGpuAndOffDoesNothing() {
        EffectiveConfig c = resolve("MX_RDMA_NIC_PIN=mlx5_3:1,mlx5_2:1,mlx5_1:1\n", null, UCX_121);
        assertEquals("mlx5_1:1", c.rawValue("UCX_NET_DEVICES")); // gpu index 2
        EffectiveConfig off = resolve("MX_RDMA_NIC_PIN=False\n", null, UCX_121);
        assertEquals(ConfigLayer.DEFAULT, off.layerOf("UCX_NET_DEVICES"));
        assertEquals("all", off.rawValue("UCX_NET_DEVICES"));
    }

    @Test
    void aValueModelExpressDoesNotNamePinsOneNicWithAWarningNamingIt() {
        // _resolve_nic_pin falls through to the auto probe for any other value (ucx_utils.py:450 at 2c6fd8ac)
        EffectiveConfig strip = resolveOnStripeBranch("MX_RDMA_NIC_PIN=strip\n");
        assertEquals("mlx5_2:1", strip.rawValue("UCX_NET_DEVICES"), "pinned as auto, not striped");
        String w = strip.warnings().stream().filter(x -> x.startsWith("MX_RDMA_NIC_PIN='strip'")).findFirst()
                .orElseThrow(() -> new AssertionError(strip.warnings().toString()));
        assertTrue(w.contains("auto probe") && w.contains("ucx_utils.py:450") && w.endsWith("did you mean 'stripe'?"), w);
        EffectiveConfig sometimes = resolve("MX_RDMA_NIC_PIN=sometimes\n", NIXL_120, UCX_121);
        assertEquals("mlx5_2:1", sometimes.rawValue("UCX_NET_DEVICES"));
        assertTrue(sometimes.warnings().stream().anyMatch(x -> x.startsWith("MX_RDMA_NIC_PIN='sometimes'")
                && !x.contains("did you mean")), sometimes.warnings().toString());
        for (String named : List.of("auto", "On", "1", "stripe", "off", "mlx5_0:1,mlx5_1:1")) {
            assertTrue(resolveOnStripeBranch("MX_RDMA_NIC_PIN=" + named + "\n").warnings().stream()
                    .noneMatch(x -> x.contains("not a value ModelExpress names")), named);
        }
    }

    @Test
    void autoPinWithoutANearNicSkipsThePin() {
        StackSetup setup = StackSetup.of(env("MX_RDMA_NIC_PIN=auto\n"), UCX_121, "gpu9", 9, FOUR_NICS);
        EffectiveConfig c = ConfigResolver.resolve(setup);
        assertEquals("all", c.rawValue("UCX_NET_DEVICES"));
        assertTrue(c.warnings().contains("MX_RDMA_NIC_PIN auto-probe: no compute NIC found for gpu9; skipping pin"));
    }

    @Test
    void nixlAgentDevicesOverrideEvenTheUser() {
        StackSetup setup = StackSetup.of(env("UCX_NET_DEVICES=mlx5_0:1\n"), UCX_121, "gpu0", 0, FOUR_NICS)
                .withNixl(NIXL_120).withNixlAgentDevices(List.of("mlx5_1", "mlx5_3"));
        EffectiveConfig c = ConfigResolver.resolve(setup);
        assertEquals("mlx5_1:1,mlx5_3:1", c.rawValue("UCX_NET_DEVICES"));
        assertEquals(ConfigLayer.NIXL, c.layerOf("UCX_NET_DEVICES"));
        assertTrue(c.warnings().stream().anyMatch(w -> w.contains("config::modifyAlways")));
    }

    @Test
    void malformedUcxValueNamesVariableValueLayerAndExpectation() {
        ConfigValueException e = assertThrows(ConfigValueException.class,
                () -> resolve("export UCX_MAX_RMA_RAILS=two\n", NIXL_120, UCX_119));
        assertEquals("UCX_MAX_RMA_RAILS", e.variable());
        assertEquals("two", e.value());
        assertEquals(ConfigLayer.USER, e.layer());
        assertEquals("UCX_MAX_RMA_RAILS='two' (set by USER, env.sh:1): expected an unsigned integer or 'inf'",
                e.getMessage());
    }

    @Test
    void otherMalformedUcxValuesAreRejected() {
        assertThrows(ConfigValueException.class, () -> resolve("UCX_RNDV_SCHEME=zcopy\n", null, UCX_119));
        assertThrows(ConfigValueException.class, () -> resolve("UCX_RNDV_THRESH=4MiB\n", null, UCX_119));
        assertThrows(ConfigValueException.class, () -> resolve("UCX_RNDV_FRAG_SIZE=gpu:4M\n", null, UCX_119));
        // on/off is a different UCX type; the ternary-auto parser rejects it
        assertThrows(ConfigValueException.class,
                () -> resolve("UCX_IB_PCI_RELAXED_ORDERING=on\n", null, UCX_119));
        assertThrows(ConfigValueException.class, () -> resolve("UCX_MAX_HCA_PER_GPU=0\n", null, UCX_121));
    }

    @Test
    void unknownStackVariableWarnsWithTheClosestName() {
        EffectiveConfig c = resolve("export UCX_MAX_RMA_RAIL=4\nexport HOME=/root\n", NIXL_120, UCX_119);
        assertEquals(List.of("UCX_MAX_RMA_RAIL (env.sh:1) is not a variable rdmasim knows; "
                + "did you mean UCX_MAX_RMA_RAILS?"), c.warnings());
        // the typo does not count as setting the variable, so NIXL's value stays
        assertEquals(2, c.maxRmaRails());
        assertTrue(c.get("UCX_MAX_RMA_RAIL").isEmpty());
    }

    @Test
    void farUnknownNamesStillNameTheClosestKnownOne() {
        EffectiveConfig c = resolve("NIXL_UCX_TLS=rc,cuda_copy\n", null, UCX_119);
        assertEquals(1, c.warnings().size());
        assertTrue(c.warnings().get(0).contains("not modelled by rdmasim"));
        assertTrue(c.warnings().get(0).contains("closest known: UCX_TLS"), c.warnings().get(0));
        // a name that shares only its stack prefix with every known one is not pointed at any of them
        EffectiveConfig far = resolve("UCX_FOO=1\n", null, UCX_119);
        assertEquals(List.of("UCX_FOO (env.sh:1) is not modelled by rdmasim and is ignored (no known variable is "
                + "close to it)"), far.warnings());
    }

    @Test
    void laterAssignmentWinsAndIsReported() {
        EffectiveConfig c = resolve("UCX_MAX_RMA_RAILS=3\nUCX_MAX_RMA_RAILS=4\n", null, UCX_119);
        assertEquals(4, c.maxRmaRails());
        assertEquals("env.sh:2", c.get("UCX_MAX_RMA_RAILS").orElseThrow().origin());
        assertTrue(c.warnings().get(0).startsWith("UCX_MAX_RMA_RAILS is set twice (env.sh:1 and env.sh:2)"));
    }

    @Test
    void ncclValuesAreReadTheLenientWayNcclReadsThem() {
        EffectiveConfig c = resolve("""
                NCCL_IB_QPS_PER_CONNECTION=two
                NCCL_NET_GDR_LEVEL=pxb
                NCCL_SHADOW_MEMPOOL_MAX_SIZE=0x10000000
                NCCL_NET_GDR_READ=1
                """, null, UCX_119);
        assertEquals(0, c.qpsPerConnection(), "strtoll reads 'two' as 0");
        assertEquals(NcclPathType.PXB, c.ncclGdr(StackVersion.parse("2.28.9"), PathType.PIX, false).level(),
                "lower-case names are not recognised: default stays");
        assertEquals(1L << 28, c.shadowMempoolMaxSize());
        assertEquals(Boolean.TRUE, c.gdrRead().orElseThrow());
        assertEquals(2, c.warnings().size());
        // value checks report in registry order: GDR level before QPs
        assertTrue(c.warnings().get(0).contains("NCCL ignores it"));
        assertTrue(c.warnings().get(1).contains("read by NCCL as 0"));

        EffectiveConfig numeric = resolve("NCCL_NET_GDR_LEVEL=3\n", null, UCX_119);
        assertEquals(NcclPathType.PHB, numeric.ncclGdr(StackVersion.parse("2.28.9"), PathType.PIX, false).level());
        assertFalse(resolve("", null, UCX_119).gdrRead().isPresent());
        assertEquals(Boolean.FALSE, resolve("NCCL_NET_GDR_READ=0\n", null, UCX_119).gdrRead().orElseThrow());
        // strtoll overflows: NCCL's parameter reader keeps its default, as if unset
        assertFalse(resolve("NCCL_NET_GDR_READ=99999999999999999999\n", null, UCX_119).gdrRead().isPresent());
    }

    @Test
    void modelExpressTimeoutFallsBackToThreeHundredSecondsUnlessFiniteAndPositive() {
        assertEquals(300.0, resolve("", null, UCX_119).mxTransferTimeoutSeconds());
        assertEquals(45.5, resolve("MX_TRANSFER_TIMEOUT=45.5\n", null, UCX_119).mxTransferTimeoutSeconds());
        assertEquals(300.0, resolve("MX_TRANSFER_TIMEOUT=0\n", null, UCX_119).mxTransferTimeoutSeconds());
        assertEquals(300.0, resolve("MX_TRANSFER_TIMEOUT=soon\n", null, UCX_119).mxTransferTimeoutSeconds());
    }

    @Test
    void describePrintsAnAlignedTableWithTheLayerOfEachValue() {
        EffectiveConfig c = resolve("export UCX_MAX_RMA_RAILS=4\nMX_RDMA_NIC_PIN=auto\n", NIXL_120, UCX_121);
        String[] lines = c.describe().split("\n");
        assertTrue(lines[0].matches("NAME +VALUE +LAYER"), lines[0]);
        int valueColumn = lines[0].indexOf("VALUE");
        int layerColumn = lines[0].indexOf("LAYER");
        for (String line : lines) {
            assertTrue(line.length() > layerColumn, line);
            assertEquals(' ', line.charAt(valueColumn - 1), line);
            assertEquals(' ', line.charAt(layerColumn - 1), line);
        }
        assertTrue(c.describe().contains(row("UCX_NET_DEVICES", "mlx5_2:1", "MODEL_EXPRESS", valueColumn, layerColumn)));
        assertTrue(c.describe().contains(row("UCX_MAX_RMA_RAILS", "4", "USER", valueColumn, layerColumn)));
        assertTrue(c.describe().contains(row("UCX_RNDV_THRESH", "inf", "NIXL", valueColumn, layerColumn)));
        assertTrue(c.describe().contains(row("UCX_MULTI_LANE_MAX_RATIO", "4", "DEFAULT", valueColumn, layerColumn)));
        assertEquals(1 + c.values().size(), lines.length);
    }

    private static String row(String name, String value, String layer, int valueColumn, int layerColumn) {
        return String.format("%-" + valueColumn + "s%-" + (layerColumn - valueColumn) + "s%s%n", name, value, layer)
                .replace(System.lineSeparator(), "\n");
    }
}
