package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.rdmasim.refit.model.TinyQwen3;
import org.junit.jupiter.api.io.TempDir;

/**
 * A colocated refit from a scenario file (trainer and engine on the same 8 GPUs of one host, a small Qwen3
 * model): each inference rank gets exactly its layout's needs and nothing crosses a NIC; the host bounce shows
 * as host copies and costs time; a bad knob exits 2 naming the file, line and field.
 */
class ColocatedRefitScenarioTest {
    @TempDir
    Path dir;

    private Path scenario(String refitExtra, String variants) throws IOException {
        Files.writeString(dir.resolve("tiny.json"), TinyQwen3.config(4));
        Path f = dir.resolve("refit.yaml");
        Files.writeString(f, """
                # a tiny colocated refit
                name: tiny-colocated
                seed: 7
                hosts:
                  node: {preset: dgx-h100, count: 1, prefix: n}
                  other: {preset: dgx-h100, count: 1, prefix: o}
                workload:
                  refit:
                    model: tiny.json
                    trainer: {hosts: node, tp: 2, dp: 4, fsdp: true}
                    inference: {hosts: node, tp: 4, dp: 2}
                    method: colocated-ipc
                    bucket: 256 KiB
                    cycles: 2
                """ + refitExtra + variants);
        return f;
    }

    @Test
    void deliversEachLayoutsNeedsWithoutANicAndTheBounceCostsHostCopies() throws IOException {
        Path f = scenario("", """
                variants:
                  - name: gpu-resident
                  - name: bounce
                    workload: {refit: {hostBounce: true, doubleBuffering: false}}
                  - name: per-tensor
                    workload: {refit: {ipcHandles: per-tensor}}
                """);
        var r = CliTestSupport.run("run", f.toString(), "-o", dir.resolve("out").toString());
        assertEquals(0, r.code(), r.err());
        JsonNode s = new ObjectMapper().readTree(dir.resolve("out/summary.json").toFile());
        double[] steady = new double[3];
        double[] install = new double[3];
        int k = 0;
        for (JsonNode v : s.get("variants")) {
            assertEquals("ok", v.get("status").asText(), v.toString());
            JsonNode refit = v.get("refit");
            assertEquals("colocated-ipc", refit.get("method").asText());
            assertTrue(refit.get("conserved").asBoolean(), v.get("name") + ": every inference rank gets its needs");
            for (JsonNode c : refit.get("cycles")) {
                assertEquals(0, c.get("wireBytes").asLong(), "no byte crosses a NIC");
                assertEquals(0.0, c.get("stageSeconds").get("register").asDouble(), "nothing is registered");
                assertTrue(c.get("stageSeconds").get("install").asDouble() > 0);
            }
            JsonNode last = refit.get("cycles").get(1);
            assertEquals(v.get("name").asText().equals("bounce"), last.get("stageSeconds").get("h2d").asDouble() > 0,
                    v.get("name") + ": host copies only with the bounce");
            install[k] = last.get("stageSeconds").get("install").asDouble();
            steady[k++] = last.get("seconds").asDouble();
        }
        assertTrue(steady[1] > steady[0], "the bounce and one bucket at a time cost time");
        assertTrue(install[2] > install[0], "a handle per tensor costs the engine more than one a bucket");
    }

    /**
     * "What would halve it" tries a bigger bucket on the variant as written: the bounce and the per-tensor handles
     * stay in the try, so each variant's 4x answer is its own (they were all gpu-resident's when the try started
     * from fresh knobs).
     */
    @Test
    void aBiggerBucketTryKeepsTheVariantsOtherKnobs() throws IOException {
        Path f = scenario("", """
                variants:
                  - name: gpu-resident
                  - name: bounce
                    workload: {refit: {hostBounce: true}}
                  - name: per-tensor
                    workload: {refit: {ipcHandles: per-tensor}}
                """);
        var r = CliTestSupport.run("run", f.toString(), "-o", dir.resolve("out").toString());
        assertEquals(0, r.code(), r.err());
        JsonNode s = new ObjectMapper().readTree(dir.resolve("out/summary.json").toFile());
        double[] bigger = new double[3];
        int k = 0;
        for (JsonNode v : s.get("variants")) {
            bigger[k] = Double.NaN;
            for (JsonNode c : v.get("refit").get("whatWouldHalveIt")) {
                if (c.get("change").asText().startsWith("a bucket of")) {
                    bigger[k] = c.get("steadyCycleSeconds").asDouble();
                }
            }
            assertFalse(Double.isNaN(bigger[k]), v.get("name") + " tries a bigger bucket");
            k++;
        }
        assertTrue(bigger[1] > bigger[0], "the bounce stays in its bigger-bucket try: " + bigger[1] + " vs " + bigger[0]);
        assertTrue(bigger[2] > bigger[0], "a handle per tensor stays in its try: " + bigger[2] + " vs " + bigger[0]);
    }

    private void refused(String refitExtra, String variants, String... words) throws IOException {
        var r = CliTestSupport.run("run", scenario(refitExtra, variants).toString(), "-o", dir.resolve("x").toString());
        assertEquals(2, r.code(), r.err());
        assertFalse(r.err().contains("\tat "), "no stack trace");
        assertTrue(r.err().matches("(?s).*refit\\.yaml:\\d+:\\d+:.*"), "file:line:column in: " + r.err());
        for (String w : words) {
            assertTrue(r.err().contains(w), "'" + w + "' in: " + r.err());
        }
    }

    @Test
    void badKnobsExitTwoNamingFileLineAndField() throws IOException {
        refused("    ipcHandles: sometimes\n", "", "ipcHandles", "per-bucket or per-tensor", "sometimes");
        refused("    hostBounce: maybe\n", "", "hostBounce");
        refused("", "variants:\n  - name: x\n    workload: {refit: {method: rdma-pull, hostBounce: true, inference: {hosts: other}}}\n",
                "hostBounce applies to colocated-ipc only");
        refused("", "variants:\n  - name: x\n    workload: {refit: {inference: {hosts: other}}}\n", "inference.hosts",
                "same GPUs");
        refused("", "variants:\n  - name: x\n    workload: {refit: {inference: {tp: 8, dp: 2}}}\n", "inference");
    }

    @Test
    void sizingRefusesKnobsNoColocatedByteCrosses() throws IOException {
        Path f = scenario("", "");
        var r = CliTestSupport.run("size", f.toString(), "--target-refit", "1", "--vary", "nics");
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("no NIC carries a byte"), r.err());
    }
}
