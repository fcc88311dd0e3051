package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rdmasim.transport.citation.Citation;
import org.rdmasim.transport.config.StackVersion;
import org.rdmasim.transport.ucx.LaneVerdict;
import org.rdmasim.transport.ucx.UcxPaths;
import org.rdmasim.transport.ucx.UcxTopoDistance;
import org.rdmasim.transport.ucx.WireupFastLanes;

/**
 * {@code explain} names, for each decision of ModelExpress, ucx.conf, NIXL and UCX's lane selection, the public code it
 * follows (repository, tag, file and line), once per decision; the JSON carries the same, and ModelExpress's pin is
 * cited with the same words as summary.json's override.
 */
class ExplainSourcesTest {
    @TempDir
    java.nio.file.Path dir;

    private static final String SCENARIO = CliTestSupport.repo().resolve("scenarios/seed003-nic-pin-vs-stripe.yaml")
            .toString();
    /** The UCX release every variant of {@link #SCENARIO} names. */
    private static final StackVersion UCX = new StackVersion(1, 20, 0);
    /** A citation as explain prints it: a repository, a tag or commit, then a file with its line(s). */
    private static final Pattern CITED = Pattern.compile(
            "; source: (ai-dynamo/(nixl|modelexpress)|openucx/ucx) \\S+ .*(:\\d+|L\\d+)");

    @Test
    void everyStackNoteAndLaneVerdictNamesItsSourceOnceAndTheJsonSaysTheSame() throws Exception {
        var text = CliTestSupport.run("explain", SCENARIO);
        assertEquals(0, text.code(), text.err());
        List<String> notes = new ArrayList<>();
        for (String l : text.out().lines().toList()) {
            if (l.startsWith("  note: ModelExpress") || l.startsWith("  note: NIXL") || l.startsWith("  note: ucx.conf")) {
                notes.add(l.substring("  note: ".length()));
                assertTrue(CITED.matcher(l).find(), l);
                assertEquals(l.indexOf("; source: "), l.lastIndexOf("; source: "), "one source per note: " + l);
            }
        }
        assertTrue(notes.stream().anyMatch(n -> n.startsWith("NIXL set UCX_MAX_RMA_RAILS=2; source: ")
                && n.contains("ai-dynamo/nixl v1.1.0 src/plugins/ucx/ucx_utils.cpp:422 ")), String.join("\n", notes));
        // a setting NIXL leaves at this release says when NIXL does set it; the citation is where
        assertTrue(notes.contains("NIXL 1.1.0 with UCX 1.20.0 does not set UCX_MAX_HCA_PER_GPU (set to auto from NIXL 1.2 "
                + "on UCX >= 1.21); source: ai-dynamo/nixl v1.2.0 src/plugins/ucx/ucx_utils.cpp:430-432 "
                + "nixlUcxContext::nixlUcxContext [as at v1.2.0; the release named is 1.1.0]"), String.join("\n", notes));

        // under each lane table, every verdict the table shows once with its code, and no verdict it does not show
        List<String> lines = text.out().lines().toList();
        int tables = 0;
        for (int i = 0; i < lines.size(); i++) {
            if (!lines.get(i).startsWith("  lanes (device, path)")) {
                continue;
            }
            tables++;
            Set<LaneVerdict> shown = new LinkedHashSet<>();
            int j = i + 2;
            for (; j < lines.size() && lines.get(j).matches("^    mlx5_\\d+ .*"); j++) {
                for (LaneVerdict v : LaneVerdict.values()) {
                    if (lines.get(j).endsWith("  " + v.words())) {
                        shown.add(v);
                    }
                }
            }
            List<String> sources = new ArrayList<>();
            for (; j < lines.size() && lines.get(j).startsWith("    ") && !lines.get(j).startsWith("    peer")
                    && !lines.get(j).startsWith("    wireup's") && lines.get(j).contains(": openucx/ucx "); j++) {
                sources.add(lines.get(j));
            }
            // then wireup's fast-lane filter, with the filter, the bandwidth it compares and the ratio's default
            assertTrue(j < lines.size() && lines.get(j).startsWith("    wireup's fast-lane filter ")
                    && lines.get(j).endsWith("; source: " + Citation.join(WireupFastLanes.sources(UCX))), lines.get(j));
            j++;
            // then the peer column's rule, UCX's wireup pairing, with the code it follows: the pairwise loop, the
            // best-pair comparison and the score
            assertTrue(j < lines.size() && lines.get(j).startsWith("    peer: ")
                    && lines.get(j).contains("; source: openucx/ucx v1.20.0 src/ucp/wireup/select.c:1748-1847 "
                            + "ucp_wireup_add_bw_lanes_pairwise")
                    && lines.get(j).contains("src/ucp/wireup/select.c:1373-1397 ucp_wireup_rma_bw_score_func"),
                    lines.get(j));
            // and what it takes as given, with the code that decides it at run time
            assertTrue(j + 1 < lines.size() && lines.get(j + 1).startsWith("    peer, ASSUMED: ")
                    && lines.get(j + 1).contains("UCX_SELECT_DISTANCE_MD=cuda_cpy")
                    && lines.get(j + 1).contains("src/ucp/core/ucp_worker.c:1213-1247 "
                            + "ucp_worker_iface_set_sys_device_distance"), lines.get(j + 1));
            assertEquals(shown.stream().map(v -> "    " + v.words() + ": " + v.source(UCX)).toList(), sources,
                    String.join("\n", lines.subList(i, j)));
        }
        assertTrue(tables > 5, text.out());
        // the candidates' distances and paths, once per candidate table
        assertEquals(tables, text.out().lines().filter(l -> l.equals("  distance: "
                + UcxTopoDistance.source(UCX) + " (UCX_DISTANCE_BW replaces it)")).count());
        assertEquals(tables, text.out().lines().filter(l -> l.equals("  paths, path ratio: "
                + UcxPaths.source(UCX))).count());
        assertTrue(text.out().contains("not wired: bandwidth x UCX_MULTI_LANE_MAX_RATIO below the best wired lane "
                + "(wireup's fast-lane filter): openucx/ucx v1.20.0 src/ucp/wireup/select.c:1704-1746 "
                + "ucp_wireup_add_fast_lanes_pairwise"), text.out());

        // the JSON's configuration notes are the text's, and each lane considered names the same source
        JsonNode j = new ObjectMapper().readTree(CliTestSupport.run("explain", SCENARIO, "--json").out());
        List<String> jsonNotes = new ArrayList<>();
        for (JsonNode v : j.get("variants")) {
            for (JsonNode t : v.get("transfers")) {
                if (!t.has("decision")) {
                    continue;
                }
                t.get("decision").get("configurationNotes").forEach(n -> {
                    String s = n.asText();
                    if (s.startsWith("ModelExpress") || s.startsWith("NIXL") || s.startsWith("ucx.conf")) {
                        jsonNotes.add(s);
                    }
                });
                for (JsonNode l : t.get("decision").get("lanesConsidered")) {
                    LaneVerdict verdict = LaneVerdict.valueOf(l.get("verdict").asText().toUpperCase(java.util.Locale.ROOT));
                    assertEquals(verdict.source(UCX), l.get("source").asText());
                }
                JsonNode fast = t.get("decision").get("wireupFastLanes");
                assertEquals("src/ucp/wireup/select.c", fast.get("sources").get(0).get("file").asText());
                assertEquals(1704, fast.get("sources").get(0).get("line").asInt());
            }
        }
        assertEquals(notes, jsonNotes);
    }

    @Test
    void theModelExpressPinIsCitedWithTheWordsOfSummaryJsonsOverride() throws Exception {
        var run = CliTestSupport.run("run", SCENARIO, "--out", dir.resolve("out").toString(), "-q", "--skip-without");
        assertTrue(run.code() == 0 || run.code() == 1, run.err());
        JsonNode summary = new ObjectMapper().readTree(dir.resolve("out/summary.json").toFile());
        Set<String> whys = new LinkedHashSet<>();
        summary.get("variants").forEach(v -> {
            if (v.has("overrides")) {
                v.get("overrides").forEach(o -> whys.add(o.get("why").asText()));
            }
        });
        String text = CliTestSupport.run("explain", SCENARIO).out();
        Set<String> pins = new LinkedHashSet<>();
        for (String l : text.lines().toList()) {
            if (l.startsWith("  note: ModelExpress pinned ")) {
                pins.add(l.substring(l.indexOf("; source: ") + "; source: ".length()));
            }
        }
        assertFalse(pins.isEmpty(), text);
        List<String> mxWhys = whys.stream().filter(w -> w.contains("UCX_NET_DEVICES")).toList();
        assertFalse(mxWhys.isEmpty(), whys.toString());
        for (String w : mxWhys) {
            assertTrue(pins.stream().anyMatch(p -> w.endsWith("(" + p + ")")), w + " vs " + pins);
        }
    }

    @Test
    void explainCitesEachVariantsOwnRelease() {
        var r = CliTestSupport.run("explain", CliTestSupport.repo().resolve("scenarios/gb300-rails.yaml").toString());
        assertEquals(0, r.code(), r.err());
        List<String> lines = r.out().lines().toList();
        int v121 = lines.indexOf("variant rails-8-ucx-1.21");
        assertTrue(v121 > 0, r.out());
        List<String> before = lines.subList(0, v121);
        List<String> after = lines.subList(v121, lines.size());
        assertTrue(before.stream().anyMatch(l -> l.equals("    picked: openucx/ucx v1.20.0 src/ucp/proto/proto_multi.c:126-135 "
                + "ucp_proto_multi_select_bw_lanes")), String.join("\n", before));
        assertTrue(after.stream().anyMatch(l -> l.equals("  distance: openucx/ucx v1.21.0 src/ucs/sys/topo/base/topo.c:481-522 "
                + "ucs_topo_update_distance_sysfs (UCX_DISTANCE_BW replaces it)")), String.join("\n", after));
        assertTrue(after.stream().noneMatch(l -> l.contains("openucx/ucx v1.20.0 src/ucp/proto")), String.join("\n", after));
    }

    @Test
    void quietHidesTheStatusLineAndLeavesTheExplanationAsItWas() {
        // with the quiet start (a second for users) taken away and a line every 20 ms, explain's reruns are named
        // on stderr; -q says nothing there, and stdout is the same explanation
        String scenario = CliTestSupport.repo().resolve("scenarios/dgx-h100-nic-pin-vs-stripe.yaml").toString();
        long quietStart = Progress.quietStartMillis;
        long period = Progress.plainPeriodMillis;
        CliTestSupport.Outcome loud;
        CliTestSupport.Outcome quiet;
        try {
            Progress.quietStartMillis = 0;
            Progress.plainPeriodMillis = 20;
            loud = CliTestSupport.run("explain", scenario);
            quiet = CliTestSupport.run("explain", "-q", scenario);
        } finally {
            Progress.quietStartMillis = quietStart;
            Progress.plainPeriodMillis = period;
        }
        assertEquals(0, loud.code(), loud.err());
        assertTrue(loud.err().startsWith("rdmasim: "), loud.err());
        assertEquals(0, quiet.code(), quiet.err());
        assertEquals("", quiet.err());
        assertEquals(loud.out(), quiet.out());
    }
}
