package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a report's charts say beside their numbers: a bar or NIC line that a calibrated profile parameter
 * limits says so, naming the parameter and its measurement; NICs that sent nothing are left out of the
 * legend and counted under it.
 */
class ChartMarksTest {
    @TempDir
    Path tmp;

    private static final Pattern TEXT = Pattern.compile("<text[^>]*>([^<]*)</text>");

    /** The text elements of an SVG chart, in drawing order. */
    private static List<String> texts(Path svg) throws IOException {
        List<String> out = new ArrayList<>();
        Matcher m = TEXT.matcher(Files.readString(svg));
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    /** Runs the catalog's scenario {@code name} into a folder of its own; returns the folder. */
    private Path report(String name) {
        Path out = tmp.resolve(name);
        var r = CliTestSupport.run("run", CliTestSupport.repo().resolve("scenarios/" + name + ".yaml").toString(),
                "--out", out.toString());
        assertEquals(0, r.code(), r.err());
        return out;
    }

    /** An SVG's text, joined without the spaces and breaks its wrapped lines put in different places. */
    private static String squeezed(Path svg) throws IOException {
        return squeeze(String.join("", texts(svg)).replace("&apos;", "'"));
    }

    private static String squeeze(String s) {
        return s.replaceAll("\\s+", "");
    }

    @Test
    void barsAndNicLinesAtTheCalibrated308GbpsSaySoAndTheUncalibratedVariantDoesNot() throws IOException {
        Path out = report("seed003-nic-pin-vs-stripe");

        // (upright bar labels are drawn as outlines in SVG; ChartScalesTest reads the bar labels off the chart)
        String bw = squeezed(out.resolve("aggregate-bandwidth.svg"));
        // the caption names the parameter, its value, its profile and the measurement it was fitted to, and the
        // variants it limits: the GB200 pinned pull at 308 Gbps, the DGX's one-QP-limited pulls
        assertTrue(bw.contains(squeeze("CALIBRATED, not a mechanism: nicReadRate = 308 Gbps (profile gb200-roce), fitted "
                + "to ai-dynamo/modelexpress #449; it limits gb200-mx-pin-auto, gb200-nixl-defaults")), bw);
        assertTrue(bw.contains(squeeze("qpReadRate = 320 Gbps (profile connectx7), fitted to novitalabs/pegaflow #291; "
                + "it limits dgx-nixl-defaults")), bw);
        // the variant without the calibration reaches the RoCE wire and is not named
        assertFalse(bw.contains("gb200-mx-pin-auto-uncalibrated"), bw);
        assertTrue(squeezed(out.resolve("pull-time.svg")).contains(squeeze("nicReadRate = 308 Gbps")));

        String pinned = squeezed(out.resolve("nic-throughput-gb200-mx-pin-auto.svg"));
        assertTrue(pinned.contains(squeeze("CALIBRATED, not a mechanism: nicReadRate = 308 Gbps")), pinned);
        String uncalibrated = squeezed(out.resolve("nic-throughput-gb200-mx-pin-auto-uncalibrated.svg"));
        assertFalse(uncalibrated.contains("CALIBRATED"), uncalibrated);
        assertFalse(uncalibrated.contains("nicReadRate"), uncalibrated);
        // the PNG is drawn from the same chart: it differs from the uncalibrated variant's beyond the title
        assertTrue(Files.size(out.resolve("nic-throughput-gb200-mx-pin-auto.png")) > 1000);
    }

    @Test
    void aRefitNicChartSaysHowManyLanesTheCalibratedReadRateHoldsWhenItsCycleIsBoundByAWire() throws IOException {
        Path out = report("refit-qwen3-4b-gb200");
        // the tree's relays pull from their parent at the calibrated per-NIC READ rate; the cycle is bound by a wire
        String tree = squeezed(out.resolve("nic-throughput-tree.svg"));
        assertTrue(tree.contains(squeeze("CALIBRATED, not a mechanism: nicReadRate = 308 Gbps (profile gb200-roce)")), tree);
        assertTrue(tree.matches(".*itholds\\d+ofthe\\d+lanes.*"), tree);
        // the pinned variant's lanes are all held by wires: nothing to say
        assertFalse(squeezed(out.resolve("nic-throughput-pinned.svg")).contains("CALIBRATED"));
        assertFalse(squeezed(out.resolve("refit-cycle.svg")).contains("CALIBRATED"));
    }

    @Test
    void aDgxNicChartLegendsOnlyTheNicsThatSentAndCountsTheIdleOnesUnderIt() throws IOException {
        Path out = report("dgx-h100-nic-pin-vs-stripe");
        List<String> texts = texts(out.resolve("nic-throughput-four-lanes.svg"));
        List<String> legend = texts.stream().filter(t -> t.matches("source:mlx5_\\d+")).toList();
        // four lanes: the source's four NICs that carried bytes, none of its eight idle ports (storage included)
        assertEquals(List.of("source:mlx5_0", "source:mlx5_3", "source:mlx5_4", "source:mlx5_5"), legend);
        String all = String.join("", texts);
        assertTrue(all.contains("8 idle NIC(s) of the 1 sending host(s) sent no bytes and are not drawn"), all);
        assertTrue(all.contains("source:mlx5_11"), "the left-out NICs are named in the caption: " + all);
    }
}
