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
 * compare: what a configuration change bought, on two variants of the ModelExpress #449 scenario
 * [mx-issue-449]; bad input exits 2.
 */
class CompareCommandTest {
    @TempDir
    Path dir;

    @Test
    void aMissingFileAloneIsSaidToBeMissing() {
        CliTestSupport.Outcome o = CliTestSupport.run("compare", dir.resolve("nowhere.json").toString());
        assertEquals(2, o.code(), o.err());
        assertTrue(o.err().contains("no such file") && !o.err().contains("give two variants"), o.err());
    }

    @Test
    void twoVariantsOfSeed003SideBySide() throws IOException {
        Path scenario = CliTestSupport.repo().resolve("scenarios/seed003-nic-pin-vs-stripe.yaml");
        assertEquals(0, CliTestSupport.run("run", scenario.toString(), "--out", dir.toString(), "-q").code());
        String summary = dir.resolve("summary.json").toString();
        CliTestSupport.Outcome o = CliTestSupport.run("compare", summary, "--variant", "gb200-mx-pin-auto",
                "--variant", "gb200-stripe-4-rails-ucx-prefix");
        assertEquals(0, o.code(), o.err());
        assertTrue(o.out().lines().anyMatch(l -> l.startsWith("slowest pull (s)") && l.contains("0.4156")
                && l.contains("0.1039") && l.endsWith("x0.25 (better)")), o.out());
        assertTrue(o.out().lines().anyMatch(l -> l.startsWith("aggregate (Gbps)") && l.endsWith("x4 (better)")), o.out());
        // striping registers on 4 NICs: a longer registration wall (0.1668 s -> 0.4697 s, one GPU a host), which
        // eats most of the faster pull: 0.5824 s -> 0.5736 s to first use
        assertTrue(o.out().lines().anyMatch(l -> l.startsWith("registration wall (s)") && l.contains("0.1668")
                && l.contains("0.4697") && l.endsWith("(worse)")), o.out());
        assertTrue(o.out().lines().anyMatch(l -> l.startsWith("registration sum (s)") && l.contains("0.3337")
                && l.contains("0.9395")), o.out());
        assertTrue(o.out().lines().anyMatch(l -> l.startsWith("to first use (s)") && l.contains("0.5824")
                && l.contains("0.5736") && l.endsWith("(better)")), o.out());
        // a summary.json from before the wall was reported: the sum is there, the wall and first use are not
        var mapper = new com.fasterxml.jackson.databind.ObjectMapper();
        var old = (com.fasterxml.jackson.databind.node.ObjectNode) mapper.readTree(dir.resolve("summary.json").toFile());
        for (var v : old.get("variants")) {
            ((com.fasterxml.jackson.databind.node.ObjectNode) v).remove("firstUseSeconds");
            var reg = (com.fasterxml.jackson.databind.node.ObjectNode) v.get("registration");
            reg.remove("registrationWallSeconds");
        }
        Path before = dir.resolve("before.json");
        mapper.writeValue(before.toFile(), old);
        CliTestSupport.Outcome mixed = CliTestSupport.run("compare", before.toString(), summary, "--variant",
                "gb200-mx-pin-auto");
        assertEquals(0, mixed.code(), mixed.err());
        assertTrue(mixed.out().lines().anyMatch(l -> l.startsWith("registration sum (s)") && l.endsWith("same")),
                mixed.out());
        assertTrue(mixed.out().lines().anyMatch(l -> l.startsWith("registration wall (s)")
                && l.endsWith("not in both summaries")), mixed.out());
        // each lane's share of the transfer's bytes (summary.json's lanes[].bytes): pinned, one NIC's two paths
        // split 16 GB in halves; striped over 4 NICs with ucx.conf read, a quarter each
        assertTrue(o.out().lines().anyMatch(l -> l.startsWith("lanes") && l.contains("mlx5_0 path0 8 GB (50%) 154 Gbps")
                && l.contains("mlx5_0 path0 4 GB (25%) 308 Gbps") && l.endsWith("changed")), o.out());
        CliTestSupport.Outcome json = CliTestSupport.run("compare", summary, "--variant", "gb200-mx-pin-auto",
                "--variant", "gb200-stripe-4-rails-ucx-prefix", "--json");
        assertEquals(0, json.code(), json.err());
        var lanesRow = java.util.stream.StreamSupport.stream(new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(json.out()).get("pairs").get(0).get("rows").spliterator(), false)
                .filter(r -> r.get("what").asText().equals("lanes")).findFirst().orElseThrow();
        assertEquals("mlx5_0 path0 8 GB (50%) 154 Gbps, mlx5_0 path1 8 GB (50%) 154 Gbps", lanesRow.get("a").asText());
        assertEquals("mlx5_0 path0 4 GB (25%) 308 Gbps, mlx5_1 path0 4 GB (25%) 308 Gbps, mlx5_2 path0 4 GB (25%) "
                + "308 Gbps, mlx5_3 path0 4 GB (25%) 308 Gbps", lanesRow.get("b").asText());
        // the same variant names in two runs: A and B
        CliTestSupport.Outcome two = CliTestSupport.run("compare", summary, summary, "--variant", "gb200-mx-pin-auto");
        assertEquals(0, two.code(), two.err());
        assertTrue(two.out().contains("A gb200-mx-pin-auto") && two.out().contains("same"), two.out());
        assertTrue(!two.out().contains("better") && !two.out().contains("worse"), "equal values are the same: " + two.out());
        // differently named variants of two runs, paired by the user
        CliTestSupport.Outcome paired = CliTestSupport.run("compare", summary, summary, "--variant",
                "gb200-mx-pin-auto=gb200-stripe-4-rails-ucx-prefix");
        assertEquals(0, paired.code(), paired.err());
        assertTrue(paired.out().contains("A gb200-mx-pin-auto") && paired.out().contains("B gb200-stripe-4-rails-ucx-prefix")
                && paired.out().lines().anyMatch(l -> l.startsWith("aggregate (Gbps)") && l.endsWith("x4 (better)")),
                paired.out());
        // a report folder stands for its summary.json: the same comparison, byte for byte
        CliTestSupport.Outcome folders = CliTestSupport.run("compare", dir.toString(), dir.toString(), "--variant",
                "gb200-mx-pin-auto=gb200-stripe-4-rails-ucx-prefix");
        assertEquals(0, folders.code(), folders.err());
        assertEquals(paired.out(), folders.out());
    }

    /**
     * Two refit variants compare by their cycles, from the committed report: pull registers every tensor
     * in its first cycle on each of the 8 HCAs UCX maps it on (0.9645 s of 1.1132 s) and moves 70.6 GB a cycle; NCCL send/recv registers
     * nothing and moves 107.3 GB. A refit lists no receivers, so a "slowest pull" would read 0.
     */
    @Test
    void twoRefitVariantsCompareWallCyclesRegistrationWireAndBound() {
        Path report = CliTestSupport.repo().resolve("reports/refit-moe-methods");
        CliTestSupport.Outcome o = CliTestSupport.run("compare", report.toString(), "--variant", "rdma-pull",
                "--variant", "nccl-p2p");
        assertEquals(0, o.code(), o.err());
        assertFalse(o.out().contains("slowest pull"), o.out());
        // nccl-p2p pays its 144 xferdtensor calls' host work every cycle (refit.reshardCallSeconds), no registration
        assertTrue(o.out().lines().anyMatch(l -> l.startsWith("wall, all cycles (s)") && l.contains("1.262")
                && l.contains("1.59") && l.endsWith("(worse)")), o.out());
        assertTrue(o.out().lines().anyMatch(l -> l.startsWith("first cycle (s)") && l.contains("1.113")
                && l.contains("0.7951")), o.out());
        assertTrue(o.out().lines().anyMatch(l -> l.startsWith("steady cycle (s)") && l.contains("0.1486")
                && l.contains("0.7951")), o.out());
        assertTrue(o.out().lines().anyMatch(l -> l.startsWith("1st cycle register (s)") && l.contains("0.9645")), o.out());
        assertTrue(o.out().lines().anyMatch(l -> l.startsWith("wire GB a cycle") && l.contains("70.62")
                && l.contains("107.3") && l.endsWith("(worse)")), o.out());
        assertTrue(o.out().lines().anyMatch(l -> l.startsWith("steady cycle bound")
                && l.contains("transmit line rate on t1") && l.endsWith("changed")), o.out());
        // the same in JSON, exactly: the first cycle's register stage as summary.json has it
        CliTestSupport.Outcome json = CliTestSupport.run("compare", report.toString(), "--variant", "rdma-pull",
                "--variant", "nccl-p2p", "--json");
        assertEquals(0, json.code(), json.err());
        assertTrue(json.out().contains("0.9645324741693135"), json.out());
        // colocated: no wire, the walls 5.18 s and 3.529 s, same bound
        CliTestSupport.Outcome col = CliTestSupport.run("compare", CliTestSupport.repo().resolve("reports/refit-colocated")
                .toString(), "--variant", "gpu-resident", "--variant", "prefetch-2gib");
        assertEquals(0, col.code(), col.err());
        assertTrue(col.out().lines().anyMatch(l -> l.startsWith("wall, all cycles (s)") && l.contains("5.18")
                && l.contains("3.529")), col.out());
        assertTrue(col.out().lines().anyMatch(l -> l.startsWith("steady cycle (s)") && l.contains("2.59")
                && l.contains("1.764")), col.out());
    }

    /** A refit's figures are per cycle and a pull's per receiver: pairing the two is refused, exit 2. */
    /**
     * A variant that failed has no figures: summary.json holds zeros for it, which compare must not show as a
     * pull of 0 s or a registration of 0 s. Its cells read "-" (null in JSON) and the error it stopped on is given.
     */
    /**
     * With two runs, {@code --variant NAME} keeps that variant of both. A name one run lacks was dropped in silence:
     * with nothing left the refusal read "no variant name is in both A (x, y) and B (x, y)", naming the same variants
     * on both sides. Now the run that lacks it is named, exit 2.
     */
    @Test
    void aVariantNameOneRunLacksIsNamed() {
        String summary = CliTestSupport.repo().resolve("reports/registration-caps/summary.json").toString();
        CliTestSupport.Outcome o = CliTestSupport.run("compare", summary, summary, "--variant", "nixl-default-tyr");
        assertEquals(2, o.code(), o.err());
        assertTrue(o.err().startsWith("rdmasim: error: " + summary + " has no variant 'nixl-default-tyr' (variants: "
                + "nixl-default-try, relaxed-ordering-auto"), o.err());
        CliTestSupport.Outcome ok = CliTestSupport.run("compare", summary, summary, "--variant", "relaxed-ordering-auto");
        assertEquals(0, ok.code(), ok.err());
        assertTrue(ok.out().contains("A relaxed-ordering-auto") && !ok.out().contains("nixl-default-try"), ok.out());
    }

    @Test
    void aFigureThatGoesToZeroOrStaysZeroSaysSo() {
        // pix-staged has no GPUDirect: no NIC registers GPU memory, so its registration wall and sum are 0; the
        // change column was left blank both for 0.00082 s -> 0 and for 0 against 0
        String summary = CliTestSupport.repo().resolve("reports/gpudirect-vs-staging/summary.json").toString();
        CliTestSupport.Outcome o = CliTestSupport.run("compare", summary, "--variant", "pix-gpudirect",
                "--variant", "pix-staged");
        assertEquals(0, o.code(), o.err());
        assertTrue(o.out().lines().anyMatch(l -> l.startsWith("registration wall (s)") && l.endsWith("to 0 (better)")),
                o.out());
        assertTrue(o.out().lines().anyMatch(l -> l.startsWith("status") && l.endsWith("same")), o.out());
        CliTestSupport.Outcome zero = CliTestSupport.run("compare", summary, "--variant", "pix-staged",
                "--variant", "sys-staged");
        assertTrue(zero.out().lines().anyMatch(l -> l.startsWith("registration sum (s)") && l.endsWith("same")),
                zero.out());
        // the two staged pulls differ in the fifth digit: the ratio keeps the digits that show it
        assertTrue(zero.out().lines().anyMatch(l -> l.startsWith("slowest pull (s)") && l.matches(".*x1\\.0000\\d+ \\(worse\\)")),
                zero.out());
    }

    @Test
    void aThirdSummaryIsRefusedRatherThanLeftUnread() {
        String summary = CliTestSupport.repo().resolve("reports/gpudirect-vs-staging/summary.json").toString();
        String other = CliTestSupport.repo().resolve("reports/registration-caps/summary.json").toString();
        CliTestSupport.Outcome o = CliTestSupport.run("compare", summary, summary, other);
        assertEquals(2, o.code(), o.out());
        assertTrue(o.err().contains("give one or two summary.json files, got 3"), o.err());
        assertEquals("", o.out());
    }

    @Test
    void aFailedVariantShowsNoFiguresAndItsError() throws IOException {
        String summary = CliTestSupport.repo().resolve("reports/registration-caps/summary.json").toString();
        CliTestSupport.Outcome o = CliTestSupport.run("compare", summary, "--variant", "nixl-default-try",
                "--variant", "relaxed-ordering-auto");
        assertEquals(0, o.code(), o.err());
        assertTrue(o.out().lines().anyMatch(l -> l.startsWith("slowest pull (s)") && l.contains(" - ")
                && l.endsWith("nixl-default-try failed") && !l.contains(" 0 ")), o.out());
        assertTrue(o.out().lines().anyMatch(l -> l.startsWith("registration sum (s)") && !l.contains(" 0 ")), o.out());
        assertTrue(o.out().lines().anyMatch(l -> l.startsWith("error") && l.contains("registration on host a failed")),
                o.out());
        CliTestSupport.Outcome json = CliTestSupport.run("compare", summary, "--variant", "nixl-default-try",
                "--variant", "relaxed-ordering-auto", "--json");
        var rows = new com.fasterxml.jackson.databind.ObjectMapper().readTree(json.out()).get("pairs").get(0).get("rows");
        boolean seen = false;
        for (var r : rows) {
            if (r.get("what").asText().equals("slowest pull (s)")) {
                assertTrue(r.get("a").isNull() && r.get("b").isNumber() && r.get("b").asDouble() > 0, r.toString());
                seen = true;
            }
        }
        assertTrue(seen, rows.toString());
    }

    @Test
    void aRefitVariantBesideOneThatIsNotIsRefused() {
        Path refit = CliTestSupport.repo().resolve("reports/refit-moe-methods");
        Path pull = CliTestSupport.repo().resolve("reports/seed003-nic-pin-vs-stripe");
        CliTestSupport.Outcome o = CliTestSupport.run("compare", refit.toString(), pull.toString(), "--variant",
                "rdma-pull=gb200-mx-pin-auto");
        assertEquals(2, o.code(), o.out());
        assertTrue(o.err().contains("variant 'rdma-pull' of ") && o.err().contains("is a refit and variant "
                + "'gb200-mx-pin-auto' of ") && o.err().contains("is not"), o.err());
        assertTrue(o.out().isEmpty(), "nothing printed: " + o.out());
    }

    @Test
    void badInputNamesWhatIsMissing() throws Exception {
        Files.writeString(dir.resolve("x.json"), "{\"variants\": [{\"name\": \"a\"}]}");
        CliTestSupport.Outcome missing = CliTestSupport.run("compare", dir.resolve("x.json").toString(), "--variant", "a",
                "--variant", "b");
        assertEquals(2, missing.code());
        assertTrue(missing.err().contains("has no variant 'b' (variants: a)"), missing.err());
        assertEquals(2, CliTestSupport.run("compare", dir.resolve("x.json").toString()).code());
        assertEquals(2, CliTestSupport.run("compare", dir.resolve("nope.json").toString(), "--variant", "a",
                "--variant", "a").code());
        // two runs with no variant name in common: the message gives the form that pairs them
        Files.writeString(dir.resolve("y.json"), "{\"variants\": [{\"name\": \"b\"}]}");
        CliTestSupport.Outcome disjoint = CliTestSupport.run("compare", dir.resolve("x.json").toString(),
                dir.resolve("y.json").toString());
        assertEquals(2, disjoint.code());
        assertTrue(disjoint.err().contains("--variant A=B, e.g. --variant a=b"), disjoint.err());
        assertFalse(disjoint.err().contains("two variants of one file"), disjoint.err());
        // a folder with no summary.json is said to be one, with the file to give
        Path empty = Files.createDirectories(dir.resolve("not-a-report"));
        CliTestSupport.Outcome folder = CliTestSupport.run("compare", empty.toString(), dir.resolve("x.json").toString());
        assertEquals(2, folder.code());
        assertTrue(folder.err().contains(empty + " is a folder with no summary.json in it"), folder.err());
        Files.writeString(dir.resolve("bad.json"), "{not json");
        CliTestSupport.Outcome bad = CliTestSupport.run("compare", dir.resolve("bad.json").toString(), "--variant", "a",
                "--variant", "a");
        assertEquals(2, bad.code());
        assertTrue(bad.err().contains("bad.json:1:2: not valid JSON"), bad.err());
        assertFalse(bad.err().contains("not json"), "the content is not quoted: " + bad.err());
    }

    @Test
    void aVariantWithNoNameOrANumericOrNullNameIsBadInputNotATrace() throws IOException {
        for (String[] c : new String[][] {
                {"{\"variants\": [{\"status\": \"ok\"}]}", "variant 1 of the 'variants' list has no 'name'"},
                {"{\"variants\": [{\"name\": \"a\"}, {\"name\": 7}]}", "variant 2 of the 'variants' list has a number 'name'"},
                {"{\"variants\": [{\"name\": null}]}", "variant 1 of the 'variants' list has a null 'name'"},
                {"{\"variants\": [3]}", "variant 1 of the 'variants' list has no fields"}}) {
            Path f = Files.writeString(dir.resolve("odd.json"), c[0]);
            CliTestSupport.Outcome one = CliTestSupport.run("compare", f.toString(), "--variant", "a", "--variant", "a");
            CliTestSupport.Outcome two = CliTestSupport.run("compare", f.toString(), f.toString());
            for (CliTestSupport.Outcome o : new CliTestSupport.Outcome[] {one, two}) {
                assertEquals(2, o.code(), c[0] + ": " + o.err());
                assertTrue(o.err().contains("odd.json: " + c[1]), o.err());
                assertFalse(o.err().contains("internal error") || o.err().contains("Exception"), o.err());
            }
        }
    }

    /**
     * Two committed demo runs of different scenarios, paired with --variant A=B: the output says first that the pair
     * crosses scenarios (and --json carries it), where two runs of one scenario say nothing of the kind.
     */
    @Test
    void runsOfTwoScenariosAreSaidToBeSo() {
        String a = CliTestSupport.repo().resolve("reports/max-rma-rails-2-vs-4/summary.json").toString();
        String b = CliTestSupport.repo().resolve("reports/dgx-h100-nic-pin-vs-stripe/summary.json").toString();
        CliTestSupport.Outcome o = CliTestSupport.run("compare", a, b, "--variant", "dgx-rails-1=one-nic-pinned");
        assertEquals(0, o.code(), o.err());
        assertTrue(o.out().startsWith("A is scenario 'max-rma-rails-2-vs-4', B is scenario 'dgx-h100-nic-pin-vs-stripe': "
                + "the variants paired below come from different scenarios"), o.out());
        CliTestSupport.Outcome json = CliTestSupport.run("compare", a, b, "--variant", "dgx-rails-1=one-nic-pinned", "--json");
        assertTrue(json.out().contains("\"differentScenarios\""), json.out());
        CliTestSupport.Outcome same = CliTestSupport.run("compare", a, a);
        assertEquals(0, same.code(), same.err());
        assertFalse(same.out().contains("different scenarios"), same.out());
    }
}
