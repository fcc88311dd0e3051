package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rdmasim.refit.model.TinyQwen3;
import org.junit.jupiter.api.io.TempDir;
import org.rdmasim.scenario.Parameter;
import org.rdmasim.scenario.Parameters;

/**
 * Every declared parameter has a physical range that a scenario meets at load: a value inside runs, an
 * absurd one (the cases a careless user or an attacker wrote: 1e-300 Gbps, an oversubscription of
 * 1e308, a penalty of 0.999999999, 2^32 + 1 descriptors) is refused with exit 2 at the value's
 * file:line, never simulated into a summary that says 8e300 s and never wrapped into a small number.
 */
class DeclaredRangesTest {
    /** A scenario writing {@code %s} where the parameter goes, a value inside its range and one outside. */
    record Case(String scenario, String good, String bad) {
    }

    private static final String TWO_HOSTS = """
            hosts:
              a: {preset: dgx-h100}
              b: {preset: dgx-h100}
            """;
    private static final String ONE_TRANSFER = """
            workload:
              transfers:
                - {from: "a:GPU0", to: "b:GPU0", size: 1 GB}
            """;
    private static final String INLINE_HOST = """
            hosts:
              a:
                model: two-socket test host
                interSocket: %s
                sockets:
                  - memoryBandwidth: %s
                    devices:
                      - gpu: GPU0
                        link: {c2c: %s}
                      - nic: mlx5_0
                  - devices: []
              b: {preset: dgx-h100}
            """;
    private static final String FANOUT = """
            hosts:
              src: {preset: dgx-h100}
              rx: {preset: dgx-h100, count: 4, prefix: r}
            workload:
              fanout:
                sources: src
                receivers: rx
                model: 1 GB
            %s""";

    /** A one-GPU refit of a tiny model (written beside each scenario) with one stage set. */
    private static final String REFIT = """
            hosts:
              t: {preset: dgx-h100}
              i: {preset: dgx-h100}
            workload:
              refit:
                model: tiny.json
                trainer: {hosts: t}
                inference: {hosts: i}
                method: nccl-broadcast
                bucket: 1 MiB
                stages:
                  %s: %%s
            """;
    private static final String TINY_MODEL = TinyQwen3.config(2);

    static final Map<String, Case> CASES = new LinkedHashMap<>();

    static {
        put(Parameters.PAGE_SIZE, "registration:\n  pageSize: %s\n" + TWO_HOSTS + ONE_TRANSFER, "64 KiB", "8 KiB");
        put(Parameters.FIRMWARE_PAGE_CAP, "registration:\n  firmwarePageCap: %s\n" + TWO_HOSTS + ONE_TRANSFER,
                "8 GiB", "100 B");
        put(Parameters.CAP_SCOPE, "registration:\n  firmwarePageCap: 64 GiB\n  capScope: %s\n" + TWO_HOSTS
                + ONE_TRANSFER, "vf", "planet");
        put(Parameters.HOST_MEMORY, "registration:\n  hostMemory: %s\n" + TWO_HOSTS + ONE_TRANSFER, "2 TiB", "0");
        put(Parameters.MTT_LIMIT, "registration:\n  mttLimit: %s\n" + TWO_HOSTS + ONE_TRANSFER, "64 GiB", "1e-400 B");
        put(Parameters.DESCRIPTORS, "transport:\n  descriptors: %s\n" + TWO_HOSTS + ONE_TRANSFER, "4", "4294967297");
        put(Parameters.QPS_PER_PEER, "transport:\n  backend: pegaflow\n  qpsPerPeer: %s\n" + TWO_HOSTS + ONE_TRANSFER,
                "3", "65");
        put(Parameters.SLICE_THREAD, "transport:\n  backend: mooncake\n  sliceThread: %s\nhosts:\n"
                + "  a: {preset: dgx-h100, linkLayer: roce}\n  b: {preset: dgx-h100, linkLayer: roce}\n" + ONE_TRANSFER,
                "5 us", "-1 us");
        put(Parameters.IOMMU_PENALTY, "transport:\n  iommuPenalty: %s\n" + TWO_HOSTS + ONE_TRANSFER, "0.1",
                "0.999999999");
        put(Parameters.GPUDIRECT, "transport:\n  gpudirect: %s\n" + TWO_HOSTS + ONE_TRANSFER, "false", "maybe");
        put(Parameters.ACS, "transport:\n  acs: %s\n" + TWO_HOSTS + ONE_TRANSFER, "true", "2");
        put(Parameters.LINE_RATE, "hosts:\n  a: {preset: dgx-h100, lineRate: %s}\n  b: {preset: dgx-h100}\n"
                + ONE_TRANSFER, "200 Gbps", "1e-300 Gbps");
        put(Parameters.NVLINKS, "hosts:\n  a: {preset: dgx-h100, nvlinks: %s}\n  b: {preset: dgx-h100}\n" + ONE_TRANSFER,
                "8", "19");
        put(Parameters.INTER_SOCKET, INLINE_HOST.formatted("%s", "300 GB/s", "450 GB/s") + ONE_TRANSFER, "64 GB/s",
                "1e300 GB/s");
        put(Parameters.MEMORY_BANDWIDTH, INLINE_HOST.formatted("64 GB/s", "%s", "450 GB/s") + ONE_TRANSFER,
                "300 GB/s", "1 bps");
        put(Parameters.C2C, INLINE_HOST.formatted("64 GB/s", "300 GB/s", "%s") + ONE_TRANSFER, "450 GB/s",
                "1e-300 Gbps");
        put(Parameters.HOSTS_PER_LEAF, "fabric: {kind: leaf-spine, hostsPerLeaf: %s}\n" + TWO_HOSTS + ONE_TRANSFER,
                "2", "4294967297");
        put(Parameters.OVERSUBSCRIPTION, "fabric: {kind: leaf-spine, hostsPerLeaf: 1, oversubscription: %s}\n"
                + TWO_HOSTS + ONE_TRANSFER, "2", "1e308");
        put(Parameters.DEGRADED_FRACTION, TWO_HOSTS + ONE_TRANSFER
                + "faults:\n  events:\n    - {kind: degraded, host: a, nic: mlx5_0, fraction: %s, at: 1 ms}\n", "0.5", "1e-300");
        put(Parameters.WAVE_SIZE, FANOUT.formatted("    arrival: {kind: waves, size: %s}\n"), "2", "4294967297");
        put(Parameters.MAX_CHILDREN, FANOUT.formatted("    tree: {maxChildren: %s}\n"), "2", "0");
        put(Parameters.NIC_LATENCY, "protocol: {nicLatency: %s}\n" + TWO_HOSTS + ONE_TRANSFER, "1 us", "1e6 s");
        put(Parameters.PCIE_HOP, "protocol: {pcieHop: %s}\n" + TWO_HOSTS + ONE_TRANSFER, "200 ns", "2 s");
        put(Parameters.PER_DESCRIPTOR, "protocol: {perDescriptor: %s}\n" + TWO_HOSTS + ONE_TRANSFER, "2 us", "-1 us");
        put(Parameters.PER_FRAGMENT, "protocol: {perFragment: %s}\n" + TWO_HOSTS + ONE_TRANSFER, "0 ns", "1.5 s");
        put(Parameters.MAX_OUTSTANDING_READS, "protocol: {maxOutstandingReads: %s}\n" + TWO_HOSTS + ONE_TRANSFER,
                "32", "4294967312");
        put(Parameters.SEND_QUEUE_DEPTH, "protocol: {sendQueueDepth: %s}\n" + TWO_HOSTS + ONE_TRANSFER, "256", "0");
        put(Parameters.NIC_MESSAGE_RATE, "protocol: {nicMessageRate: %s}\n" + TWO_HOSTS + ONE_TRANSFER, "215000000",
                "2000000000000");
        put(Parameters.STAGING_COPY, "protocol: {stagingCopy: %s}\n" + TWO_HOSTS + ONE_TRANSFER, "10 us", "1e5 s");
        put(Parameters.HOP_LATENCY, "fabric: {kind: leaf-spine, hopLatency: %s}\n" + TWO_HOSTS + ONE_TRANSFER,
                "300 ns", "3 s");
        put(Parameters.REPLICATIONS, "replications: %s\n" + TWO_HOSTS + ONE_TRANSFER, "2", "4294967297");
        put(Parameters.CYCLES, FANOUT.formatted("    cycles: {count: %s}\n"), "2", "10001");
        put(Parameters.NIC_RATE_JITTER, FANOUT.formatted("    jitter: {nicRate: %s}\n"), "2%", "100%");
        for (Parameter<Double> stage : Parameters.refitStages()) {
            put(stage, REFIT.formatted(stage.key()), "1.5 ms", "7200 s");
        }
    }

    private static void put(Parameter<?> p, String scenario, String good, String bad) {
        CASES.put(p.field(), new Case(scenario, good, bad));
    }

    @TempDir
    Path dir;

    private CliTestSupport.Outcome run(Case c, String value) throws Exception {
        Path f = dir.resolve("s.yaml");
        Files.writeString(dir.resolve("tiny.json"), TINY_MODEL);
        Files.writeString(f, "name: ranges\n" + c.scenario().formatted(value));
        return CliTestSupport.run("run", f.toString(), "--out", dir.resolve("out" + System.nanoTime()).toString(), "-q");
    }

    /** The 1-based line of the scenario file that holds the parameter's value. */
    private static int lineOf(Case c) {
        String text = "name: ranges\n" + c.scenario();
        return (int) text.substring(0, text.indexOf("%s")).chars().filter(ch -> ch == '\n').count() + 1;
    }

    @Test
    void everyDeclaredParameterRunsInsideItsRangeAndIsRefusedOutsideAtItsLine() throws Exception {
        for (Parameter<?> p : Parameters.all()) {
            Case c = CASES.get(p.field());
            assertTrue(c != null, p.field() + " is declared but has no case in this test");
            assertFalse(p.source().isBlank() || p.unit().isBlank() || p.defaultText().isBlank(), p.field());
            var good = run(c, c.good());
            assertEquals(0, good.code(), p.field() + ": " + c.good() + " runs: " + good.err());
            var bad = run(c, c.bad());
            assertEquals(2, bad.code(), p.field() + ": " + c.bad() + " is refused: " + bad.err());
            assertTrue(bad.err().contains("s.yaml:" + lineOf(c) + ":"), p.field() + " placed at its line: " + bad.err());
            assertFalse(bad.err().contains("\tat "), "no stack trace");
        }
    }

    @Test
    void rangesAreThePhysicalOnes() {
        // 1 Mbps and 100 Tbps bound every link; 800 Gbps (a ConnectX-8 port) sits well inside
        assertEquals(1e6 / 8, Parameters.LINE_RATE.read("1 Mbps"));
        assertEquals(100e12 / 8, Parameters.C2C.read("100 Tbps"));
        assertThrows(() -> Parameters.LINE_RATE.read("0.99 Mbps"));
        assertThrows(() -> Parameters.INTER_SOCKET.read("101 Tbps"));
        assertEquals(0.98, Parameters.IOMMU_PENALTY.read("0.98"));
        assertThrows(() -> Parameters.IOMMU_PENALTY.read("0.99"));
        assertEquals(0.001, Parameters.DEGRADED_FRACTION.read("0.1%"));
        assertThrows(() -> Parameters.DEGRADED_FRACTION.read("1"));
        assertEquals(100_000_000L, Parameters.DESCRIPTORS.read("100_000_000"));
        assertThrows(() -> Parameters.DESCRIPTORS.read("100000001"));
        assertThrows(() -> Parameters.HOSTS_PER_LEAF.read("9223372036854775808"));
    }

    @Test
    void aFanoutListingAGpuTwiceAndAPrefixMakingOverlongNamesAreRefused() throws Exception {
        var twice = run(new Case(FANOUT.replace("receivers: rx", "receivers: {hosts: rx, gpus: [GPU0, GPU1, GPU0]}"),
                "", ""), "");
        assertEquals(2, twice.code(), twice.err());
        assertTrue(twice.err().contains("GPU 'GPU0' is listed twice"), twice.err());
        var longPrefix = run(new Case(FANOUT.replace("prefix: r", "prefix: " + "r".repeat(101)), "", ""), "");
        assertEquals(2, longPrefix.code(), longPrefix.err());
        assertTrue(longPrefix.err().contains("characters long"), longPrefix.err());
    }

    @Test
    void theReadmeShowsTheTableTheParametersCommandPrints() throws Exception {
        String readme = Files.readString(CliTestSupport.repo().resolve("README.md"));
        var printed = CliTestSupport.run("parameters");
        assertEquals(0, printed.code());
        assertEquals(ParametersCommand.table(), printed.out());
        assertTrue(readme.contains(printed.out()), "README.md holds `./rdmasim parameters` as printed now");
    }

    @Test
    void aScenarioOfMoreThanAMillionHostsAndABenchOfBillionsOfFlowsAreRefusedBeforeAnythingIsBuilt()
            throws Exception {
        StringBuilder hosts = new StringBuilder("hosts:\n  a: {preset: dgx-h100}\n  b: {preset: dgx-h100}\n");
        for (int g = 0; g < 10; g++) {
            hosts.append("  g").append(g).append(": {preset: dgx-h100, count: 1000000, prefix: g").append(g)
                    .append("x}\n");
        }
        var tooMany = run(new Case(hosts + ONE_TRANSFER, "", ""), "");
        assertEquals(2, tooMany.code(), tooMany.err());
        assertTrue(tooMany.err().contains("over the limit of 1000000 in one scenario"), tooMany.err());
        var flows = CliTestSupport.run("bench", "--flows", "2000000000");
        assertEquals(2, flows.code(), flows.err());
        assertTrue(flows.err().contains("--flows goes up to"), flows.err());
    }

    @Test
    void aBenchOptionOutOfRangeIsNamedWithItsValue() {
        var events = CliTestSupport.run("bench", "--events", "-5");
        assertEquals(2, events.code(), events.err());
        assertTrue(events.err().contains("--events must be >= --pending (100000), got -5"), events.err());
        var hosts = CliTestSupport.run("bench", "--hosts", "1");
        assertEquals(2, hosts.code(), hosts.err());
        assertTrue(hosts.err().contains("--hosts must be >= 2, got 1"), hosts.err());
    }

    @Test
    void aBenchPeerOptionOutOfRangeIsNamedAloneWithItsValue() {
        // it listed every --peer rule ("needs --sources >= 1, --load > 0, --model-gb > 0, --receivers >= 1")
        var receivers = CliTestSupport.run("bench", "--peer", "simgrid", "--receivers", "-4");
        assertEquals(2, receivers.code(), receivers.err());
        assertEquals("rdmasim: error: --receivers must be >= 1 with --peer, got -4", receivers.err().strip());
        var among = CliTestSupport.run("bench", "--peer", "simgrid", "--receivers", "16,0");
        assertEquals(2, among.code(), among.err());
        assertTrue(among.err().contains("--receivers must be >= 1 with --peer, got 0 (in 16,0)"), among.err());
        var sources = CliTestSupport.run("bench", "--peer", "simgrid", "--sources", "0");
        assertEquals(2, sources.code(), sources.err());
        assertEquals("rdmasim: error: --sources must be >= 1 with --peer, got 0", sources.err().strip());
        var load = CliTestSupport.run("bench", "--peer", "simgrid", "--load", "-0.5");
        assertEquals(2, load.code(), load.err());
        assertEquals("rdmasim: error: --load must be > 0 with --peer, got -0.5", load.err().strip());
    }

    private static void assertThrows(Runnable r) {
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, r::run);
    }
}
