package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The UCX install decides whether ucx.conf is read (openucx/ucx src/ucs/config/parser.c v1.20.0 L1782-1820),
 * and with it how many of a GB200 tray's NICs four rails reach: NIXL's wheel bundles a UCX without the file
 * (two same-Grace NICs), a UCX installed into a prefix reads its Grace section (all four).
 */
class UcxInstallScenarioTest {
    @TempDir
    Path dir;

    private Path scenario(String install) throws Exception {
        Path f = dir.resolve("s.yaml");
        Files.writeString(f, """
                name: install
                hosts:
                  source: {preset: gb200-tray}
                  receiver: {preset: gb200-tray}
                transport:
                  nixl: "1.1.0"
                  ucx: "1.20.0"
                %s
                  env: |
                    export UCX_NET_DEVICES=mlx5_0:1,mlx5_1:1,mlx5_2:1,mlx5_3:1
                    export UCX_MAX_RMA_RAILS=4
                workload:
                  transfers:
                    - {from: "source:GPU0", to: "receiver:GPU0", size: 1 GB}
                variants:
                  - name: v
                """.formatted(install));
        return f;
    }

    private List<String> sendingNics(Path scenario) throws Exception {
        Path out = dir.resolve("out-" + Math.abs(scenario.hashCode()) + System.nanoTime());
        assertEquals(0, CliTestSupport.run("run", scenario.toString(), "--out", out.toString(), "-q").code());
        JsonNode v = new ObjectMapper().readTree(out.resolve("summary.json").toFile()).get("variants").get(0);
        List<String> nics = new ArrayList<>();
        for (JsonNode n : v.get("nics")) {
            if (n.get("host").asText().equals("source") && n.get("txBytes").asLong() > 0) {
                nics.add(n.get("name").asText());
            }
        }
        return nics;
    }

    @Test
    void nixlWithoutAStatedInstallRunsTheWheelsUcxWhichReadsNoUcxConf() throws Exception {
        assertEquals(List.of("mlx5_0", "mlx5_1"), sendingNics(scenario("")));
        assertEquals(List.of("mlx5_0", "mlx5_1"), sendingNics(scenario("  ucxInstall: nixl-wheel")));
    }

    @Test
    void aUcxInstalledIntoAPrefixReadsTheGraceSectionAndReachesAllFourNics() throws Exception {
        assertEquals(List.of("mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3"), sendingNics(scenario("  ucxInstall: prefix")));
    }

    @Test
    void explainShowsTheAnswerUnderTheOtherInstallWhenTheScenarioDoesNotSay() throws Exception {
        var o = CliTestSupport.run("explain", scenario("").toString());
        assertEquals(0, o.code(), o.err());
        assertTrue(o.out().contains("UCX install: nixl-wheel (not stated"), o.out());
        int at = o.out().indexOf("under ucxInstall: prefix (ucx.conf read):");
        assertTrue(at > 0, o.out());
        // 1 GB over four NICs held at the calibrated 308 Gbps each: 1232 Gbps less the rendezvous latency
        assertTrue(o.out().substring(at).matches("(?s).*\\(123[01]\\.\\d Gbps\\).*"), o.out().substring(at));
        var stated = CliTestSupport.run("explain", scenario("  ucxInstall: prefix").toString());
        assertTrue(stated.out().contains("UCX install: prefix (transport.ucxInstall)"), stated.out());
        assertTrue(!stated.out().contains("under ucxInstall:"), stated.out());
    }

    @Test
    void theRetiredUcxConfFieldAndAnUnknownInstallAreBadInputNamingTheLine() throws Exception {
        var old = CliTestSupport.run("run", scenario("  ucxConf: absent").toString(), "--out", dir.resolve("o1").toString());
        assertEquals(2, old.code());
        assertTrue(old.err().contains("s.yaml:8") && old.err().contains("ucxInstall"), old.err());
        var bad = CliTestSupport.run("run", scenario("  ucxInstall: conda").toString(), "--out", dir.resolve("o2").toString());
        assertEquals(2, bad.code());
        assertTrue(bad.err().contains("s.yaml:8") && bad.err().contains("nixl-wheel"), bad.err());
    }

    /**
     * p5-efa-striping's variants run NIXL's libfabric backend: UCX is not in their data path, so neither
     * explain nor the run's "rests on" may list a UCX install, nor model an answer under the other one, though
     * the same scenario's hosts would make the install matter to a UCX variant.
     */
    @Test
    void aVariantWhoseBackendIsNotUcxRestsOnNoUcxInstall() throws Exception {
        Path p5 = CliTestSupport.repo().resolve("scenarios/p5-efa-striping.yaml");
        var o = CliTestSupport.run("explain", p5.toString(), "--variant", "one-gpu-four-efa");
        assertEquals(0, o.code(), o.err());
        assertTrue(o.out().contains("libfabric"), o.out());
        assertTrue(!o.out().contains("UCX install") && !o.out().contains("under ucxInstall"), o.out());
        var json = CliTestSupport.run("explain", p5.toString(), "--variant", "one-gpu-four-efa", "--json");
        assertEquals(0, json.code(), json.err());
        assertTrue(!json.out().contains("\"ucxInstall\""), json.out());
        Path out = dir.resolve("p5");
        assertEquals(0, CliTestSupport.run("run", p5.toString(), "--out", out.toString(), "-q", "--skip-without").code());
        String page = Files.readString(out.resolve("index.html"));
        assertTrue(page.contains("What the scenario leaves unsaid") || page.contains("rests on"), "the page has its rests-on section");
        assertTrue(!page.contains("UCX install:"), "a libfabric page lists no UCX install");
    }
}
