package org.rdmasim.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rdmasim.hardware.GpuModel;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.HostSpec;
import org.rdmasim.hardware.LinkLayer;

/** {@code {nvidia-smi: FILE}} and {@code {nccl-topo: FILE}} hosts, resolved beside the scenario. */
class ImportedHostScenarioTest {
    @TempDir
    Path dir;

    private void copy(String resource, Path to) throws IOException {
        Files.createDirectories(to.getParent());
        try (InputStream in = ImportedHostScenarioTest.class.getResourceAsStream("/importers/" + resource)) {
            Files.write(to, in.readAllBytes());
        }
    }

    private HostSpec host(String yaml) throws IOException {
        Path scenario = dir.resolve("s.yaml");
        Files.writeString(scenario, yaml);
        return HostReader.read(YamlTree.parse(scenario).get("host"));
    }

    @Test
    void readsBothFormatsRelativeToTheScenario() throws IOException {
        copy("h100-dgx-topo.txt", dir.resolve("hosts/dgx.txt"));
        copy("gb200-dump.xml", dir.resolve("hosts/gb200.xml"));
        HostSpec smi = host("host: {nvidia-smi: hosts/dgx.txt, gpuModel: h200}\n");
        assertEquals(GpuModel.H200, new Host("h", smi).gpu("GPU0").gpu().model());
        HostSpec xml = host("host: {nccl-topo: hosts/gb200.xml, linkLayer: roce}\n");
        assertEquals(LinkLayer.ROCE, new Host("h", xml).nic("mlx5_3").nic().linkLayer());
    }

    @Test
    void importErrorsKeepTheImportedFileAndLine() throws IOException {
        copy("truncated-dump.xml", dir.resolve("bad.xml"));
        ScenarioException e = assertThrows(ScenarioException.class, () -> host("host:\n  nccl-topo: bad.xml\n"));
        assertTrue(e.getMessage().contains("s.yaml:2:"), e.getMessage());
        assertTrue(e.getMessage().contains("bad.xml:19: malformed or truncated XML"), e.getMessage());
    }

    @Test
    void catalogScenarioLoads() {
        // Maven runs tests in simulator/; the catalog sits beside it.
        Scenario s = ScenarioLoader.load(Path.of("..", "scenarios", "imported-h100-host.yaml"));
        assertEquals("imported-h100-host", s.name());
        // its two host groups import one file: each default the importer filled in is said once, not per group
        List<String> warnings = s.variants().get(0).warnings();
        assertEquals(3, warnings.size(), warnings.toString());
        assertEquals(warnings.size(), new java.util.HashSet<>(warnings).size(), warnings.toString());
    }

    @Test
    void missingFileIsAScenarioError() {
        ScenarioException e = assertThrows(ScenarioException.class, () -> host("host: {nvidia-smi: nowhere.txt}\n"));
        assertTrue(e.getMessage().contains("no such file"), e.getMessage());
    }
}
