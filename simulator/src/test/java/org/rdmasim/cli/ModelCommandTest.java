package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code rdmasim model}: its JSON, its layouts and its refusals. */
class ModelCommandTest {
    @TempDir
    Path dir;

    private static String model(String file) {
        return CliTestSupport.repo().resolve("scenarios/models").resolve(file).toString();
    }

    @Test
    void jsonGivesParametersBytesAndEveryRank() throws Exception {
        var r = CliTestSupport.run("model", model("qwen3-30b-a3b.json"), "--tp", "4", "--json");
        assertEquals(0, r.code(), r.err());
        JsonNode o = new ObjectMapper().readTree(r.out());
        assertEquals("model", o.get("command").asText());
        long bytes = o.get("bytes").asLong();
        assertEquals(2 * o.get("parameters").asLong(), bytes, "a bf16 model: two bytes a parameter");
        assertEquals(4, o.get("ranks").size());
        long sum = 0;
        for (JsonNode rank : o.get("ranks")) {
            sum += rank.get("bytes").asLong();
            assertEquals(128, rank.get("experts").asInt(), "without EP every rank holds a slice of every expert");
        }
        // 4 KV heads over TP 4: nothing replicated but the norms and routers; each rank a quarter of the rest
        assertTrue(sum > bytes && sum < bytes * 1.01, sum + " vs " + bytes);
    }

    @Test
    void expertParallelismAndPipelineStagesShowUp() throws Exception {
        var r = CliTestSupport.run("model", model("deepseek-v3.json"), "--tp", "8", "--ep", "16", "--pp", "61",
                "--json");
        assertEquals(0, r.code(), r.err());
        JsonNode o = new ObjectMapper().readTree(r.out());
        assertEquals(2, o.get("layout").get("dp").asInt(), "--ep 16 over TP 8 is 2 replicas");
        assertEquals(16, o.get("ranks").get(0).get("experts").asInt(), "256 experts over 16 ranks");
        assertEquals(61, o.get("stages").size());
        long stages = 0;
        for (JsonNode s : o.get("stages")) {
            stages += s.get("bytes").asLong();
        }
        assertEquals(o.get("bytes").asLong(), stages, "untied: the stages hold the model once");
        assertFalse(o.get("mtpCounted").asBoolean());
        assertTrue(o.get("mtpParameters").asLong() > 11e9);
    }

    @Test
    void theSumNamesRedundantExpertsAmongTheCopies() {
        // 8 EPLB copies a layer are bytes held twice: the sum's list of what is held more than once left them out
        var r = CliTestSupport.run("model", model("qwen3-30b-a3b.json"), "--tp", "4", "--dp", "2", "--ep", "8",
                "--redundant-experts", "8");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().lines().anyMatch(l -> l.startsWith("  sum ") && l.contains("EPLB's 8 redundant experts a layer")),
                r.out());
        var none = CliTestSupport.run("model", model("qwen3-30b-a3b.json"), "--tp", "4");
        assertTrue(none.out().lines().noneMatch(l -> l.contains("EPLB")), none.out());
    }

    @Test
    void textNamesTheMtpLayersLeftOut() {
        var r = CliTestSupport.run("model", model("deepseek-v3.json"));
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("671,026,419,200"), r.out());
        assertTrue(r.out().contains("--mtp counts them"), r.out());
    }

    @Test
    void badInputIsExitTwoWithAMessageNamingTheField() throws Exception {
        Path f = dir.resolve("config.json");
        Files.writeString(f, "{\"architectures\": [\"Qwen3ForCausalLM\"], \"torch_dtype\": \"bfloat16\"}");
        var r = CliTestSupport.run("model", f.toString());
        assertEquals(2, r.code());
        assertTrue(r.err().startsWith("rdmasim: error: ") && r.err().contains("config.json")
                && r.err().contains("hidden_size"), r.err());
        assertFalse(r.err().contains("\tat "), "no stack trace");
        var ep = CliTestSupport.run("model", model("qwen3-235b-a22b.json"), "--tp", "4", "--ep", "6");
        assertEquals(2, ep.code());
        assertTrue(ep.err().contains("TP x DP"), ep.err());
        var tp = CliTestSupport.run("model", model("deepseek-v3.json"), "--tp", "32");
        assertEquals(2, tp.code());
        assertTrue(tp.err().contains("block"), tp.err());
    }

    @Test
    void aFieldRefusedIsNamedWithItsFileLineAndColumn() throws Exception {
        // the field's value is on line 3, column 68: the message points there, as a scenario's does
        Path f = dir.resolve("config.json");
        Files.writeString(f, """
                {
                  "architectures": ["Qwen3ForCausalLM"], "torch_dtype": "bfloat16",
                  "hidden_size": 8, "num_hidden_layers": 1, "num_attention_heads": "many"
                }
                """);
        var r = CliTestSupport.run("model", f.toString());
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().startsWith("rdmasim: error: " + f + ":3:68: num_attention_heads: "), r.err());
        // a tensor list: the bad entry's own line
        Path list = dir.resolve("list.json");
        Files.writeString(list, """
                {"tensors": [
                  {"name": "a", "shape": [2], "dtype": "bf16", "role": "replicated"},
                  {"name": "b", "shape": [2, 0], "dtype": "bf16", "role": "replicated"}
                ]}
                """);
        var t = CliTestSupport.run("model", list.toString());
        assertEquals(2, t.code(), t.err());
        assertTrue(t.err().startsWith("rdmasim: error: " + list + ":3:"), t.err());
        assertTrue(t.err().contains("tensors[1].shape: 0 is not a positive integer"), t.err());
    }

    @Test
    void aFolderGivenAsTheModelIsRefusedNamingIt() {
        var r = CliTestSupport.run("model", dir.toString());
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().startsWith("rdmasim: error: " + dir + ": is a folder, not a model file"), r.err());
        assertFalse(r.err().contains("I/O error"), r.err());
    }

    @org.junit.jupiter.api.Test
    void helpNamesEveryFamilyTheReaderAccepts() {
        String help = CliTestSupport.run("model", "--help").out();
        // ModelConfig.KNOWN: LlamaForCausalLM, MistralForCausalLM, ... (Glm4Moe is GLM-4.5)
        for (String family : new String[] {"Llama", "Mistral", "Qwen2", "DeepSeek-V2", "Kimi-K2", "GLM-4.5"}) {
            org.junit.jupiter.api.Assertions.assertTrue(help.contains(family), family + " in:\n" + help);
        }
    }
}
