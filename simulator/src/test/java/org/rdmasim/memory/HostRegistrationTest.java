package org.rdmasim.memory;

import org.rdmasim.transport.ucx.UcxTopoDistance;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.Presets;
import org.rdmasim.transport.config.EnvEntry;
import org.rdmasim.memory.RegistrationLimits.FirmwareCapScope;
import org.rdmasim.memory.RegistrationVerdict.LimitKind;
import org.rdmasim.transport.config.ConfigResolver;
import org.rdmasim.transport.config.ConfigValueException;
import org.rdmasim.transport.config.EffectiveConfig;
import org.rdmasim.transport.config.StackSetup;
import org.rdmasim.transport.config.StackVersion;

/** Crusoe's figures [crusoe-kb-nixl] through the adapter from a built preset host and a resolved configuration. */
class HostRegistrationTest {

    private static final long FORTY_GIB = 40 * ByteUnits.GIB;
    private static final StackVersion NIXL_1_1 = StackVersion.parse("1.1.0");
    private static final StackVersion NIXL_1_2 = StackVersion.parse("1.2.0");
    private static final StackVersion UCX_1_20 = StackVersion.parse("1.20.0");
    private static final StackVersion UCX_1_21 = StackVersion.parse("1.21.0");

    private final Host hgx = new Host("node0", Presets.get("hgx-h200"));
    private final RegistrationModel model = new RegistrationModel();

    private static EffectiveConfig nixl(Host host, StackVersion nixl, StackVersion ucx, String... env) {
        List<EnvEntry> entries = new ArrayList<>();
        for (int i = 0; i < env.length; i++) {
            String[] kv = env[i].split("=", 2);
            entries.add(new EnvEntry(kv[0], kv[1], "test", i + 1));
        }
        StackSetup setup = new StackSetup(entries, Optional.ofNullable(nixl), ucx, List.of(), "GPU0", 0,
                org.rdmasim.transport.ucx.StackProfile.nicView(host));
        return ConfigResolver.resolve(setup);
    }

    private int mrsPerBuffer(EffectiveConfig config) {
        return new HostRegistration(hgx, config).plan(model, MemoryRegion.cuda("GPU0", FORTY_GIB)).totalMrs();
    }

    @Test
    void distancesFollowUcxTopo() {
        HostRegistration r = new HostRegistration(hgx, nixl(hgx, null, UCX_1_20));
        List<HcaCandidate> c = r.candidates("GPU0");
        assertEquals(8, c.size());
        assertEquals("mlx5_0", c.get(0).name());
        assertEquals(UcxTopoDistance.NEAR, c.get(0).distance());
        assertEquals(UcxTopoDistance.SAME_NUMA_NODE, c.get(1).distance());
        assertEquals(17000.0 * (1 << 20), c.get(1).distance().bandwidthBytesPerSecond());
        assertEquals(UcxTopoDistance.OTHER_NUMA_NODE, c.get(7).distance());
        assertEquals(6 + 5, c.stream().filter(h -> h.name().equals("mlx5_5")).findFirst().orElseThrow().mdIndex(),
                "mlx5_5 is md[11] as in Crusoe's log");
    }

    @Test
    void seed000NixlDefaultTryGivesSixteenMrsPerBuffer() {
        assertEquals(16, mrsPerBuffer(nixl(hgx, NIXL_1_1, UCX_1_20)));
    }

    @Test
    void seed000RelaxedOrderingAutoOnSapphireRapidsGivesEight() {
        assertEquals(8, mrsPerBuffer(nixl(hgx, NIXL_1_1, UCX_1_20, "UCX_IB_PCI_RELAXED_ORDERING=auto")));
        // UCX alone defaults to auto as well.
        assertEquals(8, mrsPerBuffer(nixl(hgx, null, UCX_1_20)));
    }

    @Test
    void seed000NixlOneTwoWithUcxOneTwentyOneRegistersOnTheClosestHcaOnly() {
        EffectiveConfig fixed = nixl(hgx, NIXL_1_2, UCX_1_21);
        RegistrationPlan plan = new HostRegistration(hgx, fixed).plan(model, MemoryRegion.cuda("GPU3", FORTY_GIB));
        assertEquals(List.of("mlx5_3"), plan.hcaNames());
        assertEquals(2, plan.totalMrs());
        // NIXL 1.2 on an older UCX does not set it.
        assertEquals(16, mrsPerBuffer(nixl(hgx, NIXL_1_2, UCX_1_20)));
        assertEquals(1, mrsPerBuffer(nixl(hgx, NIXL_1_2, UCX_1_21, "UCX_IB_PCI_RELAXED_ORDERING=auto")));
    }

    @Test
    void netDevicesLimitTheCandidates() {
        HostRegistration r = new HostRegistration(hgx, nixl(hgx, NIXL_1_1, UCX_1_20,
                "UCX_NET_DEVICES=mlx5_4:1,mlx5_9:1"));
        assertEquals(List.of("mlx5_4"), r.candidates("GPU0").stream().map(HcaCandidate::name).toList());
        assertTrue(r.warnings().get(0).contains("'mlx5_9:1' is not available"), r.warnings().toString());
        assertThrows(ConfigValueException.class, () -> new HostRegistration(hgx, nixl(hgx, NIXL_1_1, UCX_1_20,
                "UCX_NET_DEVICES=mlx5_9:1")));
    }

    @Test
    void gb200AutoKeepsBothNicsOfTheSameGrace() {
        Host tray = new Host("tray0", Presets.get("gb200-tray"));
        RegistrationPlan plan = new HostRegistration(tray, nixl(tray, NIXL_1_2, UCX_1_21))
                .plan(model, MemoryRegion.cuda("GPU2", FORTY_GIB));
        assertEquals(List.of("mlx5_2", "mlx5_3"), plan.hcaNames());
        assertEquals(4, plan.totalMrs(), "try gives two MRs on each of the two NODE HCAs");
    }

    private List<VariantRegistration.Buffer> fortyGibPerGpu() {
        List<VariantRegistration.Buffer> buffers = new ArrayList<>();
        for (int g = 0; g < 8; g++) {
            buffers.add(VariantRegistration.Buffer.gpu("node0", "GPU" + g, FORTY_GIB));
        }
        return buffers;
    }

    @Test
    void seed000FortyGibPerGpuFailsUnderAFirmwareCapWithTheRealMessageAndFitsWithAuto() {
        RegistrationCaps caps = RegistrationCaps.none().withFirmwarePageCap(ByteUnits.GIB, FirmwareCapScope.PER_HCA);
        VariantRegistration.Outcome before = VariantRegistration.register(List.of(hgx),
                (host, gpu) -> nixl(host, NIXL_1_1, UCX_1_20), fortyGibPerGpu(), model, caps);
        assertFalse(before.passed());
        assertEquals(128, before.totals().mrCount());
        assertEquals(LimitKind.FIRMWARE_PAGE_CAP, before.verdict().limit());
        String error = before.error();
        assertTrue(error.contains("UCX  ERROR ibv_reg_dmabuf_mr(address=0x7f7980000000, length=42949672960, "
                + "access=0x10000f) failed: Resource temporarily unavailable"), error);
        assertTrue(error.contains("dmabuf_fd 438 on md["), error);
        assertTrue(error.contains("nixlBackendError: NIXL_ERR_BACKEND"), error);

        VariantRegistration.Outcome after = VariantRegistration.register(List.of(hgx),
                (host, gpu) -> nixl(host, NIXL_1_2, UCX_1_21), fortyGibPerGpu(), model, caps);
        assertTrue(after.passed(), after.error());
        assertEquals(16, after.totals().mrCount());
        assertTrue(after.hosts().get(0).perLimit().get(LimitKind.FIRMWARE_PAGE_CAP).passed());
        assertEquals("", after.error());
    }

    @Test
    void perHostConfigsNeedEveryHost() {
        assertThrows(MemoryInputException.class, () -> VariantRegistration.register(List.of(hgx),
                VariantRegistration.ProcessConfigs.perHost(Map.of()), fortyGibPerGpu(), model, RegistrationCaps.none()));
        assertThrows(MemoryInputException.class, () -> VariantRegistration.register(List.of(hgx),
                (h, g) -> nixl(h, null, UCX_1_20), List.of(VariantRegistration.Buffer.gpu("other", "GPU0", 1)), model,
                RegistrationCaps.none()));
    }
}
