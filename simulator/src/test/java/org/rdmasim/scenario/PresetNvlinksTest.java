package org.rdmasim.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.HostSpec;
import org.rdmasim.hardware.TopologyNode;

/**
 * {@code nvlinks} on a preset host sets every GPU's NVLink count (an H800 is an H100 host with 8 links a
 * GPU), which sets the NVLink rate the refit stages read; a count no GPU has is refused at its line.
 */
class PresetNvlinksTest {
    @TempDir
    Path dir;

    private HostSpec host(String line) throws IOException {
        return host(dir, line);
    }

    /** Host n0 of a scenario whose one host group is written as {@code line} (prefix n, two hosts or more). */
    static HostSpec host(Path dir, String line) throws IOException {
        Path yaml = dir.resolve("s.yaml");
        Files.writeString(yaml, "name: s\nseed: 1\nhosts:\n  node: " + line + "\n"
                + "workload:\n  transfers:\n    - {from: \"n0:GPU0\", to: \"n1:GPU0\", size: 1 GB}\n");
        return ScenarioLoader.load(yaml).variants().get(0).hosts().get("n0");
    }

    private static List<HostSpec.GpuSpec> gpus(HostSpec spec) {
        List<HostSpec.GpuSpec> out = new ArrayList<>();
        for (TopologyNode g : new Host("n0", spec).gpus()) {
            out.add(g.gpu());
        }
        return out;
    }

    @Test
    void eightLinksAGpuGiveH800sFourHundredGigabytesPerSecond() throws IOException {
        List<HostSpec.GpuSpec> h100 = gpus(host("{preset: dgx-h100, count: 2, prefix: n}"));
        List<HostSpec.GpuSpec> h800 = gpus(host("{preset: dgx-h100, nvlinks: 8, count: 2, prefix: n}"));
        assertEquals(8, h800.size());
        for (int k = 0; k < h800.size(); k++) {
            assertEquals(18, h100.get(k).nvlinks());
            assertEquals(8, h800.get(k).nvlinks());
            assertEquals(h100.get(k).model(), h800.get(k).model());
            assertEquals(h100.get(k).link(), h800.get(k).link());
        }
        // One direction: 8 x 25 GB/s, the 400 GB/s (both directions) of NVIDIA's H800 specifications halved.
        assertEquals(200e9, h800.get(0).nvlinkBytesPerSecond(), 1e-3);
        assertEquals(450e9, h100.get(0).nvlinkBytesPerSecond(), 1e-3);
    }

    @Test
    void nicsAreAdjustedBesideTheLinks() throws IOException {
        HostSpec spec = host("{preset: dgx-h100, nvlinks: 8, linkLayer: roce, lineRate: 200 Gbps, count: 2, prefix: n}");
        assertTrue(spec.nicSpecs().stream().filter(HostSpec.NicSpec::compute).allMatch(n -> n.lineRateGbps() == 200));
        assertTrue(gpus(spec).stream().allMatch(g -> g.nvlinks() == 8));
    }

    @Test
    void moreLinksThanThePartHasAreRefusedAtTheValue() throws IOException {
        ScenarioException t4 = assertThrows(ScenarioException.class, () -> host(
                "{preset: generic, generic: {sockets: 1, gpusPerSocket: 2, nicsPerGpu: 1, gpu: T4}, nvlinks: 8, count: 2, prefix: n}"));
        assertTrue(t4.getMessage().contains("s.yaml:4:") && t4.getMessage().contains("has no NVLink"), t4.getMessage());
        ScenarioException a100 = assertThrows(ScenarioException.class, () -> host(
                "{preset: generic, generic: {sockets: 1, gpusPerSocket: 2, nicsPerGpu: 1, gpu: A100}, nvlinks: 18, count: 2, prefix: n}"));
        assertTrue(a100.getMessage().contains("12 NVLinks at most, got 18"), a100.getMessage());
        assertEquals(8, gpus(host("{preset: generic, generic: {sockets: 1, gpusPerSocket: 2, nicsPerGpu: 1, gpu: A100}, "
                + "nvlinks: 8, count: 2, prefix: n}")).get(0).nvlinks(), "an A800 host: 8 of the A100's 12");
    }

    @Test
    void aCountNoGpuHasIsRefusedAtItsValue() {
        ScenarioException e = assertThrows(ScenarioException.class,
                () -> host("{preset: dgx-h100, nvlinks: 19, count: 2, prefix: n}"));
        assertTrue(e.getMessage().contains("s.yaml:4:"), e.getMessage());
        assertTrue(e.getMessage().contains("0 to 18 NVLinks"), e.getMessage());
    }
}
