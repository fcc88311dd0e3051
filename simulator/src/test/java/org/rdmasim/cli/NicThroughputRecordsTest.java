package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The per-NIC throughput every committed report charts (nic-throughput.csv) carries exactly the bytes
 * its other records say: each NIC's area under its steps equals its transmitted bytes in summary.json,
 * and for transfer lists the bytes of the lanes leaving it in transfers.csv. A report whose variants list
 * no NIC has no rows in it.
 */
class NicThroughputRecordsTest {
    @Test
    void everyCommittedNicSeriesCarriesTheBytesTheOtherRecordsSay() throws Exception {
        List<Path> reports;
        try (Stream<Path> s = Files.list(CliTestSupport.repo().resolve("reports"))) {
            reports = s.filter(p -> Files.exists(p.resolve("nic-throughput.csv"))).sorted().toList();
        }
        assertTrue(reports.size() >= 8, "committed reports with nic-throughput.csv: " + reports);
        for (Path r : reports) {
            Map<String, Double> rounding = new HashMap<>();
            Map<String, Double> fromSteps = integrate(Files.readAllLines(r.resolve("nic-throughput.csv")), rounding);
            JsonNode summary = new ObjectMapper().readTree(r.resolve("summary.json").toFile());
            Map<String, Double> fromLanes = laneBytes(Files.readAllLines(r.resolve("transfers.csv")));
            int checked = 0;
            for (JsonNode v : summary.get("variants")) {
                if (!v.has("nics")) {
                    continue;
                }
                boolean transferList = !v.has("cycles");
                for (JsonNode n : v.get("nics")) {
                    String key = v.get("name").asText() + "|" + n.get("host").asText() + ":" + n.get("name").asText();
                    double tx = n.get("txBytes").asDouble();
                    double steps = fromSteps.getOrDefault(key, 0.0);
                    // the CSV prints times to 9 significant digits: each step's area may be off by its rate over
                    // half a unit of the last digit at each end (10 ns a unit past 1 s)
                    double bound = Math.max(Math.max(1.0, tx * 1e-6), rounding.getOrDefault(key, 0.0));
                    assertEquals(tx, steps, bound, r.getFileName() + " " + key + " steps vs summary");
                    if (transferList && fromLanes.containsKey(key)) {
                        assertEquals(fromLanes.get(key), tx, Math.max(1.0, tx * 1e-6), r.getFileName() + " " + key
                                + " lanes vs summary");
                    }
                    checked++;
                }
            }
            if (checked == 0) {
                // a refit that crosses no NIC (colocated-ipc) lists no NIC in any variant: then the series
                // must be empty too, not a chart of bytes no record accounts for
                assertTrue(fromSteps.isEmpty() && Files.readAllLines(r.resolve("nic-throughput.csv")).size() == 1,
                        r + ": no variant lists a NIC, yet nic-throughput.csv has rows");
            }
        }
    }

    /**
     * Bytes per variant|NIC: the area under the steps (rate held until the NIC's next step). {@code rounding}
     * receives, per series, the most the printed times' rounding can move that area: CsvTables writes numbers with 9
     * significant digits ({@code %.9g}), so each time is off by up to half a unit of its last digit, and each step's
     * area by its rate over half a unit at each end.
     */
    private static Map<String, Double> integrate(List<String> lines, Map<String, Double> rounding) {
        Map<String, Double> out = new HashMap<>();
        String lastKey = null;
        double lastT = 0;
        double lastGbps = 0;
        for (String line : lines.subList(1, lines.size())) {
            String[] f = line.split(",");
            String key = f[0] + "|" + f[1];
            double t = Double.parseDouble(f[2]);
            if (key.equals(lastKey)) {
                out.merge(key, lastGbps * (t - lastT) * 1e9 / 8, Double::sum);
                rounding.merge(key, lastGbps * 1e9 / 8 * (lastDigit(lastT) + lastDigit(t)) / 2, Double::sum);
            }
            lastKey = key;
            lastT = t;
            lastGbps = Double.parseDouble(f[3]);
        }
        return out;
    }

    /** One unit of the last of 9 significant digits of {@code t}. */
    private static double lastDigit(double t) {
        return t == 0 ? 0 : Math.pow(10, Math.floor(Math.log10(Math.abs(t))) - 8);
    }

    /** Bytes per variant|source NIC from transfers.csv's lane rows. */
    private static Map<String, Double> laneBytes(List<String> lines) {
        Map<String, Double> out = new HashMap<>();
        for (String line : lines.subList(1, lines.size())) {
            String[] f = line.split(",");
            if (f.length > 8 && f[1].equals("lane")) {
                String host = f[3].substring(0, f[3].indexOf(':'));
                out.merge(f[0] + "|" + host + ":" + f[6], Double.parseDouble(f[8]), Double::sum);
            }
        }
        return out;
    }
}
