package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** transport.backend: libfabric end to end: rates against hand calculation, explain's words, bad input. */
class LibfabricBackendTest {
    @TempDir
    Path dir;

    static final String P5 = """
            name: p5
            hosts:
              a: {preset: p5.48xlarge}
              b: {preset: p5.48xlarge}
            transport:
              nixl: "1.4.0"
              backend: libfabric
            workload:
              transfers:
                - {from: "a:GPU5", to: "b:GPU5", size: 8 GB}
            """;

    private Path write(String text) throws IOException {
        Path f = dir.resolve("s.yaml");
        Files.writeString(f, text);
        return f;
    }

    private JsonNode run(String text) throws IOException {
        Path out = dir.resolve("out");
        CliTestSupport.Outcome o = CliTestSupport.run("run", write(text).toString(), "--out", out.toString());
        assertEquals(0, o.code(), o.err());
        return org.rdmasim.report.SummaryJson.mapper().readTree(out.resolve("summary.json").toFile()).get("variants").get(0);
    }

    private static double seconds(JsonNode variant) {
        return variant.get("makespanSeconds").asDouble();
    }

    @Test
    void fourEfaDevicesCarryFourTimesOne() throws IOException {
        // 100 Gbps x 0.9804 (aws-efa's assumed SRD efficiency) per device; GPU5's four devices in parallel
        double perDevice = 100e9 * 0.9804 / 8;
        JsonNode four = run(P5);
        assertEquals(8e9 / (4 * perDevice), seconds(four), 1e-3);
        JsonNode one = run(P5.replace("backend: libfabric", "backend: libfabric\n  visibleDevices: [rdmap164s0, rdmap165s0]")
        );
        // GPU5's switch (buses 0xa4-0xa7) shows two devices: twice one device's rate
        assertEquals(8e9 / (2 * perDevice), seconds(one), 1e-3);
    }

    @Test
    void explainSpeaksTheBackendsTermsAndNamesTheProfile() throws IOException {
        CliTestSupport.Outcome o = CliTestSupport.run("explain", write(P5).toString());
        assertEquals(0, o.code(), o.err());
        String out = o.out();
        assertTrue(out.contains("NIXL libfabric backend"), out);
        assertTrue(out.contains("rails rdmap164s0, rdmap165s0, rdmap166s0, rdmap167s0"), out);
        assertTrue(out.contains("striped"), out);
        assertTrue(out.contains("striping threshold 131072 B"), out);
        assertTrue(out.contains("rests on (profile aws-efa): efaWireEfficiency = 0.9804"), out);
        assertFalse(out.contains("UCX_MAX_RMA_RAILS"), "the UCX lane table is not the libfabric backend's: " + out);
    }

    private void assertBadInput(String text, String location, String fragment) throws IOException {
        CliTestSupport.Outcome o = CliTestSupport.run("run", write(text).toString(), "--out", dir.resolve("o").toString());
        assertEquals(2, o.code(), o.err());
        assertTrue(o.err().contains("s.yaml:" + location), "location " + location + " in: " + o.err());
        assertTrue(o.err().contains(fragment), "'" + fragment + "' in: " + o.err());
        assertFalse(o.err().contains("Exception"), o.err());
        assertFalse(o.err().contains("\tat "), o.err());
    }

    @Test
    void badBackendsAreRefusedAtTheirLine() throws IOException {
        assertBadInput(P5.replace("backend: libfabric", "backend: verbs"), "7:", "unknown backend 'verbs'");
        assertBadInput(P5.replace("nixl: \"1.4.0\"", "nixl: \"0.6.0\""), "7:", "has no libfabric backend");
        assertBadInput(P5.replace("backend: libfabric", "visibleDevices: [rdmap79s0]"), "7:",
                "visibleDevices applies to the libfabric backend");
        assertBadInput(P5.replace("backend: libfabric", "backend: libfabric\n  visibleDevices: [mlx5_0]"), "",
                "no visible network device");
        assertBadInput(P5.replace("\"a:GPU5\"", "\"a:CPU0\""), "", "host memory");
    }
}
