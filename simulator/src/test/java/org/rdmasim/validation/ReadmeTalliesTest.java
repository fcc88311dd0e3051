package org.rdmasim.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The tallies README.md states about the validation table are the committed table's (reports/validation), so a
 * change that moves a row cannot leave the README's counts behind: the whole table, the table without the refit
 * rows, the refit rows within 20%, and the refit misses by cause.
 */
class ReadmeTalliesTest {
    private static Path repo() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("simulator/SOURCES.md")) && Files.isDirectory(p.resolve("scenarios"))) {
                return p;
            }
        }
        throw new IllegalStateException("no repository root");
    }

    /** Rows counted as measurements: not calibration, not an expectation or a configuration, not set aside. */
    private static boolean counted(JsonNode r) {
        return r.get("counted").asBoolean() && !r.get("calibration").asBoolean()
                && r.get("evidence").asText().equals("measurement");
    }

    /** {count, passed, with two or more NICs, of those passed}. */
    private static int[] tally(List<JsonNode> rows) {
        int[] t = new int[4];
        for (JsonNode r : rows) {
            if (counted(r)) {
                boolean multi = r.get("nics").asInt() >= 2;
                boolean pass = r.get("pass").asBoolean();
                t[0]++;
                t[1] += pass ? 1 : 0;
                t[2] += multi ? 1 : 0;
                t[3] += multi && pass ? 1 : 0;
            }
        }
        return t;
    }

    private static Matcher find(String readme, String regex) {
        Matcher m = Pattern.compile(regex).matcher(readme);
        if (!m.find()) {
            throw new AssertionError("README.md has no sentence matching " + regex);
        }
        return m;
    }

    private static int n(Matcher m, int group) {
        return Integer.parseInt(m.group(group).replace(",", ""));
    }

    @Test
    void theReadmesCountsAreTheCommittedTables() throws IOException {
        Path root = repo();
        String readme = Files.readString(root.resolve("README.md")).replace('\n', ' ');
        JsonNode doc = new ObjectMapper().readTree(root.resolve("reports/validation/validation.json").toFile());
        List<JsonNode> rows = new ArrayList<>();
        doc.get("rows").forEach(rows::add);
        Set<String> refitIds = RefitRows.rows().stream().map(ValidationRow::id).collect(Collectors.toSet());
        List<JsonNode> refit = rows.stream().filter(r -> refitIds.contains(r.get("id").asText())).toList();
        List<JsonNode> rest = rows.stream().filter(r -> !refitIds.contains(r.get("id").asText())).toList();

        Matcher today = find(readme, "Today: (\\d+) rows; (\\d+) of (\\d+) counted measurements pass \\((\\d+) of (\\d+) "
                + "with two or more NICs\\)");
        int[] all = tally(rows);
        assertEquals(List.of(rows.size(), all[1], all[0], all[3], all[2]),
                List.of(n(today, 1), n(today, 2), n(today, 3), n(today, 4), n(today, 5)), "README 'Today:'");

        Matcher without = find(readme, "Without the refit rows +\\(below\\): (\\d+) rows, (\\d+) of (\\d+) counted "
                + "measurements pass \\((\\d+) of (\\d+) with two or more NICs\\)");
        int[] r = tally(rest);
        assertEquals(List.of(rest.size(), r[1], r[0], r[3], r[2]),
                List.of(n(without, 1), n(without, 2), n(without, 3), n(without, 4), n(without, 5)),
                "README 'Without the refit rows'");

        Matcher refitToday = find(readme, "Refit rows today: (\\d+) of (\\d+) counted measurements within 20%");
        int[] f = tally(refit);
        assertEquals(List.of(f[1], f[0]), List.of(n(refitToday, 1), n(refitToday, 2)), "README 'Refit rows today'");

        // the refit misses, each classified by RefitMiss in its known-failure text
        long misses = refit.stream().filter(x -> counted(x) && !x.get("pass").asBoolean()).count();
        long framework = refit.stream().filter(x -> counted(x) && !x.get("pass").asBoolean()
                && x.get("knownFailure").asText().startsWith("cause: framework overhead")).count();
        Matcher why = find(readme, "Why the (\\d+) counted misses miss");
        assertEquals(misses, n(why, 1), "README 'Why the N counted misses miss'");
        Matcher share = find(readme, "Framework overhead is (\\d+) of the (\\d+)");
        assertEquals(List.of((int) framework, (int) misses), List.of(n(share, 1), n(share, 2)),
                "README 'Framework overhead is N of the M'");
    }
}
