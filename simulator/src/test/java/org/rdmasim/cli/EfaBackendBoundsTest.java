package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * EFA as EFA: UCX has no RC lane on an EFA device, so a host whose NICs are EFA is refused under the
 * UCX backend (at the host, or at transport.backend when the scenario names it); NIXL's libfabric
 * backend is accepted from NIXL 0.6.1, the first tag with src/plugins/libfabric, with 0.6.x's own rail
 * pairing. Presets and imported NCCL topologies with EFA devices behave alike.
 */
class EfaBackendBoundsTest {
    @TempDir
    Path dir;

    /** Lines: 1 name, 2 hosts, 3 a, 4 b, 5 transport, 6 nixl, 7 backend. */
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

    /** One p5 EFA device's payload rate: 100 Gbps x the aws-efa profile's assumed 0.9804 SRD efficiency. */
    static final double PER_DEVICE = 100e9 * 0.9804 / 8;

    private Path write(String text) throws IOException {
        Path f = dir.resolve("s.yaml");
        Files.writeString(f, text);
        return f;
    }

    private CliTestSupport.Outcome run(String text) throws IOException {
        return CliTestSupport.run("run", write(text).toString(), "--out", dir.resolve("out").toString());
    }

    private double makespan(String text) throws IOException {
        CliTestSupport.Outcome o = run(text);
        assertEquals(0, o.code(), o.err());
        JsonNode v = org.rdmasim.report.SummaryJson.mapper().readTree(dir.resolve("out").resolve("summary.json").toFile())
                .get("variants").get(0);
        return v.get("makespanSeconds").asDouble();
    }

    private String refused(String text, String location) throws IOException {
        CliTestSupport.Outcome o = run(text);
        assertEquals(2, o.code(), o.out() + o.err());
        assertTrue(o.err().contains("s.yaml:" + location), "location " + location + " in: " + o.err());
        assertFalse(o.err().contains("Exception"), o.err());
        assertFalse(o.err().contains("\tat "), o.err());
        return o.err();
    }

    private static String ucx(String release) {
        return P5.replace("  backend: libfabric\n", "  ucx: \"" + release + "\"\n");
    }

    @Test
    void ucxBeforeItsEfaTransportHasNoLaneOnAP5() throws IOException {
        // UCX 1.18.1 has no src/uct/ib/efa: nothing of UCX runs on these devices; the error is at host a
        String err = refused(ucx("1.18.1"), "3:");
        assertTrue(err.contains("host a has AWS EFA devices (rdmap79s0 and 31 more)"), err);
        assertTrue(err.contains("no RC transport"), err);
        assertTrue(err.contains("UCX 1.18.1 has no EFA transport at all (src/uct/ib/efa first appears in UCX v1.19.0)"), err);
        assertTrue(err.contains("transport.backend: libfabric"), err);
    }

    @Test
    void ucxWithItsSrdTransportIsRefusedAsNotModelled() throws IOException {
        String err = refused(ucx("1.19.0"), "3:");
        assertTrue(err.contains("UCX 1.19.0 reaches EFA only through its srd transport"), err);
        assertTrue(err.contains("does not model"), err);
        assertTrue(err.contains("transport.backend: libfabric"), err);
        // with no transport block at all (plain UCX at its default release) the host is still named
        String bare = refused(P5.replace("transport:\n  nixl: \"1.4.0\"\n  backend: libfabric\n", ""), "3:");
        assertTrue(bare.contains("host a has AWS EFA devices"), bare);
    }

    @Test
    void namingUcxPointsAtTheBackendField() throws IOException {
        String err = refused(P5.replace("backend: libfabric", "backend: ucx"), "7:");
        assertTrue(err.contains("host a has AWS EFA devices"), err);
    }

    /** Lanes given explicitly are still RC queue pairs under UCX: one through an EFA device is refused at the lane (line 8). */
    @Test
    void givenLanesOnEfaAreRefusedUnderUcx() throws IOException {
        String lanes = P5.replace("  backend: libfabric\n", "  lanes:\n    - {source: rdmap164s0, sink: rdmap164s0}\n");
        String err = refused(lanes, "8:");
        assertTrue(err.contains("host a has AWS EFA devices (rdmap164s0)"), err);
        assertTrue(err.contains("UCX 1.20.0 reaches EFA only through its srd transport"), err);
        // the libfabric backend carries the same given lane: one device's rate
        assertEquals(8e9 / PER_DEVICE, makespan(lanes.replace("  lanes:", "  backend: libfabric\n  lanes:")), 1e-3);
    }

    @Test
    void libfabricFromNixl061AndNotBefore() throws IOException {
        // same GPU on both sides: 0.6.1's same-index pairing lands on the peer's own group, all four devices
        double t061 = makespan(P5.replace("\"1.4.0\"", "\"0.6.1\""));
        assertEquals(8e9 / (4 * PER_DEVICE), t061, 1e-3);
        assertEquals(makespan(P5), t061, 1e-12, "0.6.1 and 1.4.0 pair the same rails here");
        String err = refused(P5.replace("\"1.4.0\"", "\"0.6.0\""), "7:");
        assertTrue(err.contains("NIXL 0.6.0 has no libfabric backend (first in NIXL 0.6.1, ai-dynamo/nixl tag 0.6.1 "
                + "src/plugins/libfabric)"), err);
    }

    @Test
    void nixl06PairsRailsByIndexSoAnotherGpusBufferIsRefused() throws IOException {
        String crossed = P5.replace("\"b:GPU5\"", "\"b:GPU4\"");
        // 0.7.0 and later send to the peer's rails that hold a key: GPU4's four devices
        assertEquals(8e9 / (4 * PER_DEVICE), makespan(crossed), 1e-3);
        // a READ: b:GPU4 posts on its first rail, rdmap147s0, and 0.6.1 reads through the source's device
        // of the same index, a:rdmap147s0, which belongs to GPU4's switch and holds no key for a:GPU5's buffer
        String err = refused(crossed.replace("\"1.4.0\"", "\"0.6.1\""), "6:");
        assertTrue(err.contains("NIXL 0.6.1's libfabric backend sends rail rdmap147s0's share to the peer's rail of the "
                + "same index, a:rdmap147s0, where a:GPU5's buffer is not registered"), err);
    }

    @Test
    void nixl06DoesNotKnowFourthGenerationEfa() throws IOException {
        String p6 = P5.replace("p5.48xlarge", "p6-b200.48xlarge");
        CliTestSupport.Outcome ok = run(p6.replace("\"1.4.0\"", "\"0.7.0\""));
        assertEquals(0, ok.code(), ok.err());
        String err = refused(p6.replace("\"1.4.0\"", "\"0.6.1\""), "");
        assertTrue(err.contains("does not recognise EFA device id 0xefa3"), err);
    }

    private void copy(String resource, Path to) throws IOException {
        try (InputStream in = EfaBackendBoundsTest.class.getResourceAsStream("/importers/public/" + resource)) {
            Files.write(to, in.readAllBytes());
        }
    }

    /** An NCCL topology of a p5 (aws-ofi-nccl's shape), its devices named EFA by nicModel: as the preset. */
    @Test
    void importedEfaTopologyBehavesAsThePreset() throws IOException {
        copy("aws-p5-48xl-topo.xml", dir.resolve("p5.xml"));
        String imported = P5.replace("{preset: p5.48xlarge}", "{nccl-topo: p5.xml, nicModel: efa2}");
        assertEquals(8e9 / (4 * PER_DEVICE), makespan(imported), 1e-3);
        String err = refused(imported.replace("  backend: libfabric\n", ""), "3:");
        assertTrue(err.contains("host a has AWS EFA devices (rdmap80s0 and 31 more)"), err);
        assertTrue(err.contains("transport.backend: libfabric"), err);
    }

    /** A dump that carries EFA's PCI ids (vendor 0x1d0f, device 0xefa2) is EFA without being told. */
    @Test
    void importedEfaPciIdsAreRefusedUnderUcx() throws IOException {
        copy("aws-p5en-efa-ids.xml", dir.resolve("p5en.xml"));
        String imported = P5.replace("{preset: p5.48xlarge}", "{nccl-topo: p5en.xml}");
        CliTestSupport.Outcome ok = run(imported);
        assertEquals(0, ok.code(), ok.err());
        String err = refused(imported.replace("backend: libfabric", "backend: ucx"), "7:");
        assertTrue(err.contains("host a has AWS EFA devices"), err);
    }
}
