package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Everything an answer rests on that no mechanism derives is in summary.json and on the page, labelled. */
class RestsOnReportTest {
    @TempDir
    Path dir;

    private static List<String> restsOn(JsonNode variant, String kind) {
        List<String> out = new ArrayList<>();
        for (JsonNode a : variant.get("restsOn")) {
            if (a.get("kind").asText().equals(kind)) {
                out.add(a.get("what").asText());
            }
        }
        return out;
    }

    @Test
    void importerDefaultsAndTheCalibratedReadRateAreListedForAnImportedHost() throws Exception {
        Path out = dir.resolve("imp");
        assertEquals(0, CliTestSupport.run("run", CliTestSupport.repo().resolve("scenarios/imported-h100-host.yaml")
                .toString(), "--out", out.toString(), "-q").code());
        JsonNode v = new ObjectMapper().readTree(out.resolve("summary.json").toFile()).get("variants").get(0);
        // GPU buffers: the three calibrated registration-time terms follow the profile's read rate
        assertEquals(List.of("profile connectx7: qpReadRate = 320 Gbps",
                "registration: GPU memory, per registration call = 0.200 ms",
                "registration: GPU memory, per GB once per buffer = 4.10 ms",
                "registration: GPU memory, per GB per MR = 3.15 ms"), restsOn(v, "calibrated"));
        List<String> assumed = restsOn(v, "assumed");
        assertEquals(4, assumed.size(), assumed.toString());
        assertEquals("registration: per MR = 16.0 us", assumed.get(0));
        assertTrue(assumed.subList(1, 4).stream().allMatch(a -> a.startsWith("h100-topo.txt:2: ") && a.contains("taken as")),
                assumed.toString());
        String page = Files.readString(out.resolve("index.html"), StandardCharsets.UTF_8);
        assertTrue(page.contains("Registration times rest on these terms"), "the page lists them too");
    }

    @Test
    void anUnstatedUcxInstallIsAnAssumptionOnThePageAndInTheSummary() throws Exception {
        Path out = dir.resolve("s3");
        assertEquals(0, CliTestSupport.run("run", CliTestSupport.repo().resolve("scenarios/seed003-nic-pin-vs-stripe.yaml")
                .toString(), "--out", out.toString(), "-q").code());
        JsonNode variants = new ObjectMapper().readTree(out.resolve("summary.json").toFile()).get("variants");
        for (JsonNode v : variants) {
            boolean prefix = v.get("name").asText().contains("ucx-prefix");
            boolean dgx = v.get("name").asText().startsWith("dgx");
            boolean listed = restsOn(v, "assumed").stream().anyMatch(a -> a.startsWith("UCX install: nixl-wheel"));
            // stated in the prefix variant; on DGX H100 (Sapphire Rapids) ucx.conf has no section, so it does not matter
            assertEquals(!prefix && !dgx, listed, v.get("name").asText());
        }
        String page = Files.readString(out.resolve("index.html"), StandardCharsets.UTF_8);
        assertTrue(page.contains("What the scenario leaves unsaid, filled in") && page.contains("UCX install: nixl-wheel"));
    }
}
