package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.rdmasim.transport.citation.Citation;

/**
 * Every citation of code {@code explain} prints ("source: ...", the candidate tables' "distance:" and "paths, path
 * ratio:", each lane verdict's) is a citation object of {@code explain --json}, whose fields say what its text says;
 * the NCCL table, the write-order lines, the path-ratio column and the configuration table are in the JSON as in the
 * text; the JSON follows its schema and is the same, byte for byte, run after run.
 */
class ExplainCitationsTest {
    /** A citation in the text: REPO TAG FILE:LINE[-LAST] [SYMBOL], where the symbol is one word. */
    private static final Pattern CITATION = Pattern.compile(
            "\\b(?:openucx|ai-dynamo|NVIDIA)/[\\w.-]+ \\S+ [^\\s:]+:\\d+(?:-\\d+)?(?: [A-Za-z_][\\w:]*)?(?: \\[[^\\]]+\\])?");
    /** What follows "source: " up to the end of the line, or up to a footnote's closing parenthesis. */
    private static final Pattern SOURCE = Pattern.compile("source: ([^)]+?)\\)?$");

    private static com.networknt.schema.Schema schema() throws Exception {
        try (InputStream in = ExplainJson.class.getResourceAsStream("/schema/explain.schema.json")) {
            return SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12).getSchema(in);
        }
    }

    /** Every citation object in {@code node}: an object with repo, tag, file and line. */
    private static void citations(JsonNode node, List<JsonNode> into) {
        if (node.isObject() && node.has("repo") && node.has("tag") && node.has("file") && node.has("line")) {
            into.add(node);
        }
        node.forEach(child -> citations(child, into));
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({
        // GB200 with ModelExpress's stripe mode (its RMA rails) and NIXL's overrides: notes of all three layers
        "scenarios/seed003-nic-pin-vs-stripe.yaml, gb200-all-layers, 6",
        // DGX H100 through UCX's choice: PIX/NODE/SYS candidates, the ratio filter, lanes over the rail limit
        "scenarios/seed003-nic-pin-vs-stripe.yaml, dgx-all-layers, 6",
        // DGX H100 with lanes given: no UCX decision, the write order and NCCL's table only
        "scenarios/dgx-h100-nic-pin-vs-stripe.yaml, four-lanes, 2",
        // strict PCIe order and the NCCL table of a B200 host
        "scenarios/relaxed-ordering-b200.yaml, nixl-try, 4",
        // NIXL's libfabric backend over EFA: its decisions as notes, its NIXL citations in the same form
        "scenarios/p5-efa-striping.yaml, one-gpu-four-efa-small-descriptors, 3",
    })
    void everyCitationInTheTextIsACitationObjectInTheJson(String file, String variant, int leastSources)
            throws Exception {
        String scenario = CliTestSupport.repo().resolve(file).toString();
        var text = CliTestSupport.run("explain", scenario, "--variant", variant);
        var json = CliTestSupport.run("explain", scenario, "--variant", variant, "--json");
        assertEquals(0, text.code(), text.err());
        assertEquals(0, json.code(), json.err());
        JsonNode j = new ObjectMapper().readTree(json.out());
        assertEquals(List.of(), schema().validate(j));

        // each citation object's fields are its text, read the one way citations are read
        List<JsonNode> objects = new ArrayList<>();
        citations(j, objects);
        Set<String> inJson = new LinkedHashSet<>();
        for (JsonNode c : objects) {
            Citation parsed = Citation.parse(c.get("text").asText());
            assertEquals(parsed.repo(), c.get("repo").asText(), c.toString());
            assertEquals(parsed.tag(), c.get("tag").asText(), c.toString());
            assertEquals(parsed.file(), c.get("file").asText(), c.toString());
            assertEquals(parsed.line(), c.get("line").asInt(), c.toString());
            assertEquals(parsed.lastLine(), c.get("lastLine").asInt(), c.toString());
            assertEquals(parsed.symbol(), c.has("symbol") ? c.get("symbol").asText() : "", c.toString());
            assertTrue(c.get("line").asInt() <= c.get("lastLine").asInt(), c.toString());
            inJson.add(c.get("text").asText());
        }

        // every "source:" the text prints, and every other citation of code in it, is one of them
        Set<String> sources = new LinkedHashSet<>();
        Set<String> cited = new LinkedHashSet<>();
        for (String line : text.out().lines().toList()) {
            int at = line.lastIndexOf("source: ");
            if (at >= 0 && !line.startsWith("rests on (")) { // a parameter's "source" is a measurement, not code
                Matcher m = SOURCE.matcher(line.substring(at));
                assertTrue(m.find(), line);
                Citation.parseAll(m.group(1)).forEach(c -> sources.add(c.text()));
            }
            Matcher m = CITATION.matcher(line);
            while (m.find()) {
                cited.add(m.group());
            }
        }
        assertTrue(sources.size() >= leastSources, sources + "\n" + text.out());
        Set<String> missing = new LinkedHashSet<>(sources);
        missing.removeAll(inJson);
        assertEquals(Set.of(), missing, "'source:' of the text with no citation object in the JSON");
        missing = new LinkedHashSet<>(cited);
        missing.removeAll(inJson);
        assertEquals(Set.of(), missing, "citations of the text with no citation object in the JSON");

        JsonNode t = j.get("variants").get(0).get("transfers").get(0);
        if (t.has("backendNotes")) {
            // a backend other than UCX's: its notes are the text's lines, in order
            List<String> lines = new ArrayList<>();
            t.get("backendNotes").forEach(n -> lines.add(n.get("text").asText()));
            List<String> printed = text.out().lines().toList();
            int from = printed.indexOf(lines.get(0));
            assertTrue(from >= 0, lines.get(0));
            assertEquals(lines, printed.subList(from, from + lines.size()));
            assertFalse(t.has("decision"), t.toString());
            assertEquals(json.out(), CliTestSupport.run("explain", scenario, "--variant", variant, "--json").out());
            return;
        }
        // the lines that were text only: write order, NCCL table, path ratio, the configuration table
        List<String> writes = text.out().lines().filter(l -> l.startsWith("writes by ")).toList();
        List<String> jsonWrites = new ArrayList<>();
        t.get("writeOrder").forEach(w -> jsonWrites.add(w.get("text").asText()));
        assertEquals(writes, jsonWrites);
        assertFalse(writes.isEmpty(), text.out());
        JsonNode nccl = t.get("ncclGdr");
        assertTrue(text.out().contains("NCCL " + nccl.get("release").asText() + " GPUDirect RDMA from "
                + nccl.get("initiator").asText() + " ("), text.out());
        for (JsonNode r : nccl.get("nics")) {
            assertTrue(text.out().contains(String.format(Locale.ROOT, "    %-9s %-8s %s%n", r.get("nic").asText(),
                    r.get("topo").asText(), r.get("words").asText())), r.toString());
            assertEquals(r.get("words").asText().endsWith(": GPUDirect RDMA"), r.get("gpuDirect").asBoolean());
        }
        JsonNode decision = t.get("decision");
        assertEquals(t.get("lanesGiven").asBoolean(), decision == null, t.toString());
        if (decision == null) {
            assertFalse(text.out().contains("candidate HCAs"), text.out());
            assertEquals(json.out(), CliTestSupport.run("explain", scenario, "--variant", variant, "--json").out());
            return;
        }
        // the candidate table's own citations are among them, and the shortened second one of the paths line too
        // (cited at the release the variant names: UCX 1.20.0 in every case above)
        org.rdmasim.transport.config.StackVersion ucx = new org.rdmasim.transport.config.StackVersion(1, 20, 0);
        assertTrue(cited.contains(org.rdmasim.transport.ucx.UcxTopoDistance.source(ucx).text()), text.out());
        org.rdmasim.transport.ucx.UcxPaths.sources(ucx).forEach(c -> assertTrue(inJson.contains(c.text()), c.text()));
        for (JsonNode c : decision.get("initiatorCandidates")) {
            assertTrue(text.out().lines().anyMatch(l -> l.startsWith("    " + c.get("nic").asText() + " ")
                    && l.endsWith(String.format(Locale.ROOT, " %11.3f", c.get("pathRatio").asDouble()))), c.toString());
        }
        for (JsonNode v : decision.get("configuration").get("values")) {
            assertTrue(text.out().lines().anyMatch(l -> l.matches("  " + Pattern.quote(v.get("name").asText()) + " +"
                    + Pattern.quote(v.get("value").asText()) + " +" + v.get("layer").asText())), v.toString());
        }
        List<String> notes = new ArrayList<>();
        decision.get("configuration").get("notes").forEach(n -> notes.add("  note: " + n.get("text").asText()));
        assertEquals(text.out().lines().filter(l -> l.startsWith("  note: ")).toList(), notes);

        // the same JSON, byte for byte, from a second run
        assertEquals(json.out(), CliTestSupport.run("explain", scenario, "--variant", variant, "--json").out());
    }
}
