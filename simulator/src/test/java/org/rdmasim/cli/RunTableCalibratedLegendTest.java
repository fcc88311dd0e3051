package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The run table names the measurement a calibrated limit was fitted to, not only its profile: a researcher
 * reading "calibrated to gb200-roce" in the column learns from the line under the table that the 308 Gbps is
 * ModelExpress #449's measurement, in the words of the charts' captions.
 */
class RunTableCalibratedLegendTest {
    @TempDir
    Path dir;

    /** One GB200 receiver pulling over its pinned NIC: the 308 Gbps calibrated on ModelExpress #449 holds it. */
    static final String PINNED = """
            name: pinned-pull
            hosts:
              source:   {preset: gb200-tray}
              receiver: {preset: gb200-tray}
            transport:
              operation: read
              nixl: "1.1.0"
              ucx: "1.20.0"
              env: |
                export MX_RDMA_NIC_PIN=auto
            workload:
              transfers:
                - {from: "source:GPU0", to: "receiver:GPU0", size: 1 GB}
            variants:
              - name: pinned
              - name: uncalibrated
                hosts:
                  source:   {preset: gb200-tray, profile: generic}
                  receiver: {preset: gb200-tray, profile: generic}
            """;

    @Test
    void theRunTableNamesTheMeasurementACalibratedLimitWasFittedTo() throws IOException {
        Path f = dir.resolve("s.yaml");
        Files.writeString(f, PINNED);
        var o = CliTestSupport.run("run", f.toString(), "-q", "--skip-without", "--out", dir.resolve("out").toString());
        assertEquals(0, o.code(), o.out() + o.err());
        assertTrue(o.out().contains("calibrated to gb200-roce"), o.out());
        // the column names the profile; the line under the table names what was measured, as the charts do
        assertTrue(o.out().contains("CALIBRATED, not a mechanism: nicReadRate = 308 Gbps (profile gb200-roce), "
                + "fitted to ai-dynamo/modelexpress #449; it limits pinned."), o.out());
        // the variant at the wire rate rests on no calibrated number and is not listed
        assertFalse(o.out().contains("it limits pinned, uncalibrated"), o.out());
    }
}
