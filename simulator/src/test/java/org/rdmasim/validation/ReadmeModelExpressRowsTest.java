package org.rdmasim.validation;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * A reader reproducing ModelExpress #449's 308 Gbps pull against PR #450's striped figures finds each row in
 * README.md's multi-NIC table by its id, with the committed table's (reports/validation) published and modelled
 * figures, and, where a passing multi-NIC row depends on how UCX was installed, the answer had UCX read its
 * ucx.conf as the row's note gives it.
 */
class ReadmeModelExpressRowsTest {
    private static final Pattern PREFIX = Pattern.compile("had UCX read its ucx.conf \\(installed into a prefix\\): "
            + "([0-9.]+) ");

    private static Path repo() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("simulator/SOURCES.md")) && Files.isDirectory(p.resolve("scenarios"))) {
                return p;
            }
        }
        throw new IllegalStateException("no repository root");
    }

    /** A figure as the README writes it: whole from 100 up (1232), else three significant digits (0.1039 is "0.104"). */
    private static String shown(double v) {
        if (v >= 100) {
            return Long.toString(Math.round(v));
        }
        return new BigDecimal(v).round(new MathContext(3)).stripTrailingZeros().toPlainString();
    }

    @Test
    void theSingleNicCalibrationAndPr450RowsAreFoundWithTheirFigures() throws IOException {
        Path root = repo();
        JsonNode doc = new ObjectMapper().readTree(root.resolve("reports/validation/validation.json").toFile());
        Map<String, JsonNode> rows = new HashMap<>();
        doc.get("rows").forEach(r -> rows.put(r.get("id").asText(), r));
        List<String> table = Files.readAllLines(root.resolve("README.md")).stream()
                .filter(l -> l.startsWith("| MX-449-") || l.startsWith("| MX-450-"))
                .filter(l -> l.split("\\|").length == 6) // the multi-NIC table: row, NICs, published, modelled, verdict
                .toList();
        assertTrue(table.stream().anyMatch(l -> l.startsWith("| MX-449-PIN |")),
                "the 308 Gbps single-NIC row, by its id, is in the table");
        for (String line : table) {
            String[] cells = line.split("\\|");
            String id = cells[1].trim().split(",")[0].trim();
            JsonNode row = rows.get(id);
            assertNotNull(row, "README names a row validate does not have: " + id);
            String published = cells[3];
            String modelled = cells[4];
            JsonNode pub = row.get("published");
            if (pub.isNumber()) {
                assertTrue(published.contains(shown(pub.asDouble())), id + ": published " + pub + " in " + line);
            }
            assertTrue(modelled.contains(shown(row.get("modelled").asDouble())),
                    id + ": modelled " + row.get("modelled") + " in " + line);
            Matcher m = PREFIX.matcher(row.get("note").asText());
            if (modelled.contains("ucx.conf")) {
                assertTrue(m.find(), id + ": the README gives a ucx.conf answer the row's note does not have");
                assertTrue(modelled.contains("with `ucx.conf`: " + shown(Double.parseDouble(m.group(1)))),
                        id + ": ucx.conf answer " + m.group(1) + " in " + line);
            } else if (row.get("pass").asBoolean() && row.get("nics").asInt() >= 2) {
                assertFalse(m.find(), id + ": a passing multi-NIC row whose answer depends on the install must give "
                        + "the other install's figure: " + line);
            }
        }
    }
}
