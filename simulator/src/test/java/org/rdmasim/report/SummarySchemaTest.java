package org.rdmasim.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Every committed summary.json follows the published schema of its version, and the schema can fail. */
class SummarySchemaTest {
    private static Schema schema() throws Exception {
        try (InputStream in = SummaryJson.class.getResourceAsStream("/schema/summary.schema.json")) {
            return SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12).getSchema(in);
        }
    }

    @Test
    void everyCommittedSummaryFollowsTheSchema() throws Exception {
        Schema schema = schema();
        List<Path> summaries;
        try (Stream<Path> s = Files.list(Path.of(System.getProperty("rdmasim.repo", "..")).resolve("reports"))) {
            summaries = s.map(p -> p.resolve("summary.json")).filter(Files::isRegularFile).sorted().toList();
        }
        assertTrue(summaries.size() >= 10, "reports: " + summaries);
        ObjectMapper m = new ObjectMapper();
        for (Path p : summaries) {
            JsonNode json = m.readTree(p.toFile());
            assertEquals(List.of(), schema.validate(json), p.toString());
            assertEquals(SummaryJson.SCHEMA_VERSION, json.get("schemaVersion").asInt(), p.toString());
        }
    }

    @Test
    void everyCommittedRegistrationIsTheSumOfItsMemMapAndFirstUseParts() throws Exception {
        List<Path> summaries;
        try (Stream<Path> s = Files.list(Path.of(System.getProperty("rdmasim.repo", "..")).resolve("reports"))) {
            summaries = s.map(p -> p.resolve("summary.json")).filter(Files::isRegularFile).sorted().toList();
        }
        ObjectMapper m = new ObjectMapper();
        int variants = 0;
        for (Path p : summaries) {
            for (JsonNode v : m.readTree(p.toFile()).get("variants")) {
                JsonNode reg = v.get("registration");
                JsonNode memMap = reg.get("ucpMemMap");
                JsonNode firstUse = reg.get("firstLaneUse");
                String where = p + " " + v.get("name").asText();
                for (String f : List.of("mrCount", "translationBytes", "pinnedHostBytes", "firmwareBytes")) {
                    assertEquals(reg.get(f).asLong(), memMap.get(f).asLong() + firstUse.get(f).asLong(), where + " " + f);
                }
                double total = reg.get("registrationSeconds").asDouble();
                double parts = memMap.get("registrationSeconds").asDouble() + firstUse.get("registrationSeconds").asDouble();
                if (firstUse.get("mrCount").asLong() == 0) {
                    assertEquals(total, parts, 0.0, where); // nothing at first use: ucp_mem_map's is the total, bit for bit
                } else {
                    assertEquals(total, parts, 1e-12 * total, where); // summed in another order
                }
                variants++;
            }
        }
        assertTrue(variants >= 30, "variants checked: " + variants);
    }

    @Test
    void theSchemaAndTheReadmeSayTheRegistrationRuleAsTheCodeDoes() throws Exception {
        // the rule's one home is RegistrationTotals.RULE; the two documents quote it, line breaks aside
        String rule = org.rdmasim.memory.RegistrationTotals.RULE;
        JsonNode registration;
        try (InputStream in = SummaryJson.class.getResourceAsStream("/schema/summary.schema.json")) {
            registration = new ObjectMapper().readTree(in).at("/$defs/variant/properties/registration/properties");
        }
        assertTrue(registration.at("/registrationWallSeconds/description").asText().contains(rule),
                registration.toString());
        String readme = Files.readString(Path.of(System.getProperty("rdmasim.repo", "..")).resolve("README.md"))
                .replaceAll("\\s+", " ");
        assertTrue(readme.contains(rule), "README.md does not quote RegistrationTotals.RULE");
        // the sum and a fan-out cycle's wall share a name: each description says which it is
        assertTrue(registration.at("/registrationSeconds/description").asText().startsWith("The sum"));
        JsonNode cycle;
        try (InputStream in = SummaryJson.class.getResourceAsStream("/schema/summary.schema.json")) {
            cycle = new ObjectMapper().readTree(in).at("/$defs/variant/properties/cycles/items/properties");
        }
        assertTrue(cycle.at("/registrationSeconds/description").asText().startsWith("The cycle's registration wall"),
                cycle.toString());
    }

    @Test
    void aWhatIfVariantFollowsTheSchemaAndAWhatIfWithoutItsWhyDoesNot() throws Exception {
        Schema schema = schema();
        var whatIf = new org.rdmasim.workload.WhatIf(List.of(new org.rdmasim.workload.WhatIf.Moved(List.of("dst"),
                "generic", "gb200-roce")));
        // through a file, as every reader gets it: the receivers are streamed, not held as nodes
        Path file = Files.createTempFile("summary", ".json");
        try {
            SummaryJson.write(file, SummaryJson.build("s", "", List.of(WhatIfAnswerTest.variant("v", 0.2, 0.1, whatIf)),
                    new Provenance("0", "ab", 1)));
            ObjectNode json = (ObjectNode) new ObjectMapper().readTree(file.toFile());
            assertEquals(List.of(), schema.validate(json));
            ObjectNode noWhy = json.deepCopy();
            ((ObjectNode) noWhy.get("variants").get(0).get("whatIf")).remove("why");
            assertFalse(schema.validate(noWhy).isEmpty());
            ObjectNode noHosts = json.deepCopy();
            ((ObjectNode) noHosts.get("variants").get(0).get("whatIf")).putArray("onOtherProfile");
            assertFalse(schema.validate(noHosts).isEmpty(), "a what-if names at least one host on another profile");
        } finally {
            Files.deleteIfExists(file);
        }
    }

    @Test
    void aSummaryMissingAContractFieldOrOfTheWrongVersionFails() throws Exception {
        Schema schema = schema();
        ObjectMapper m = new ObjectMapper();
        ObjectNode ok = (ObjectNode) m.readTree("""
                {"schemaVersion": 1, "scenario": "s", "description": "", "provenance": {"rdmasimVersion": "0",
                 "scenarioSha256": "x", "seed": 1}, "variants": []}""");
        assertEquals(List.of(), schema.validate(ok));
        ObjectNode noVariants = ok.deepCopy();
        noVariants.remove("variants");
        assertFalse(schema.validate(noVariants).isEmpty());
        ObjectNode otherVersion = ok.deepCopy();
        otherVersion.put("schemaVersion", 2);
        assertFalse(schema.validate(otherVersion).isEmpty());
        // a registration part missing a field, or with one of its own, fails
        ObjectNode committed = (ObjectNode) m.readTree(Path.of(System.getProperty("rdmasim.repo", ".."))
                .resolve("reports/dgx-h100-nic-pin-vs-stripe/summary.json").toFile());
        assertEquals(List.of(), schema.validate(committed));
        ObjectNode noSeconds = committed.deepCopy();
        ((ObjectNode) noSeconds.at("/variants/0/registration/firstLaneUse")).remove("registrationSeconds");
        assertFalse(schema.validate(noSeconds).isEmpty());
        ObjectNode wall = committed.deepCopy();
        ((ObjectNode) wall.at("/variants/0/registration/ucpMemMap")).put("registrationWallSeconds", 1.0);
        assertFalse(schema.validate(wall).isEmpty(), "a part has no wall");
        ObjectNode badVariant = ok.deepCopy();
        badVariant.putArray("variants").addObject().put("name", "v").put("status", "maybe");
        assertFalse(schema.validate(badVariant).isEmpty());
    }
}
