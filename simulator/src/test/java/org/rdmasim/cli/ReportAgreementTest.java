package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.rdmasim.report.SummaryJson;

/**
 * summary.json, compare and the page say the same registration and first-use figures for the committed reports:
 * each is written by its own code, so a field documented one way and computed another shows up here.
 */
class ReportAgreementTest {
    private static List<Path> summaries() throws IOException {
        try (Stream<Path> dirs = Files.list(CliTestSupport.repo().resolve("reports"))) {
            return dirs.map(d -> d.resolve("summary.json")).filter(Files::isRegularFile).sorted().toList();
        }
    }

    @Test
    void firstUseIsTheRegistrationWallPlusTheSlowestPullInEveryCommittedReport() throws IOException {
        int checked = 0;
        for (Path f : summaries()) {
            for (JsonNode v : SummaryJson.mapper().readTree(f.toFile()).get("variants")) {
                if (!v.path("status").asText().equals("ok") || v.path("receivers").isEmpty()) {
                    continue;
                }
                double slowest = 0;
                for (JsonNode r : v.get("receivers")) {
                    slowest = Math.max(slowest, r.get("pullSeconds").asDouble());
                }
                double wall = v.get("registration").get("registrationWallSeconds").asDouble();
                double sum = v.get("registration").get("registrationSeconds").asDouble();
                double firstUse = v.get("firstUseSeconds").asDouble();
                String at = f.getParent().getFileName() + "/" + v.get("name").asText();
                assertEquals(wall + slowest, firstUse, 1e-12 * firstUse, at);
                assertTrue(wall <= sum * (1 + 1e-12), at + ": the wall " + wall + " above the sum " + sum);
                checked++;
            }
        }
        assertTrue(checked >= 40, "variants checked: " + checked);
    }

    @Test
    void aFanOutsFirstCycleWaitsForExactlyTheVariantsRegistrationWall() throws IOException {
        // cycles[].registrationSeconds is a cycle's wall, registration.registrationSeconds the sum: the first
        // cycle's is the variant's wall, to the bit; with many hosts the sum is more
        int checked = 0;
        for (Path f : summaries()) {
            for (JsonNode v : SummaryJson.mapper().readTree(f.toFile()).get("variants")) {
                if (!v.path("status").asText().equals("ok") || v.path("cycles").isEmpty()) {
                    continue;
                }
                String at = f.getParent().getFileName() + "/" + v.get("name").asText();
                double wall = v.get("registration").get("registrationWallSeconds").asDouble();
                double sum = v.get("registration").get("registrationSeconds").asDouble();
                assertEquals(wall, v.get("cycles").get(0).get("registrationSeconds").asDouble(), 0.0, at);
                assertTrue(sum > wall, at + ": sum " + sum + ", wall " + wall);
                for (JsonNode c : v.get("cycles")) {
                    assertTrue(c.get("registrationSeconds").asDouble() <= wall, at + " cycle " + c.get("index"));
                }
                checked++;
            }
        }
        assertTrue(checked >= 9, "fan-out variants checked: " + checked);
    }

    @Test
    void thePagesWallColumnIsWhatItsNoteSaysForFanOutsAndForTransferLists() throws IOException {
        // a fan-out's wall is its first cycle's metadata + registration wall + pull makespan, which receivers
        // arriving over time make longer than registration wall + slowest pull; a list of transfers' is the latter
        int fanOuts = 0;
        int lists = 0;
        for (Path f : summaries()) {
            String page = Files.readString(f.getParent().resolve("index.html"));
            assertTrue(page.contains(org.rdmasim.report.ReportWriter.WALL_RULE), f + ": the note under the table");
            int head = page.indexOf("<th class=\"num\">wall (s)</th>");
            String table = page.substring(head, page.indexOf("</table>", head));
            for (JsonNode v : SummaryJson.mapper().readTree(f.toFile()).get("variants")) {
                if (!v.path("status").asText().equals("ok") || v.path("receivers").isEmpty() || v.has("refit")) {
                    continue;
                }
                String name = v.get("name").asText();
                String at = f.getParent().getFileName() + "/" + name;
                java.util.regex.Matcher row = java.util.regex.Pattern.compile("<tr><td class=\"name\">"
                        + java.util.regex.Pattern.quote(name) + "(?: <b>[^<]*</b>)*</td>(.*?)</tr>").matcher(table);
                assertTrue(row.find(), at + ": no row");
                List<String> cells = java.util.regex.Pattern.compile("<td[^>]*>(.*?)</td>").matcher(row.group(1)).results()
                        .map(m -> m.group(1)).toList();
                double wall = Double.parseDouble(cells.get(8));
                double expected;
                if (!v.path("cycles").isEmpty()) {
                    JsonNode c = v.get("cycles").get(0);
                    expected = c.get("metadataSeconds").asDouble() + c.get("registrationSeconds").asDouble()
                            + c.get("pullMakespanSeconds").asDouble();
                    assertEquals(c.get("wallSeconds").asDouble(), expected, 1e-9 * expected, at);
                    assertTrue(expected >= v.get("firstUseSeconds").asDouble() * (1 - 1e-12), at + ": the makespan is at least the slowest pull");
                    fanOuts++;
                } else {
                    expected = v.get("firstUseSeconds").asDouble();
                    lists++;
                }
                // the page prints 4 significant digits
                assertEquals(expected, wall, 5e-4 * expected, at + ": page " + wall + ", expected " + expected);
            }
        }
        assertTrue(fanOuts >= 9 && lists >= 20, "fan-outs " + fanOuts + ", transfer lists " + lists);
    }

    @Test
    void compareShowsTheSummarysFirstUseAndRegistrationFigures() throws IOException {
        Path dir = CliTestSupport.repo().resolve("reports/seed003-nic-pin-vs-stripe");
        CliTestSupport.Outcome o = CliTestSupport.run("compare", dir.toString(), "--variant", "gb200-mx-pin-auto",
                "--variant", "gb200-stripe-4-rails", "--json");
        assertEquals(0, o.code(), o.err());
        JsonNode rows = SummaryJson.mapper().readTree(o.out()).get("pairs").get(0).get("rows");
        JsonNode summary = SummaryJson.mapper().readTree(dir.resolve("summary.json").toFile()).get("variants");
        for (String side : List.of("a", "b")) {
            String name = side.equals("a") ? "gb200-mx-pin-auto" : "gb200-stripe-4-rails";
            JsonNode v = null;
            for (JsonNode x : summary) {
                if (x.get("name").asText().equals(name)) {
                    v = x;
                }
            }
            assertEquals(v.get("firstUseSeconds").asDouble(), row(rows, "to first use (s)").get(side).asDouble(), 0.0);
            assertEquals(v.get("registration").get("registrationWallSeconds").asDouble(),
                    row(rows, "registration wall (s)").get(side).asDouble(), 0.0);
            assertEquals(v.get("registration").get("registrationSeconds").asDouble(),
                    row(rows, "registration sum (s)").get(side).asDouble(), 0.0);
        }
    }

    @Test
    void aWhatIfInSummaryJsonIsStatedApartOnThePageAndNeverRanked() throws IOException {
        // summary.json and the page each ask the audit whether a variant is a what-if: they must agree
        int checked = 0;
        for (Path f : summaries()) {
            String page = Files.readString(f.getParent().resolve("index.html"));
            String answer = page.substring(page.indexOf("<h2>Answer</h2>"), page.indexOf("</div>", page.indexOf("<h2>Answer</h2>")));
            for (JsonNode v : SummaryJson.mapper().readTree(f.toFile()).get("variants")) {
                String name = v.get("name").asText();
                String at = f.getParent().getFileName() + "/" + name;
                boolean whatIf = v.has("whatIf");
                assertEquals(whatIf, answer.contains("<b>What-if, not ranked: " + name + "</b>")
                        || answer.contains("Every variant here is a what-if"), at);
                assertEquals(whatIf, page.contains(name + " <b>(what-if: see the answer)</b>"), at);
                if (whatIf) {
                    for (String ranked : List.of("Fastest: ", "Slowest: ", "): ", "the first to use its data would be ")) {
                        assertTrue(!answer.contains(ranked + name + "<") && !answer.contains(ranked + name + ":")
                                && !answer.contains(ranked + name + " "), at + " is ranked: " + ranked);
                    }
                    checked++;
                }
            }
        }
        assertTrue(checked >= 1, "what-if variants checked: " + checked);
    }

    @Test
    void runsTableAndCompareMarkExactlyTheWhatIfsSummaryJsonCarries(@org.junit.jupiter.api.io.TempDir Path tmp)
            throws IOException {
        int whatIfs = 0;
        for (Path f : summaries()) {
            JsonNode variants = SummaryJson.mapper().readTree(f.toFile()).get("variants");
            if (variants.size() < 2) {
                continue;
            }
            String first = variants.get(0).get("name").asText();
            for (JsonNode v : variants) {
                String name = v.get("name").asText();
                if (name.equals(first) || !v.path("status").asText().equals("ok") || !variants.get(0).path("status").asText().equals("ok")
                        || v.has("refit") != variants.get(0).has("refit")) {
                    continue;
                }
                var o = CliTestSupport.run("compare", f.getParent().toString(), "--variant", first, "--variant", name);
                assertEquals(0, o.code(), o.err());
                String head = o.out().lines().findFirst().orElse("");
                String at = f.getParent().getFileName() + "/" + name;
                assertEquals(v.has("whatIf"), head.contains(name + " (what-if)"), at + ": " + head);
                assertEquals(variants.get(0).has("whatIf"), head.contains(first + " (what-if)"), at + ": " + head);
                whatIfs += v.has("whatIf") ? 1 : 0;
            }
        }
        assertTrue(whatIfs >= 1, "what-ifs compared: " + whatIfs);
        // run's table, for the scenario whose committed report holds a what-if
        Path scenario = CliTestSupport.repo().resolve("scenarios/seed003-nic-pin-vs-stripe.yaml");
        var run = CliTestSupport.run("run", scenario.toString(), "--out", tmp.resolve("r").toString(), "--skip-without");
        assertEquals(0, run.code(), run.err());
        int marked = 0;
        for (JsonNode v : SummaryJson.mapper().readTree(tmp.resolve("r/summary.json").toFile()).get("variants")) {
            String name = v.get("name").asText();
            boolean row = run.out().lines().anyMatch(l -> l.startsWith("  " + name + " (what-if) "));
            assertEquals(v.has("whatIf"), row, name + " in:\n" + run.out());
            marked += row ? 1 : 0;
        }
        assertTrue(marked >= 1, "what-if rows in run's table: " + marked);
    }

    @Test
    void theFanOutsAnswerSaysItsHeadlineRestsOnTheAssumedReadPlacement() throws IOException {
        String page = Files.readString(CliTestSupport.repo().resolve("reports/fanout-256-pin-vs-stripe-vs-tree/index.html"));
        String answer = page.substring(page.indexOf("<h2>Answer</h2>"), page.indexOf("</div>", page.indexOf("<h2>Answer</h2>")));
        assertTrue(answer.contains("stripe-tree-2's 1.324 s rests on an assumed parameter"), answer);
        assertTrue(answer.contains("nicReadAtResponder = 0 (0: the NIC that issues the READ holds the rate; 1: the NIC that answers it), assumed. Rerun without it"), answer);
        assertTrue(answer.contains("27% longer."), answer);
    }

    @Test
    void theReadmesFastestQuestionQuotesTheFanOutsAnswerAsThePageSaysIt() throws IOException {
        // README "Scenarios", question: fastest: the tree fan-out's figures without nicReadAtResponder and under
        // the other UCX install are quoted from reports/fanout-256-pin-vs-stripe-vs-tree/index.html
        String page = Files.readString(CliTestSupport.repo().resolve("reports/fanout-256-pin-vs-stripe-vs-tree/index.html"));
        String answer = page.substring(page.indexOf("<h2>Answer</h2>"), page.indexOf("</div>", page.indexOf("<h2>Answer</h2>")))
                .replaceAll("<[^>]+>", "").replaceAll("\\s+", " ");
        java.util.regex.Matcher without = java.util.regex.Pattern.compile(
                "slowest pull: stripe-tree-2 ([0-9.]+) s \\([^)]*; ([0-9.]+) s with it\\), ([0-9]+)% longer").matcher(answer);
        assertTrue(without.find(), answer);
        java.util.regex.Matcher prefix = java.util.regex.Pattern.compile(
                "under ucxInstall: prefix \\(ucx.conf read\\) it takes ([0-9.]+) s, ([0-9]+)% shorter").matcher(answer);
        assertTrue(prefix.find(), answer);
        String readme = Files.readString(CliTestSupport.repo().resolve("README.md")).replaceAll("\\s+", " ");
        String withIt = String.format(java.util.Locale.ROOT, "%.3f", Double.parseDouble(without.group(2)));
        String withoutIt = String.format(java.util.Locale.ROOT, "%.3f", Double.parseDouble(without.group(1)));
        String stated = "tree fan-out, " + withIt + " s, is " + withoutIt + " s, " + without.group(3) + "% longer, without";
        assertTrue(readme.contains(stated), "README should state: " + stated);
        String install = "the same tree fan-out takes " + prefix.group(1) + " s, " + prefix.group(2) + "% shorter, under";
        assertTrue(readme.contains(install), "README should state: " + install);
    }

    @Test
    void theReadmesSizePlateauExampleIsTheCommittedP99() throws IOException {
        // the size row's example 'p99 stays at X s from rails = 2 to 8' is sizing-1024-receivers' direct-from-2
        // (UCX_MAX_RMA_RAILS=4, inside the plateau) searched by rails: its p99 is the committed report's
        JsonNode v = SummaryJson.mapper().readTree(CliTestSupport.repo()
                .resolve("reports/sizing-1024-receivers/summary.json").toFile()).get("variants").get(0);
        assertEquals("direct-from-2", v.get("name").asText());
        String p99 = String.format(java.util.Locale.ROOT, "%.4f",
                v.get("replicationStats").get("pooledP99PullSeconds").asDouble());
        String readme = Files.readString(CliTestSupport.repo().resolve("README.md"));
        String stated = "`p99 stays at " + p99 + " s from rails = 2 to 8: above 2 this knob does not move it";
        assertTrue(readme.contains(stated), "README should state: " + stated);
    }

    private static JsonNode row(JsonNode rows, String what) {
        for (JsonNode r : rows) {
            if (r.get("what").asText().equals(what)) {
                return r;
            }
        }
        throw new AssertionError("no row '" + what + "' in " + rows);
    }
}
