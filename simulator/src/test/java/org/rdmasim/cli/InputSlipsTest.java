package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Slips a new user makes that once gave a wrong answer or a message pointing elsewhere: a rate in bytes
 * where bits were meant, a bandwidth with no unit, an env value in a variant, a lane written host:nic, a
 * mistyped validation row, a NIC UCX_NET_DEVICES lists that the host lacks. Each refusal exits 2 at the
 * file:line of what the user wrote, with the field, and never a stack trace.
 */
class InputSlipsTest {
    @TempDir
    Path dir;

    /** The two-host pull the scenario error tests start from. */
    private static final String TWO_HOSTS = ScenarioErrorsTest.GOOD;

    private CliTestSupport.Outcome run(String text) throws IOException {
        Path f = dir.resolve("s.yaml");
        Files.writeString(f, text);
        return CliTestSupport.run("run", f.toString(), "-q", "--out", dir.resolve("out").toString());
    }

    /** The 1-based line of {@code text} holding {@code fragment}, the n-th such line when asked. */
    private static int lineOf(String text, String fragment, int nth) {
        String[] lines = text.split("\n", -1);
        int seen = 0;
        for (int i = 0; i < lines.length; i++) {
            if (lines[i].contains(fragment) && ++seen == nth) {
                return i + 1;
            }
        }
        throw new AssertionError("no line " + nth + " with " + fragment);
    }

    private static void assertRefusedAt(CliTestSupport.Outcome o, String location, String... fragments) {
        assertEquals(2, o.code(), o.out() + o.err());
        assertTrue(o.err().contains("s.yaml:" + location), "location s.yaml:" + location + " in: " + o.err());
        for (String f : fragments) {
            assertTrue(o.err().contains(f), "'" + f + "' in: " + o.err());
        }
        assertFalse(o.err().contains("Exception") || o.err().contains("\tat "), o.err());
    }

    private static String withLineRate(String rate) {
        return TWO_HOSTS.replace("a: {preset: dgx-h100}", "a: {preset: dgx-h100, lineRate: " + rate + "}");
    }

    // (2) a rate above what the NIC's port carries is refused; a byte-rate slip gets "did you mean"

    @Test
    void aConnectX7LineRateInGigabytesIsRefusedWithTheBitsItMeant() throws IOException {
        // 400 GBps is 3200 Gbps: accepted before, it made one ConnectX-7 carry eight ports' worth
        assertRefusedAt(run(withLineRate("400 GBps")), "3:", "hosts.a.lineRate", "3200 Gbps ('400 GBps')",
                "ConnectX-7 port's top speed, 400 Gbps", "did you mean 400 Gbps?");
        // 5 TB/s read as bits (5000 Gbps) is still over the port: no guess then
        CliTestSupport.Outcome tera = run(withLineRate("5 TB/s"));
        assertRefusedAt(tera, "3:", "hosts.a.lineRate", "40000 Gbps ('5 TB/s')");
        assertFalse(tera.err().contains("did you mean"), tera.err());
    }

    @Test
    void aLineRateAboveThePortInBitsIsRefusedWithoutAGuess() throws IOException {
        CliTestSupport.Outcome o = run(withLineRate("800 Gbps"));
        assertRefusedAt(o, "3:", "hosts.a.lineRate", "800 Gbps", "ConnectX-7", "400 Gbps");
        // 800 Gbps / 8 is a valid rate too, but the user wrote bits: no guess that they meant 100
        assertFalse(o.err().contains("did you mean"), o.err());
    }

    @Test
    void aPortTrainedLowerOrAtItsTopSpeedStays() throws IOException {
        // 50 GB/s is exactly 400 Gbps: the top speed itself, reached through bytes, is allowed
        for (String rate : List.of("200 Gbps", "50 GB/s", "400 Gb/s")) {
            CliTestSupport.Outcome o = run(withLineRate(rate));
            assertEquals(0, o.code(), rate + ": " + o.err());
        }
    }

    @Test
    void theCeilingFollowsTheNicModelTheScenarioChose() throws IOException {
        // a ConnectX-6 host-wide: 400 Gbps is twice its port, and ConnectX-8 takes 800
        String cx6 = TWO_HOSTS.replace("a: {preset: dgx-h100}", "a: {preset: dgx-h100, nicModel: cx6, lineRate: 400 Gbps}");
        assertRefusedAt(run(cx6), "3:", "hosts.a.lineRate", "ConnectX-6 port's top speed, 200 Gbps");
        String cx8 = TWO_HOSTS.replace("a: {preset: dgx-h100}", "a: {preset: dgx-h100, nicModel: cx8, lineRate: 800 Gbps}");
        assertEquals(0, run(cx8).code());
    }

    @Test
    void anInlineNicIsHeldToItsModelAndAnEfaDeviceToItsLink() throws IOException {
        String inline = """
                name: inline
                hosts:
                  a: {sockets: [{devices: [{switch: sw0, devices: [
                      {gpu: GPU0, model: H100},
                      {nic: n0, model: %s, linkLayer: %s, lineRate: %s, link: {gen: %d, width: 16}}]}]}]}
                  b: {preset: dgx-h100}
                workload:
                  transfers:
                    - {from: "a:GPU0", to: "b:GPU0", size: 1 GB}
                """;
        assertRefusedAt(run(inline.formatted("cx7", "infiniband", "400 GBps", 5)), "5:", "devices[1].lineRate",
                "ConnectX-7", "did you mean 400 Gbps?");
        // an EFA device publishes no port speed: 800 Gbps passes on a Gen6 x16 link (a P6-B300 pose), not on Gen5
        assertRefusedAt(run(inline.formatted("efa4", "efa", "800 Gbps", 5)), "5:", "devices[1].lineRate",
                "PCIe Gen5 x16 link carries", "AWS publishes no port speed");
        CliTestSupport.Outcome gen6 = run(inline.formatted("efa4", "efa", "800 Gbps", 6));
        assertFalse(gen6.err().contains("lineRate"), gen6.err());
    }

    @Test
    void anUnknownBandwidthUnitListsEverySpellingThatIsTaken() throws IOException {
        // GBps and Gb/s are taken, so the list names them: a list that left them out hid that GBps is bytes
        assertRefusedAt(run(withLineRate("400 gbps")), "3:", "hosts.a.lineRate", "unknown bandwidth unit 'gbps'",
                "Gbps or Gb/s", "GB/s or GBps", "MB/s or MBps", "TB/s or TBps", "Mbps or Mb/s", "Tbps or Tb/s");
    }

    // (18) a bandwidth without its unit

    @Test
    void aBandwidthWithoutAUnitSaysItNeedsOne() throws IOException {
        CliTestSupport.Outcome o = run(withLineRate("400"));
        assertRefusedAt(o, "3:", "hosts.a.lineRate", "a bandwidth needs its unit (e.g. '400 Gbps'");
        assertFalse(o.err().contains("unit ''"), o.err());
        String ref = TWO_HOSTS + "references:\n  - {label: one port, bandwidth: 400}\n";
        assertRefusedAt(run(ref), lineOf(ref, "bandwidth: 400", 1) + ":", "references[0].bandwidth",
                "a bandwidth needs its unit");
    }

    // (9) an env value a variant sets is refused at the variant's line

    @Test
    void aVariantsBadEnvValueIsRefusedAtTheVariantsLine() throws IOException {
        String text = TWO_HOSTS + """
                transport:
                  env: |
                    export UCX_MAX_RMA_RAILS=2
                variants:
                  - name: two
                  - name: four
                    transport:
                      env: |
                        export UCX_MAX_RMA_RAILS=four
                """;
        int variantLine = lineOf(text, "UCX_MAX_RMA_RAILS=four", 1);
        CliTestSupport.Outcome o = run(text);
        // the field is the variant's own, whole: variants[1].transport.env (as any field a variant sets is named)
        assertRefusedAt(o, variantLine + ": variants[1].transport.env: UCX_MAX_RMA_RAILS='four'",
                "expected an unsigned integer");
        // not at the base block's line, as before
        assertFalse(o.err().contains("s.yaml:" + lineOf(text, "transport:", 1) + ":"), o.err());
        // a map-form env in a variant whose base has none: the same place, the value's line
        String map = TWO_HOSTS + """
                variants:
                  - name: four
                    transport:
                      env: {UCX_MAX_RMA_RAILS: 'four'}
                """;
        assertRefusedAt(run(map), lineOf(map, "'four'", 1) + ": variants[0].transport.env", "UCX_MAX_RMA_RAILS='four'");
        // the base block's own bad value keeps the base's field
        String base = TWO_HOSTS + """
                transport:
                  env: |
                    export UCX_MAX_RMA_RAILS=four
                variants:
                  - name: one
                """;
        CliTestSupport.Outcome b = run(base);
        assertRefusedAt(b, lineOf(base, "UCX_MAX_RMA_RAILS=four", 1) + ": transport.env: UCX_MAX_RMA_RAILS='four'");
        assertFalse(b.err().contains("variants["), b.err());
    }

    /**
     * Every field a variant sets is named with the variant's place in the list, as its env is: a line of its env
     * block that is not an assignment (once named 'transport.env (variant)', the loader's inner name) and a value
     * of another transport field.
     */
    @Test
    void aVariantsOtherFieldsAreNamedWithTheVariantToo() throws IOException {
        String text = TWO_HOSTS + """
                transport:
                  env: |
                    export UCX_MAX_RMA_RAILS=2
                variants:
                  - name: two
                  - name: odd
                    transport:
                      env: |
                        this is not an assignment
                """;
        CliTestSupport.Outcome o = run(text);
        assertRefusedAt(o, lineOf(text, "this is not an assignment", 1) + ":1: variants[1].transport.env: no '='");
        assertFalse(o.err().contains("(variant)"), o.err());
        String install = TWO_HOSTS + """
                variants:
                  - name: one
                  - name: two
                  - name: three
                    transport: {ucxInstall: nonsense}
                """;
        assertRefusedAt(run(install), lineOf(install, "nonsense", 1) + ":", "variants[2].transport.ucxInstall: expected "
                + "nixl-wheel");
    }

    @Test
    void aRefitVariantsBadEnvValueIsRefusedAtItsLineToo() throws IOException {
        // a refit resolves its processes' environment while it is read: the same refusal, the same place
        Path repo = CliTestSupport.repo().resolve("scenarios");
        Files.createDirectories(dir.resolve("models"));
        Files.copy(repo.resolve("models/qwen3-4b.json"), dir.resolve("models/qwen3-4b.json"));
        String text = Files.readString(repo.resolve("refit-qwen3-4b-gb200.yaml"));
        int line = lineOf(text, "export UCX_MAX_RMA_RAILS=4", 1);
        text = text.replace("export UCX_MAX_RMA_RAILS=4", "export UCX_MAX_RMA_RAILS=four");
        Path f = dir.resolve("s.yaml");
        Files.writeString(f, text);
        CliTestSupport.Outcome o = CliTestSupport.run("explain", f.toString());
        assertRefusedAt(o, line + ": variants[1].transport.env: UCX_MAX_RMA_RAILS='four'", "expected an unsigned integer");
    }

    @Test
    void aPortlessDeviceListOnUcxBefore121SaysWhichUcxTakesIt() throws IOException {
        String text = TWO_HOSTS + """
                transport:
                  ucx: "1.20.0"
                  env: {UCX_NET_DEVICES: "mlx5_0,mlx5_1"}
                """;
        assertRefusedAt(run(text), lineOf(text, "UCX_NET_DEVICES", 1) + ": transport.env",
                "'mlx5_0:1'", "from UCX 1.21.0 on", "openucx/ucx PR #11142");
        assertEquals(0, run(text.replace("1.20.0", "1.21.0")).code());
    }

    // (13) a NIC UCX_NET_DEVICES lists that the host lacks: warned at its line, for every variant

    @Test
    void anUnavailableDeviceIsWarnedAtItsLineForEveryVariantListingIt() throws IOException {
        String text = TWO_HOSTS + """
                variants:
                  - name: plain
                  - name: rails2
                    transport:
                      env: {UCX_NET_DEVICES: "mlx5_0:1,mlx5_99:1", UCX_MAX_RMA_RAILS: "2"}
                  - name: rails4
                    transport:
                      env: {UCX_NET_DEVICES: "mlx5_0:1,mlx5_99:1", UCX_MAX_RMA_RAILS: "4"}
                """;
        CliTestSupport.Outcome o = run(text);
        assertEquals(0, o.code(), o.err()); // UCX warns and goes on, and so does rdmasim
        String file = dir.resolve("s.yaml").toString();
        for (String[] v : new String[][] {{"rails2", "1"}, {"rails4", "2"}}) {
            String line = "rdmasim: warning: variant " + v[0] + ": UCX_NET_DEVICES (" + file + ":"
                    + lineOf(text, "mlx5_99:1", Integer.parseInt(v[1])) + "): UCX WARN network device 'mlx5_99:1' is not available";
            assertEquals(1, o.err().split(java.util.regex.Pattern.quote(line), -1).length - 1, line + " once in: " + o.err());
        }
        assertFalse(o.err().contains("variant plain:"), o.err());
    }

    @Test
    void anUnavailableDeviceInTheBaseIsOneLineNamingEveryVariant() throws IOException {
        String text = TWO_HOSTS + """
                transport:
                  env: {UCX_NET_DEVICES: "mlx5_0:1,mlx5_99:1"}
                variants:
                  - name: one
                  - name: two
                """;
        CliTestSupport.Outcome o = run(text);
        assertEquals(0, o.code(), o.err());
        String warning = "UCX WARN network device 'mlx5_99:1'";
        assertEquals(1, o.err().split(warning, -1).length - 1, o.err());
        assertTrue(o.err().contains("rdmasim: warning: all 2 variants: UCX_NET_DEVICES ("), o.err());
    }

    // (19) a lane written as host:nic or nic:port

    @Test
    void aLaneWrittenHostColonNicSaysToWriteTheNicAlone() throws IOException {
        String text = TWO_HOSTS + """
                transport:
                  lanes:
                    - {source: "a:mlx5_0", sink: mlx5_0, weight: 1}
                """;
        assertRefusedAt(run(text), lineOf(text, "a:mlx5_0", 1) + ":", "transport.lanes[0].source",
                "written as host:NIC", "write 'mlx5_0'");
        String port = text.replace("\"a:mlx5_0\"", "mlx5_0").replace("sink: mlx5_0", "sink: \"mlx5_1:1\"");
        assertRefusedAt(run(port), lineOf(port, "mlx5_1:1", 1) + ":", "transport.lanes[0].sink",
                "written as NIC:port", "write 'mlx5_1'");
        // the form README shows runs
        assertEquals(0, run(text.replace("\"a:mlx5_0\"", "mlx5_0")).code());
    }

    // (16) a mistyped validation row

    @Test
    void aMistypedValidationRowGetsTheNearestIdsNotAllOfThem() {
        CliTestSupport.Outcome o = CliTestSupport.run("validate", "--scenarios", CliTestSupport.repo().resolve("scenarios").toString(), "--row", "MX-449-PN", "--out",
                dir.resolve("v").toString());
        assertEquals(2, o.code(), o.err());
        assertTrue(o.err().contains("no validation row MX-449-PN; did you mean MX-449-PIN"), o.err());
        assertTrue(o.err().matches("(?s).*\\(\\d{3} rows: .*"), o.err());
        // a few suggestions, not the catalogue: a row far from the typo is not listed
        assertFalse(o.err().contains("PEGA-"), o.err());
        assertTrue(o.err().length() < 400, o.err());
        CliTestSupport.Outcome far = CliTestSupport.run("validate", "--scenarios", CliTestSupport.repo().resolve("scenarios").toString(), "--row", "zzzz", "--out", dir.resolve("v").toString());
        assertEquals(2, far.code());
        assertFalse(far.err().contains("did you mean"), far.err());
        assertFalse(Files.exists(dir.resolve("v")), "refused before writing anything");
    }
    /**
     * A variant name mistyped on explain's or size's --variant: exit 2 naming the file, the nearest name and
     * every name, no trace; a name far from all of them gets no guess.
     */
    @Test
    void aMistypedVariantNameIsRefusedWithTheNearestOne() throws IOException {
        Path f = dir.resolve("v.yaml");
        Files.writeString(f, TWO_HOSTS + """
                variants:
                  - name: striped-2
                  - name: striped-4
                """);
        CliTestSupport.Outcome o = CliTestSupport.run("explain", f.toString(), "--variant", "striped4");
        assertEquals(2, o.code(), o.out() + o.err());
        assertTrue(o.err().contains("no variant named 'striped4' in " + f + "; did you mean 'striped-4'? "
                + "(variants: striped-2, striped-4)"), o.err());
        assertFalse(o.err().contains("Exception") || o.err().contains("\tat "), o.err());
        CliTestSupport.Outcome far = CliTestSupport.run("explain", f.toString(), "--variant", "pinned");
        assertEquals(2, far.code(), far.out() + far.err());
        assertTrue(far.err().contains("no variant named 'pinned' in " + f + " (variants: striped-2, striped-4)"),
                far.err());
        CliTestSupport.Outcome size = CliTestSupport.run("size", f.toString(), "--target-p99", "1s", "--vary",
                "sources", "--variant", "striped4", "--out", dir.resolve("size").toString());
        assertEquals(2, size.code(), size.out() + size.err());
        assertTrue(size.err().contains("did you mean 'striped-4'?"), size.err());
    }
}
