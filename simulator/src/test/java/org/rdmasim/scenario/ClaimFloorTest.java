package org.rdmasim.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rdmasim.workload.Claim;

/**
 * A claim's line-rate floor is the bytes one receiver GPU takes over the claimed NICs of its host at their
 * payload rate: for a fan-out too (each receiver GPU pulls the whole model), and never over more NICs than
 * the receiving host has.
 */
class ClaimFloorTest {
    @TempDir
    Path dir;

    private Path write(String body) throws IOException {
        Path yaml = dir.resolve("s.yaml");
        Files.writeString(yaml, "name: s\nhosts:\n  a: {preset: gb200-tray}\n  b: {preset: gb200-tray}\n" + body);
        return yaml;
    }

    @Test
    void aFanoutClaimHasTheFloorOfOneReceiversPull() throws IOException {
        Path yaml = dir.resolve("f.yaml");
        Files.writeString(yaml, "name: f\nhosts:\n"
                + "  receivers: {preset: gb200-tray, count: 4, prefix: r}\n"
                + "  sources: {preset: gb200-tray, count: 1, prefix: s}\n"
                + "workload:\n  fanout:\n    receivers: {hosts: receivers, gpus: [GPU0]}\n"
                + "    sources: {hosts: sources, gpus: [GPU0]}\n    model: 16 GB\n    arrival: all-at-once\n"
                + "variants:\n  - name: x\n    claim: {pullSeconds: 0.05, nics: 2}\n");
        Claim c = ScenarioLoader.load(yaml).variants().get(0).claim();
        // 16 GB over two 400G RoCE NICs at their payload rate (392 Gbps each after framing): 0.1632 s, so a
        // claim of 0.05 s promises more than the wire allows
        assertTrue(Double.isFinite(c.floorSeconds()), "floor " + c.floorSeconds());
        assertEquals(16e9 * 8 / (2 * 392.1e9), c.floorSeconds(), 0.001);
        assertTrue(c.belowFloor());
    }

    @Test
    void moreNicsThanTheReceiverHasIsRefusedAtTheNics() throws IOException {
        Path yaml = write("workload:\n  transfers:\n    - {from: \"a:GPU0\", to: \"b:GPU0\", size: 16 GB}\n"
                + "variants:\n  - name: x\n    claim: {pullSeconds: 0.001, nics: 9}\n");
        ScenarioException e = assertThrows(ScenarioException.class, () -> ScenarioLoader.load(yaml));
        assertTrue(e.getMessage().contains("s.yaml:10:39: ") && e.getMessage().contains("variants[0].claim.nics")
                && e.getMessage().contains("receiving host 'b' has 4"), e.getMessage());
    }

    @Test
    void asManyNicsAsTheReceiverHasLoads() throws IOException {
        Path yaml = write("workload:\n  transfers:\n    - {from: \"a:GPU0\", to: \"b:GPU0\", size: 16 GB}\n"
                + "variants:\n  - name: x\n    claim: {pullSeconds: 0.10, nics: 4}\n");
        Claim c = ScenarioLoader.load(yaml).variants().get(0).claim();
        assertEquals(16e9 * 8 / (4 * 392.1e9), c.floorSeconds(), 0.001);
    }

    @Test
    void aGpuLinkTighterThanTheClaimedNicsIsTheFloor() throws IOException {
        // DGX H100: four 400G NICs carry 16 GB in ~0.082 s, but every byte enters GPU0 through its one PCIe Gen5
        // x16 link, so a claim of 0.2 s promises more than that link allows
        Path yaml = dir.resolve("h.yaml");
        Files.writeString(yaml, "name: h\nhosts:\n  a: {preset: dgx-h100}\n  b: {preset: dgx-h100}\n"
                + "workload:\n  transfers:\n    - {from: \"a:GPU0\", to: \"b:GPU0\", size: 16 GB}\n"
                + "variants:\n  - name: x\n    claim: {pullSeconds: 0.2, nics: 4}\n");
        var spec = ScenarioLoader.load(yaml).variants().get(0);
        Claim c = spec.claim();
        double link = spec.hosts().get("b").gpu("GPU0").orElseThrow().link().bytesPerSecond();
        assertEquals(16e9 / link, c.gpuLinkFloorSeconds(), 1e-9);
        assertTrue(c.gpuLinkFloorSeconds() > 0.2 && c.floorSeconds() < 0.2, c.toString());
        assertTrue(c.gpuLinkBinds() && c.belowFloor(), "below the GPU link's floor, above the NICs'");
        String verdict = c.verdict(0.3);
        assertTrue(verdict.startsWith("FLAGGED") && verdict.contains("PCIe Gen5 x16 link") && verdict.contains("GPU0"), verdict);
    }

    @Test
    void onGb200TheNicsStayTheFloor() throws IOException {
        // GB200's C2C link (450 GB/s a direction) is far wider than four NICs: the line rate stays the floor
        Path yaml = write("workload:\n  transfers:\n    - {from: \"a:GPU0\", to: \"b:GPU0\", size: 16 GB}\n"
                + "variants:\n  - name: x\n    claim: {pullSeconds: 0.10, nics: 4}\n");
        Claim c = ScenarioLoader.load(yaml).variants().get(0).claim();
        assertTrue(c.gpuLinkFloorSeconds() > 0 && !c.gpuLinkBinds(), c.toString());
        assertEquals(c.floorSeconds(), c.physicalFloorSeconds(), 0);
    }
}
