package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rdmasim.report.SummaryJson;

/**
 * The bound a variant reports is the limit that held its pull longest, the same in the run table,
 * summary.json, transfers.csv and the page: a fault by name when the fault held it (a port's RC retransmit
 * wait, a degraded rate), the GPU link a striped pull shared for most of its time rather than the QP rate
 * its last lane ended under, and both NICs when two held it for the same time.
 */
class HeldLongestBoundTest {
    @TempDir
    Path dir;

    /** faults-nic-down's pull (FaultModelTest's) with a healthy, a flapping and a half-rate variant. */
    private static final String PULL = FaultModelTest.PULL + """
            variants:
              - name: healthy
              - name: flap
                faults: {events: [{kind: nic-down, host: receiver, nic: mlx5_1, at: 100 ms, until: 400 ms}]}
              - name: half
                faults: {events: [{kind: degraded, host: receiver, nic: mlx5_1, fraction: 0.5, at: 100 ms}]}
            """;

    private record Run(CliTestSupport.Outcome outcome, Map<String, JsonNode> variants, List<String[]> rows, String page) {
        /** The bound summary.json gives the variant's one receiver. */
        String bound(String variant) {
            return variants.get(variant).get("receivers").get(0).get("bottleneck").asText();
        }

        /** The run table's line of {@code variant}. */
        String tableLine(String variant) {
            return outcome.out().lines().filter(l -> l.startsWith("  " + variant + " ")).findFirst().orElseThrow();
        }

        /** The run table, summary.json and transfers.csv's transfer row all give {@code variant} the bound {@code expected}. */
        void assertBound(String variant, String expected) {
            assertEquals(expected, bound(variant));
            assertTrue(tableLine(variant).endsWith(expected), tableLine(variant));
            assertEquals(expected, rows(variant, "transfer").get(0)[13]);
        }

        /** transfers.csv's row of the lane of {@code variant} from source NIC {@code nic}. */
        String[] lane(String variant, String nic) {
            return rows(variant, "lane").stream().filter(c -> c[6].equals(nic)).findFirst().orElseThrow();
        }

        /** transfers.csv rows of {@code variant}, of kind {@code row} (transfer or lane). */
        List<String[]> rows(String variant, String row) {
            return rows.stream().filter(c -> c[0].equals(variant) && c[1].equals(row)).toList();
        }
    }

    private Run run(String scenario) throws IOException {
        Path s = Files.writeString(dir.resolve("s.yaml"), scenario);
        Path out = dir.resolve("out");
        CliTestSupport.Outcome o = CliTestSupport.run("run", s.toString(), "--force", "--out", out.toString());
        assertEquals(0, o.code(), o.out() + o.err());
        Map<String, JsonNode> byName = new HashMap<>();
        for (JsonNode v : SummaryJson.mapper().readTree(out.resolve("summary.json").toFile()).get("variants")) {
            byName.put(v.get("name").asText(), v);
        }
        List<String[]> rows = Files.readAllLines(out.resolve("transfers.csv")).stream().skip(1)
                .map(HeldLongestBoundTest::cells).toList();
        return new Run(o, byName, rows, Files.readString(out.resolve("index.html")).replace("&#39;", "'"));
    }

    /** A CSV line's cells (a cell with a comma is quoted, a quote in it doubled). */
    private static String[] cells(String line) {
        List<String> out = new java.util.ArrayList<>();
        StringBuilder cell = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quoted && c == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
                cell.append('"');
                i++;
            } else if (c == '"') {
                quoted = !quoted;
            } else if (c == ',' && !quoted) {
                out.add(cell.toString());
                cell.setLength(0);
            } else {
                cell.append(c);
            }
        }
        out.add(cell.toString());
        return out.toArray(new String[0]);
    }

    /** {@code seconds} of {@code lane}'s time (a transfers.csv row), as the page rounds a share. */
    private static String share(String[] lane, double seconds) {
        return String.format(Locale.ROOT, "%.0f%%", 100 * seconds / (Double.parseDouble(lane[10]) - Double.parseDouble(lane[9])));
    }

    /**
     * A lane that waits through two outages (a second port, or the same port again before its retransmission
     * got through) names every port and the whole wait, not the first port's window nor the last outage's.
     */
    @Test
    void aWaitThroughTwoOutagesNamesEveryPortAndTheWholeWindow() throws IOException {
        Run r = run(FaultModelTest.PULL + """
                variants:
                  - name: two-ports
                    faults: {events: [{kind: nic-down, host: receiver, nic: mlx5_1, at: 100 ms, until: 200 ms},
                                      {kind: nic-down, host: source, nic: mlx5_1, at: 150 ms, until: 600 ms}]}
                  - name: flap-twice
                    faults: {events: [{kind: nic-down, host: receiver, nic: mlx5_1, at: 100 ms, until: 200 ms},
                                      {kind: nic-down, host: receiver, nic: mlx5_1, at: 300 ms, until: 350 ms}]}
                """);
        r.assertBound("two-ports", "ports receiver:mlx5_1, source:mlx5_1 down 2 times from 100 ms, all back by 600 ms: "
                + "RC retransmit wait");
        r.assertBound("flap-twice", "port receiver:mlx5_1 down 2 times from 100 ms, back by 350 ms: RC retransmit wait");
    }

    @Test
    void aPortDownHoldingThePullLongestIsItsBoundByNameNotTheCalibratedRateOfTheLaneItStalled() throws IOException {
        Run r = run(PULL);
        String stall = "port receiver:mlx5_1 down 100-400 ms: RC retransmit wait";
        r.assertBound("flap", stall);
        // the stalled lane: held from its stall at 100 ms to the QP's first retransmission after the port came
        // back (one ACK timer period, 4.096 us x 2^18, after the stall: 400 ms is within the first period)
        String[] lane = r.lane("flap", "mlx5_1");
        assertEquals(stall, lane[13]);
        String share = share(lane, 4.096e-6 * (1 << 18));
        assertTrue(r.page().contains("down from 100 to 400 ms, and the lane's QP waiting for its next RC retransmission"
                + " (one every 1.074 s, from UCX_RC_TIMEOUT) to move data again for " + share + " of its time"), r.page());
        // the answer names the fault as what held the slowest pull longest
        assertTrue(r.page().contains("of it the faults' cost; held longest by a fault: port receiver:mlx5_1 down from"
                + " 100 to 400 ms"), r.page());
        assertFalse(r.bound("flap").contains("calibrated"), "the calibrated READ rate did not hold it: " + r.bound("flap"));
    }

    @Test
    void aDegradedPortIsNamedAsDegradedByTheFaultForTheTimeItHeldTheLane() throws IOException {
        Run r = run(PULL);
        String degraded = "receiver:mlx5_1 rx, degraded to 50% (fault from 100 ms on)";
        r.assertBound("half", degraded);
        String[] lane = r.lane("half", "mlx5_1");
        assertEquals(degraded, lane[13]);
        // degraded from 100 ms to the lane's end, at its calibrated READ rate before
        String degradedShare = share(lane, Double.parseDouble(lane[10]) - 0.1);
        String before = share(lane, 0.1 - Double.parseDouble(lane[9]));
        assertTrue(r.page().contains("held by NIC mlx5_1's receive line rate on receiver, degraded by a fault to 50% of"
                + " its rate (fault from 100 ms on) for " + degradedShare + " of its time and by NIC mlx5_1's delivered"
                + " RDMA READ rate on receiver"), r.page());
        assertTrue(r.page().contains("profile gb200-roce) for " + before), r.page());
        // the undegraded lane says nothing of it
        String[] other = r.lane("half", "mlx5_0");
        assertEquals("receiver:mlx5_0 READ, calibrated to gb200-roce (ai-dynamo/modelexpress #449)", other[13]);
    }

    @Test
    void twoNicsHoldingTheirLanesForTheSameTimeAreATieNamingBoth() throws IOException {
        Run r = run(PULL);
        List<String[]> lanes = r.rows("healthy", "lane");
        assertEquals(2, lanes.size());
        // each lane at its own NIC's calibrated READ rate all its life, ending together
        assertEquals(lanes.get(0)[10], lanes.get(1)[10]);
        String tie = "tie of 2: receiver:{mlx5_0, mlx5_1} READ, calibrated to gb200-roce (ai-dynamo/modelexpress #449)";
        r.assertBound("healthy", tie);
        assertTrue(r.page().contains("limited by a tie of 2 limits of one kind, each holding it for the same time: NIC "
                + "{mlx5_0, mlx5_1}'s delivered RDMA READ rate on receiver"), r.page());
    }

    @Test
    void aStripedPullIsBoundByTheGpuLinkThatHeldItLongestNotByTheQpRateItsLastLaneEndedUnder() throws IOException {
        Run r = run(LaneHoldsReportTest.STRIPE);
        // the last lane (mlx5_0's, the largest) shares GPU0's PCIe link until the three others end, then runs
        // alone at one QP's READ rate: the link held it for most of its time
        String[] last = r.rows("stripe", "lane").stream()
                .max(java.util.Comparator.comparingDouble(c -> Double.parseDouble(c[10]))).orElseThrow();
        assertEquals("mlx5_0", last[6]);
        double othersEnd = r.rows("stripe", "lane").stream().filter(c -> c != last)
                .mapToDouble(c -> Double.parseDouble(c[10])).max().orElseThrow();
        double start = Double.parseDouble(last[9]);
        double pcieShare = (othersEnd - start) / (Double.parseDouble(last[10]) - start);
        assertTrue(pcieShare > 0.5, "the shared phase is most of the last lane's time: " + pcieShare);
        assertTrue(r.page().contains("held by GPU0's PCIe link on source (towards the CPU) for "
                + String.format(Locale.ROOT, "%.0f%%", 100 * pcieShare) + " of its time and by one QP's RDMA READ rate"
                + " on receiver:mlx5_0"), r.page());
        String pcie = "source:GPU0 PCIe up";
        r.assertBound("stripe", pcie);
        assertEquals(pcie, last[13], "the lane's own bound is by time too");
    }
}
