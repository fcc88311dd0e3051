package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The report opens with the computed answer: the true fastest and slowest variants and what limits them. */
class VerdictPageTest {
    @TempDir
    Path dir;

    @Test
    void seed003VerdictNamesTheFastestVariantItsLimiterAndTheCalibration() throws Exception {
        Path scenario = CliTestSupport.repo().resolve("scenarios/seed003-nic-pin-vs-stripe.yaml");
        assertEquals(0, CliTestSupport.run("run", scenario.toString(), "--out", dir.toString(), "-q").code());
        String html = Files.readString(dir.resolve("index.html"));
        int verdict = html.indexOf("id=\"verdict\"");
        int question = html.indexOf("<h2>The question</h2>");
        int table = html.indexOf("<h2 id=\"variants\">Key numbers per variant</h2>");
        assertTrue(verdict > 0 && verdict < question && question < table, "answer, then question, then table");
        // only a UCX that reads ucx.conf gives 4 rails all four NICs
        assertTrue(html.contains("<b>Fastest: gb200-stripe-4-rails-ucx-prefix</b>, slowest pull 0.1039 s (1232 Gbps)"),
                html);
        // a released ModelExpress pins one NIC whatever stripe asks: that variant ties with the pinned one
        assertTrue(html.contains("<b>Slowest (tied with gb200-stripe-mx-0.5.1): gb200-mx-pin-auto</b>, slowest pull 0.4156 s "
                + "(308 Gbps)"), html);
        assertTrue(html.contains("delivered RDMA READ rate on receiver, CALIBRATED (308 Gbps, profile gb200-roce)"), html);
        assertTrue(html.contains("nicReadRate = 308 Gbps, calibrated (ai-dynamo/modelexpress #449 [mx-issue-449]"),
                html);
        assertTrue(html.contains("The fastest is 4 times faster"), html);
        // the lane table shows paths: the pinned NIC's two QPs, half the bytes each
        assertTrue(html.contains("mlx5_0&rarr;mlx5_0 path1: 50% at 154 Gbps"), html);
    }

    @Test
    void variantsThatTakeTheSameTimeTieInsteadOfBeingRanked() throws Exception {
        // gb300-rails: every rail count reaches the one PIX NIC's wire, 0.1617 s
        Path scenario = CliTestSupport.repo().resolve("scenarios/gb300-rails.yaml");
        Path out = dir.resolve("gb300");
        assertEquals(0, CliTestSupport.run("run", scenario.toString(), "--out", out.toString(), "-q").code());
        String html = Files.readString(out.resolve("index.html"));
        assertTrue(html.contains("<b>All 6 variants tie</b>: slowest pull 0.1617 s (791.5 Gbps)"), html);
        assertTrue(!html.contains("<b>Fastest") && !html.contains("<b>Slowest"), "no ranking of a tie");
    }
}
