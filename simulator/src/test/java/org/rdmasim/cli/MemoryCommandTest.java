package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code rdmasim memory} through {@link Main#execute}: the figures of [crusoe-kb-nixl], [linuxcluster-mtt]
 * and [nccl-pr-2064], and bad input.
 */
class MemoryCommandTest {

    /** Exit code and both streams of one run. */
    record Run(int code, String out, String err) {
    }

    private static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Run(code, out.toString(), err.toString());
    }

    /** The MRS/BUFFER column of the row whose name starts with {@code configuration}. */
    private static String mrsPerBuffer(String out, String configuration) {
        for (String line : out.lines().toList()) {
            if (line.startsWith(configuration)) {
                String[] cells = line.substring(configuration.length()).trim().split("\\s+");
                return cells[2]; // RELAXED, MAX_HCA, MRS/BUFFER
            }
        }
        throw new AssertionError("no row " + configuration + " in\n" + out);
    }

    @Test
    void seed000NixlDefaultRegistersSixteenTimesPerBufferOnHgxH200() {
        Run r = run("memory", "register", "--host", "hgx-h200", "--buffer", "40GiB", "--nixl", "1.1.0");
        assertEquals(Main.OK, r.code(), r.err());
        assertEquals("16", mrsPerBuffer(r.out(), "NIXL 1.1.0 + UCX 1.20.0"));
        // the registration time says which of its terms are calibrated and on what
        assertTrue(r.out().contains("per registration call = 0.200 ms (calibrated: ai-dynamo/modelexpress PR #267"),
                r.out());
        assertTrue(r.out().contains("per MR = 16.0 us (assumed: UCX's own estimate"), r.out());
    }

    @Test
    void aSizeSplitFromItsUnitIsNamedEvenWhenTheNumberAloneIsRefusedFirst() {
        // the bare 512 is read as bytes and refused by the option's range before 'GiB' is left over
        Run r = run("memory", "mtt", "--memory", "512", "GiB");
        assertEquals(Main.BAD_INPUT, r.code(), r.err());
        assertTrue(r.err().contains("a value and its unit are one argument: write --memory 512GiB "
                + "(or quote it: --memory '512 GiB')"), r.err());
        assertFalse(r.err().contains("Exception"), r.err());
    }

    @Test
    void seed000RelaxedOrderingAutoHalvesItOnSapphireRapids() {
        Run r = run("memory", "register", "--host", "hgx-h200", "--buffer", "40GiB", "--nixl", "1.1.0",
                "--set", "UCX_IB_PCI_RELAXED_ORDERING=auto");
        assertEquals(Main.OK, r.code(), r.err());
        assertEquals("8", mrsPerBuffer(r.out(), "NIXL 1.1.0 + UCX 1.20.0"));
    }

    @Test
    void seed000EnvFileIsRead(@TempDir Path dir) throws IOException {
        Path env = dir.resolve("pod.env");
        Files.writeString(env, "# workaround from Crusoe's article\nexport UCX_IB_PCI_RELAXED_ORDERING=auto\n");
        Run r = run("memory", "register", "--host", "hgx-h200", "--buffer", "40GiB", "--nixl", "1.1.0",
                "--env", env.toString());
        assertEquals("8", mrsPerBuffer(r.out(), "NIXL 1.1.0 + UCX 1.20.0"));
    }

    @Test
    void seed000CompareShowsTheReductionAndTheRealFailure() {
        // 40 GiB per GPU x 8 GPUs: 16 MRs of 80 MiB translation per buffer put 1.25 GiB on every HCA,
        // above a 1 GiB per-VF cap; MAX_HCA_PER_GPU=auto puts 160 MiB on each.
        Run r = run("memory", "register", "--host", "hgx-h200", "--buffer", "40GiB", "--gpus", "8",
                "--fw-page-cap", "1GiB", "--compare");
        assertEquals(Main.VARIANT_FAILED, r.code(), r.err());
        assertEquals("", r.err());
        assertEquals("8", mrsPerBuffer(r.out(), "UCX defaults"));
        assertEquals("16", mrsPerBuffer(r.out(), "NIXL default (try)"));
        assertEquals("8", mrsPerBuffer(r.out(), "RELAXED_ORDERING=auto"));
        assertEquals("2", mrsPerBuffer(r.out(), "NIXL 1.2.0 + UCX 1.21.0"));
        assertEquals("2", mrsPerBuffer(r.out(), "MAX_HCA_PER_GPU=1"));
        assertTrue(r.out().contains("UCX  ERROR ibv_reg_dmabuf_mr(address=0x7f7980000000, length=42949672960, "
                + "access=0x10000f) failed: Resource temporarily unavailable"), r.out());
        assertTrue(r.out().contains("UCX  ERROR failed to register address 0x7f7980000000 (cuda) length 42949672960 "
                + "dmabuf_fd 438 on md["), r.out());
        assertTrue(r.out().contains("Failed to ucp_mem_map: Input/output error"), r.out());
        assertTrue(r.out().contains("nixlBackendError: NIXL_ERR_BACKEND"), r.out());
        Matcher fixed = Pattern.compile("(?m)^NIXL 1\\.2\\.0 \\+ UCX 1\\.21\\.0 .* ok\\s+ok\\s+ok\\s+-\\s+ok$")
                .matcher(r.out());
        assertTrue(fixed.find(), r.out());
        Matcher failing = Pattern.compile("(?m)^NIXL default \\(try\\) .* fail\\s+ok\\s+ok\\s+-\\s+FAILED$")
                .matcher(r.out());
        assertTrue(failing.find(), r.out());
    }

    @Test
    void seed000FitsWithAutoAlone() {
        Run r = run("memory", "register", "--host", "hgx-h200", "--buffer", "40GiB", "--fw-page-cap", "1GiB",
                "--nixl", "1.2.0", "--ucx", "1.21.0");
        assertEquals(Main.OK, r.code(), r.out());
        assertFalse(r.out().contains("NIXL_ERR_BACKEND"));
    }

    @Test
    void registrationTimeIsShownPerGpuAndSummedOverTheHostsGpusEachLabelled() throws IOException {
        Run r = run("memory", "register", "--host", "hgx-h200", "--buffer", "40GiB", "--compare");
        assertEquals(Main.OK, r.code(), r.err());
        List<String> lines = r.out().lines().toList();
        String header = lines.stream().filter(l -> l.startsWith("CONFIGURATION")).findFirst().orElseThrow();
        assertTrue(header.contains("  REG/GPU  REG SUM  "), header);
        String ucx = lines.stream().filter(l -> l.startsWith("UCX defaults")).findFirst().orElseThrow();
        // the row's only figures in seconds are the two registration times, in the header's order
        Matcher seconds = Pattern.compile("(\\d+\\.\\d+) s\\b").matcher(ucx);
        assertTrue(seconds.find(), ucx);
        double one = Double.parseDouble(seconds.group(1));
        assertTrue(seconds.find(), ucx);
        double all = Double.parseDouble(seconds.group(1));
        // 8 GPUs with the same buffer and the same NICs each: the sum is 8 times one GPU's
        assertEquals(8 * one, all, 0.011, ucx);
        assertTrue(r.out().contains("REG SUM: all 8 GPUs' registrations added up"), r.out());
        // the legend says who waits for whom in the words of the reports (one home: RegistrationTotals.RULE)
        assertTrue(r.out().replaceAll("\\s+", " ").contains(org.rdmasim.memory.RegistrationTotals.RULE), r.out());
        var json = new com.fasterxml.jackson.databind.ObjectMapper().readTree(run("memory", "register", "--host",
                "hgx-h200", "--buffer", "40GiB", "--json").out()).get("configurations").get(0);
        assertEquals(json.get("registrationSeconds").asDouble() / 8, json.get("slowestGpuRegistrationSeconds").asDouble(),
                1e-12);
    }

    @Test
    void chartsAreWrittenAndForeignFoldersRefused(@TempDir Path dir) throws IOException {
        Path out = dir.resolve("charts");
        Run r = run("memory", "register", "--host", "hgx-h200", "--buffer", "40GiB", "--compare",
                "--fw-page-cap", "1GiB", "--out", out.toString());
        assertEquals(Main.VARIANT_FAILED, r.code(), r.err());
        for (String f : List.of("memory-pinned-host.png", "memory-pinned-host.svg", "memory-mrs-per-buffer.png",
                "memory-mrs-per-buffer.svg")) {
            assertTrue(Files.size(out.resolve(f)) > 0, f);
        }
        // Our own folder may be rewritten.
        assertEquals(Main.OK, run("memory", "va", "--gpu", "h200", "--communicators", "4", "--out",
                out.toString()).code());
        assertTrue(Files.exists(out.resolve("memory-va.svg")));

        Path mine = dir.resolve("mine");
        Files.createDirectories(mine);
        Files.writeString(mine.resolve("notes.txt"), "keep me");
        Run refused = run("memory", "va", "--gpu", "h200", "--communicators", "4", "--out", mine.toString());
        assertEquals(Main.BAD_INPUT, refused.code());
        assertTrue(refused.err().contains("holds notes.txt that rdmasim did not write"), refused.err());
        assertEquals(List.of("notes.txt"), Files.list(mine).map(p -> p.getFileName().toString()).toList());
    }

    @Test
    void aMisspelledSetVariableIsRefusedNamingTheOneMeantWhileAnEnvFilesIsWarnedAbout(@TempDir Path dir)
            throws Exception {
        Run typo = run("memory", "register", "--host", "dgx-h100", "--buffer", "1GiB", "--set",
                "UCX_IB_PCI_RELAXED_ORDRING=auto");
        assertEquals(Main.BAD_INPUT, typo.code());
        assertTrue(typo.err().contains("did you mean UCX_IB_PCI_RELAXED_ORDERING?"), typo.err());
        Run right = run("memory", "register", "--host", "dgx-h100", "--buffer", "1GiB", "--set",
                "UCX_IB_PCI_RELAXED_ORDERING=auto");
        assertEquals(Main.OK, right.code(), right.err());
        Path env = Files.writeString(dir.resolve("deploy.env"), "export UCX_MAX_RMA_RAIL=4\n");
        Run warned = run("memory", "register", "--host", "dgx-h100", "--buffer", "1GiB", "--env", env.toString());
        assertEquals(Main.OK, warned.code(), warned.err());
        assertTrue(warned.err().contains("warning: UCX_MAX_RMA_RAIL") && warned.err().contains("deploy.env:1"),
                warned.err());
    }

    @Test
    void aSetVariableWithNoCloseMatchIsRefusedWithoutSayingItIsIgnored() {
        // exit 2: the command stops, so the message must not read as a warning that the value is ignored
        Run far = run("memory", "register", "--host", "dgx-h100", "--buffer", "1GiB", "--set", "UCX_FOO=1");
        assertEquals(Main.BAD_INPUT, far.code(), far.err());
        assertTrue(far.err().startsWith("rdmasim: error: UCX_FOO (--set) is not a variable rdmasim models"),
                far.err());
        assertFalse(far.err().contains("is ignored"), far.err());
        // UCX_FOO shares only the prefix with UCX_TLS (3 of 7 characters differ): it named UCX_TLS as "closest known"
        assertTrue(far.err().contains("(no known variable is close to it); leave it out"), far.err());
        assertFalse(far.err().contains("UCX_TLS") || far.err().contains("closest known"), far.err());
        // a real near-miss still gets its name
        Run typo = run("memory", "register", "--host", "dgx-h100", "--buffer", "1GiB", "--set", "UCX_NET_DEVICE=mlx5_0:1");
        assertEquals(Main.BAD_INPUT, typo.code(), typo.err());
        assertTrue(typo.err().contains("did you mean UCX_NET_DEVICES?"), typo.err());
        // farther, but under the same first word after UCX_: named for orientation
        Run ib = run("memory", "register", "--host", "dgx-h100", "--buffer", "1GiB", "--set", "UCX_IB_GID_INDEX=3");
        assertEquals(Main.BAD_INPUT, ib.code(), ib.err());
        assertTrue(ib.err().contains("(closest known: UCX_IB_"), ib.err());
    }

    @Test
    void anImportedHostFileIsRegisteredOnWithItsWarningsAndTheModelsTheOptionsSay() {
        String file = CliTestSupport.repo().resolve("scenarios/hosts/h100-topo.txt").toString();
        Run guessed = run("memory", "register", "--host", file, "--buffer", "8GiB");
        assertEquals(Main.OK, guessed.code(), guessed.err());
        assertTrue(guessed.out().startsWith("h100-topo (imported from h100-topo.txt"), guessed.out());
        assertTrue(guessed.err().contains("does not name the GPU product"), guessed.err());
        Run said = run("memory", "register", "--host", file, "--buffer", "8GiB", "--gpu-model", "h100", "--nic-model",
                "cx7", "--cpu", "intel_sapphire_rapids");
        assertEquals(Main.OK, said.code(), said.err());
        assertFalse(said.err().contains("warning"), "the options say what the file does not: " + said.err());
        // the same 8 GPUs x 8 GiB as the dgx-h100 preset: the same registrations
        Run preset = run("memory", "register", "--host", "dgx-h100", "--buffer", "8GiB");
        assertEquals(preset.out().lines().skip(4).findFirst(), said.out().lines().skip(4).findFirst());
        Run missing = run("memory", "register", "--host", "no-such-host", "--buffer", "8GiB");
        assertEquals(Main.BAD_INPUT, missing.code());
        assertTrue(missing.err().contains("neither a host preset"), missing.err());
    }

    @Test
    void aHostFileOptionBesideAPresetIsRefusedNotIgnored() {
        // before: '--host dgx-h100 --gpu-model b200' registered on the preset's H100s, exit 0
        Run r = run("memory", "register", "--host", "dgx-h100", "--buffer", "1GiB", "--gpu-model", "b200");
        assertEquals(Main.BAD_INPUT, r.code(), r.out());
        assertTrue(r.err().startsWith("rdmasim: error: --gpu-model applies to an imported host file")
                && r.err().contains("preset 'dgx-h100'"), r.err());
    }

    @Test
    void aBadValueNamesTheOptionAsTyped() {
        // --memory and --mtt-for-memory are one option: the refusal names the one on the command line
        Run typed = run("memory", "mtt", "--memory", "16GX");
        assertEquals(Main.BAD_INPUT, typed.code(), typed.err());
        assertTrue(typed.err().startsWith("rdmasim: Invalid value for option '--memory': unknown size unit 'GX'"),
                typed.err());
        Run alias = run("memory", "mtt", "--mtt-for-memory=16GX");
        assertTrue(alias.err().startsWith("rdmasim: Invalid value for option '--mtt-for-memory': "), alias.err());
        // left out, it is named as --help and README name it, not by its longest alias
        Run missing = run("memory", "mtt");
        assertEquals(Main.BAD_INPUT, missing.code(), missing.err());
        assertTrue(missing.err().startsWith("rdmasim: Missing required option: '--memory=SIZE'"), missing.err());
    }

    @Test
    void seed001MttSizingAndOpenMpiWarning() {
        Run r = run("memory", "mtt", "--mtt-for-memory", "64GiB", "--factor", "2");
        assertEquals(Main.OK, r.code(), r.err());
        assertTrue(r.out().contains("log_num_mtt = 22"), r.out());
        assertTrue(r.out().contains("Registerable memory:     32768 MiB"), r.out());
        Run quiet = run("memory", "mtt", "--memory", "64GiB", "--log-num-mtt", "22");
        assertTrue(quiet.out().contains("no Open MPI warning"), quiet.out());
        // The host of [linuxcluster-mtt]: 65476 MiB total.
        Run seed = run("memory", "mtt", "--memory", "65476MiB");
        assertTrue(seed.out().contains("Total memory:            65476 MiB"), seed.out());
        assertTrue(seed.out().contains("log_num_mtt = 22"), seed.out());
    }

    @Test
    void seed002H200TwentyPools() {
        Run r = run("memory", "va", "--gpu", "h200", "--communicators", "20", "--pools-per-comm", "1",
                "--start-va", "0.04TiB");
        assertEquals(Main.OK, r.code(), r.err());
        assertTrue(r.out().contains("VA per pool: 280.00 GiB"), r.out());
        assertTrue(r.out().contains("after 20 communicators (20 pools): 5.51 TiB"), r.out());
    }

    @Test
    void theRoundingOfTheDriversDefaultIsSaidToBeAssumed() throws IOException {
        // H100's 79.65 GiB doubles to 159.30 GiB; the 160.00 GiB printed rests on the assumed 1 GiB granularity
        Run r = run("memory", "va", "--gpu", "h100", "--communicators", "8");
        assertEquals(Main.OK, r.code(), r.err());
        assertTrue(r.out().contains("VA per pool: 160.00 GiB"), r.out());
        assertTrue(r.out().contains("ASSUMED: the driver rounds 2 x device memory (159.30 GiB) up to a reservation "
                + "granularity of 1.00 GiB"), r.out());
        Run json = run("memory", "va", "--gpu", "h100", "--communicators", "8", "--json");
        var o = new com.fasterxml.jackson.databind.ObjectMapper().readTree(json.out());
        assertEquals(2 * o.get("deviceMemoryBytes").asLong(), o.get("vaPerPoolUnroundedBytes").asLong());
        assertTrue(o.get("assumption").asText().startsWith("ASSUMED"), json.out());
        // an explicit maxSize is reserved as given: nothing rounded, nothing assumed
        Run capped = run("memory", "va", "--gpu", "h100", "--communicators", "8", "--shadow-max", "1GiB");
        assertFalse(capped.out().contains("ASSUMED"), capped.out());
    }

    @Test
    void seed002Gb300TwoHundredCommunicators() {
        Run r = run("memory", "va", "--gpu", "gb300", "--communicators", "200", "--pools-per-comm", "2",
                "--va-bits", "48");
        assertEquals(Main.OK, r.code(), r.err());
        assertTrue(r.out().contains("VA per pool: 558.00 GiB"), r.out());
        // 400 x 558 GiB = 217.97 TiB: PR #2064's "~217 TiB", inside 256 TiB, beyond x86-64's 128 TiB user half.
        assertTrue(r.out().contains("(400 pools): 217.97 TiB"), r.out());
        assertTrue(r.out().contains("48-bit space (256.00 TiB): fits"), r.out());
        assertTrue(r.out().contains("(128.00 TiB): EXHAUSTED"), r.out());
        Run x86 = run("memory", "va", "--gpu", "gb300", "--communicators", "200", "--pools-per-comm", "2",
                "--va-bits", "47");
        assertEquals(Main.VARIANT_FAILED, x86.code());
        Run capped = run("memory", "va", "--gpu", "gb300", "--communicators", "200", "--pools-per-comm", "2",
                "--shadow-max", "1GiB");
        assertTrue(capped.out().contains("VA per pool: 1.00 GiB"), capped.out());
        Run wide = run("memory", "va", "--gpu", "gb300", "--communicators", "200", "--pools-per-comm", "2",
                "--va-bits", "57");
        assertTrue(wide.out().contains("57-bit space (128.00 PiB): fits"), wide.out());
    }

    @Test
    void badInputExitsTwoWithAMessageAndNoStackTrace(@TempDir Path dir) throws IOException {
        Path badEnv = dir.resolve("bad.env");
        Files.writeString(badEnv, "export UCX_NET_DEVICES=\"mlx5_0:1\n");
        List<String[]> cases = List.of(
                new String[] {"memory", "register", "--host", "hgx-h200", "--buffer", "-40GiB"},
                new String[] {"memory", "register", "--host", "hgx-h200", "--buffer", "40GiB", "--page-size", "8KiB"},
                new String[] {"memory", "register", "--host", "hgx-h200", "--buffer", "40GiB", "--fw-page-cap", "-1GiB"},
                new String[] {"memory", "register", "--host", "hgx-h200", "--buffer", "40 bananas"},
                new String[] {"memory", "register", "--host", "hgx-h900", "--buffer", "40GiB"},
                new String[] {"memory", "register", "--host", "hgx-h200", "--buffer", "40GiB", "--env", badEnv.toString()},
                new String[] {"memory", "register", "--host", "hgx-h200", "--buffer", "40GiB", "--env",
                        dir.resolve("missing.env").toString()},
                new String[] {"memory", "register", "--host", "hgx-h200", "--buffer", "40GiB", "--set", "NOEQUALS"},
                new String[] {"memory", "register", "--host", "hgx-h200", "--buffer", "40GiB", "--set",
                        "UCX_IB_PCI_RELAXED_ORDERING=sometimes"},
                new String[] {"memory", "register", "--host", "hgx-h200", "--buffer", "40GiB", "--set",
                        "UCX_NET_DEVICES=mlx5_9:1"},
                new String[] {"memory", "register", "--host", "hgx-h200", "--buffer", "40GiB", "--gpus", "0"},
                new String[] {"memory", "register", "--host", "hgx-h200", "--buffer", "40GiB", "--mtt", "twenty"},
                new String[] {"memory", "register", "--host", "hgx-h200", "--buffer", "40GiB", "--ucx", "one"},
                new String[] {"memory", "register", "--host", "hgx-h200", "--buffer", "40GiB", "--fw-page-cap", "1GiB",
                        "--fw-cap-scope", "rack"},
                new String[] {"memory", "mtt", "--memory", "-64GiB"},
                new String[] {"memory", "mtt", "--memory", "64GiB", "--factor", "0"},
                new String[] {"memory", "va", "--gpu", "h200", "--communicators", "-1"},
                new String[] {"memory", "va", "--gpu", "h999", "--communicators", "1"},
                new String[] {"memory", "va", "--gpu", "h200", "--communicators", "1", "--va-bits", "99"},
                new String[] {"memory", "va", "--gpu", "h200", "--communicators", "1", "--pools-per-comm", "3"});
        for (String[] args : cases) {
            Run r = run(args);
            String what = String.join(" ", args);
            assertEquals(Main.BAD_INPUT, r.code(), what + "\n" + r.out() + r.err());
            assertTrue(r.err().startsWith("rdmasim"), what + ": " + r.err());
            assertFalse(r.err().contains("\tat "), what + " printed a stack trace: " + r.err());
        }
    }

    @Test
    void helpIsAvailableEverywhere() {
        for (String[] args : List.of(new String[] {"memory", "--help"}, new String[] {"memory", "register", "--help"},
                new String[] {"memory", "mtt", "--help"}, new String[] {"memory", "va", "--help"})) {
            Run r = run(args);
            assertEquals(Main.OK, r.code());
            assertTrue(r.out().startsWith("Usage: rdmasim memory"), r.out());
        }
        assertTrue(run("--help").out().contains("memory"));
    }
}
