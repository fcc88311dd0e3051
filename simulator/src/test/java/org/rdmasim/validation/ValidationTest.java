package org.rdmasim.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rdmasim.validation.ValidationRow.Evidence;
import org.rdmasim.validation.ValidationRow.Modelled;

/** How rows are judged, and the catalog itself. */
class ValidationTest {
    private static ValidationRow row(double low, double high, double tol, Evidence check, boolean calibration,
            String known, Modelled m) {
        ValidationRow.Builder b = switch (check) {
            case MEASUREMENT -> ValidationRow.measured("x", "src");
            case CONFIGURATION -> ValidationRow.configured("x", "src");
            case EXPECTATION -> ValidationRow.expected("x", "src");
        };
        return b.what("what").setup("setup").published(low, high, "Gbps").tolerance(tol).noScenario()
                .calibration(calibration).knownFailure(known).model(runs -> m);
    }

    private static Validation.Result judge(ValidationRow r) {
        return Validation.run(List.of(r), Path.of("."), id -> { }).get(0);
    }

    @Test
    void aValueWithinTheWidenedRangePassesAndOneOutsideFails() {
        assertTrue(judge(row(100, 100, 0.05, Evidence.MEASUREMENT, false, "", Modelled.value(104.9, ""))).pass());
        assertFalse(judge(row(100, 100, 0.05, Evidence.MEASUREMENT, false, "", Modelled.value(105.1, ""))).pass());
        assertTrue(judge(row(46, 48, 0, Evidence.MEASUREMENT, false, "", Modelled.value(47, ""))).pass());
        assertFalse(judge(row(46, 48, 0, Evidence.MEASUREMENT, false, "", Modelled.value(45.9, ""))).pass());
    }

    @Test
    void anExpectationIsNeverAPassNorCountedWhateverTheModelSays() {
        var flagged = judge(row(0.05, 0.08, 0, Evidence.EXPECTATION, false, "", new Modelled(0.104, true, "")));
        var agrees = judge(row(1232, 1232, 0.05, Evidence.EXPECTATION, false, "", Modelled.value(1232, "")));
        var disagrees = judge(row(1232, 1232, 0.05, Evidence.EXPECTATION, false, "", Modelled.value(616, "")));
        assertEquals(Validation.Verdict.FLAGGED, flagged.verdict());
        assertEquals("flagged", flagged.verdict().words());
        assertEquals(Validation.Verdict.AGREES, agrees.verdict());
        assertEquals(Validation.Verdict.DISAGREES, disagrees.verdict());
        for (var r : List.of(flagged, agrees, disagrees)) {
            assertFalse(r.pass(), "an expectation is never a pass");
            assertFalse(r.counted(), "an expectation is never counted");
        }
        // a disagreeing expectation fails neither exit check: it is not a measurement the model misses
        assertTrue(Validation.allGood(List.of(agrees, disagrees, flagged)));
        assertTrue(Validation.noRegression(List.of(disagrees)));
        Validation.Tally t = Validation.tally(List.of(agrees, disagrees, flagged));
        assertEquals(0, t.measurements());
        assertEquals(3, t.expectations());
        assertEquals(1, t.flagged());
    }

    @Test
    void onlyMeasurementsCountAsMeasurementsAndMultiNicRowsAreTalliedApart() {
        var oneNic = judge(row(100, 100, 0.05, Evidence.MEASUREMENT, false, "", Modelled.value(100, "")));
        var fourNics = judge(row(622, 622, 0.10, Evidence.MEASUREMENT, false, "", Modelled.value(616, "")).onNics(4));
        var config = judge(row(2, 2, 0, Evidence.CONFIGURATION, false, "", Modelled.value(2, "")));
        var calibration = judge(row(308, 308, 0.02, Evidence.MEASUREMENT, true, "", Modelled.value(308, "")));
        Validation.Tally t = Validation.tally(List.of(oneNic, fourNics, config, calibration));
        assertEquals(2, t.measurements());
        assertEquals(2, t.measurementsPassed());
        assertEquals(1, t.multiNic());
        assertEquals(1, t.configurations());
        assertEquals(1, t.calibration());
        assertTrue(config.counted() && !config.countedMeasurement());
    }

    @Test
    void theCatalogCountsNoExpectationAsAMeasurement() {
        // Figures the sources present as expected, estimated or rule-of-thumb values: ModelExpress #449's
        // '4x ceiling' and expected-impact table, nccl-tests #290's 'you should see', AWS's line-rate
        // figure, UCX's XDR note. Each must be an expectation, so none can count as a pass.
        var byId = new java.util.HashMap<String, ValidationRow>();
        ValidationCatalog.rows().forEach(r -> byId.put(r.id(), r));
        for (String id : List.of("MX-449-4X", "MX-449-T1", "MX-449-T2", "MX-449-T3", "NCCL-TESTS-290", "AWS-P5-3200",
                "UCX-XDR-4QP", "GDR-GUIDE-DIRECT", "GDR-GUIDE-STAGED")) {
            assertEquals(Evidence.EXPECTATION, byId.get(id).evidence(), id);
        }
        for (ValidationRow r : byId.values()) {
            if (r.evidence() == Evidence.MEASUREMENT) {
                String words = (r.what() + " " + r.setup()).toLowerCase(java.util.Locale.ROOT);
                for (String sign : List.of("expected", "theoretical", "ceiling", "rule of thumb", "should see")) {
                    assertFalse(words.contains(sign), r.id() + " is counted as a measurement but reads as an "
                            + "expectation ('" + sign + "')");
                }
            }
        }
    }

    /**
     * Only a number fitted to a measurement is calibrated: a row whose figure is an expectation (a vendor guide's
     * range, a proposal's estimate) or configuration arithmetic cannot be one a parameter was fitted to. The
     * GPUDirect guide's staged range was one such row; its staging copy is assumed inside that range.
     */
    @Test
    void everyCalibrationRowOfTheCatalogIsAMeasurement() {
        List<ValidationRow> rows = ValidationCatalog.rows();
        List<String> wrong = rows.stream().filter(r -> r.calibration() && r.evidence() != Evidence.MEASUREMENT)
                .map(r -> r.id() + " (" + r.evidence() + ")").toList();
        assertEquals(List.of(), wrong, "calibration rows that are not measurements");
        assertTrue(rows.stream().filter(ValidationRow::calibration).count() > 10, "the check is not vacuous");
        ValidationRow staged = rows.stream().filter(r -> r.id().equals("GDR-GUIDE-STAGED")).findFirst().orElseThrow();
        assertFalse(staged.calibration());
        assertTrue(staged.dependsOn().stream().anyMatch(d -> d.startsWith("stagingCopy (assumed")), staged.dependsOn()
                .toString());
    }

    /**
     * The staged row's note gives the latency without the assumed staging copy: the GPUDirect row's own latency,
     * since the two paths differ only by the copy on each side.
     */
    @Test
    void theStagedLatencyRowSaysWhatTheLatencyIsWithoutTheAssumedCopy() throws Exception {
        var byId = new java.util.HashMap<String, ValidationRow>();
        ValidationCatalog.rows().forEach(r -> byId.put(r.id(), r));
        Modelled direct = byId.get("GDR-GUIDE-DIRECT").model().compute(null);
        Modelled staged = byId.get("GDR-GUIDE-STAGED").model().compute(null);
        double copy = org.rdmasim.transport.ProtocolParameters.DEFAULT_STAGING_COPY_SECONDS * 1e6;
        assertEquals(direct.value() + 2 * copy, staged.value(), 1e-9, "a staged path adds the copy on each side");
        assertTrue(staged.note().contains(String.format(java.util.Locale.ROOT, "without it %.4g us", direct.value())),
                staged.note());
    }

    /**
     * ModelExpress #449 states no UCX install, and the answer turns on it: its 4x and 0.10 s rows say the answer
     * under each install, each run from seed003's variant and its ucx-prefix twin, as PR #450's rows do.
     */
    @Test
    void the449HeadlineExpectationsSayTheAnswerUnderEachInstall() throws Exception {
        Path scenarios = Path.of(System.getProperty("rdmasim.repo", "..")).resolve("scenarios");
        var byId = new java.util.HashMap<String, ValidationRow>();
        ValidationCatalog.rows().forEach(r -> byId.put(r.id(), r));
        ScenarioRuns runs = new ScenarioRuns(scenarios);
        String seed = "seed003-nic-pin-vs-stripe.yaml";
        Modelled bw = byId.get("MX-449-4X").model().compute(runs);
        Modelled pull = byId.get("MX-449-T2").model().compute(runs);
        assertEquals(runs.receiverGbps(seed, "gb200-stripe-4-rails"), bw.value());
        assertTrue(bw.note().contains(String.format(java.util.Locale.ROOT, "installed into a prefix): %.4g Gbps",
                runs.receiverGbps(seed, "gb200-stripe-4-rails-ucx-prefix"))), bw.note());
        assertTrue(pull.note().contains(String.format(java.util.Locale.ROOT, "installed into a prefix): %.4g s",
                runs.pullSeconds(seed, "gb200-stripe-4-rails-ucx-prefix"))), pull.note());
        // the two installs differ by 2x: the note is not decoration
        assertEquals(2, runs.receiverGbps(seed, "gb200-stripe-4-rails-ucx-prefix") / bw.value(), 0.05);
    }

    @Test
    void aKnownFailureFailsTheBareRunButNotTheRegressionCheckWhileACalibrationRowDecidesNeither() {
        var failingCalibration = judge(row(100, 100, 0, Evidence.MEASUREMENT, true, "", Modelled.value(90, "")));
        var knownFailure = judge(row(100, 100, 0, Evidence.MEASUREMENT, false, "not modelled", Modelled.value(90, "")));
        var unexpected = judge(row(100, 100, 0, Evidence.MEASUREMENT, false, "not modelled", Modelled.value(100, "")));
        var failing = judge(row(100, 100, 0, Evidence.MEASUREMENT, false, "", Modelled.value(90, "")));
        var passing = judge(row(100, 100, 0, Evidence.MEASUREMENT, false, "", Modelled.value(100, "")));
        assertTrue(Validation.allGood(List.of(failingCalibration, passing)));
        assertTrue(knownFailure.counted());
        assertFalse(failingCalibration.counted());
        assertEquals(Validation.Verdict.KNOWN_FAILURE, knownFailure.verdict());
        assertFalse(Validation.allGood(List.of(passing, knownFailure)), "exit 0 only when every counted row passes");
        assertTrue(Validation.noRegression(List.of(passing, knownFailure, failingCalibration)));
        assertEquals(Validation.Verdict.UNEXPECTED_PASS, unexpected.verdict());
        assertFalse(Validation.allGood(List.of(unexpected)));
        assertFalse(Validation.noRegression(List.of(unexpected)), "a known failure that passes must lose its label");
        assertFalse(Validation.allGood(List.of(failing)));
        assertFalse(Validation.noRegression(List.of(failing)), "a row that passed and fails is a regression");
    }

    @Test
    void aRowWhoseModelThrowsIsAnError() {
        var r = judge(ValidationRow.measured("x", "s").what("w").setup("s").published(1, "u").tolerance(0).noScenario()
                .model(runs -> {
                    throw new IllegalStateException("boom");
                }));
        assertEquals(Validation.Verdict.ERROR, r.verdict());
        assertFalse(Validation.allGood(List.of(r)));
    }

    @Test
    void theCatalogHoldsAtLeastTwentyDistinctRowsEachWithASource() {
        List<ValidationRow> rows = ValidationCatalog.rows();
        assertTrue(rows.size() >= 20, "rows: " + rows.size());
        assertEquals(rows.size(), new HashSet<>(rows.stream().map(ValidationRow::id).toList()).size());
        for (ValidationRow r : rows) {
            assertFalse(r.source().isBlank(), r.id());
            assertFalse(r.setup().isBlank(), r.id());
        }
    }

    @Test
    void theRegistrationRowsTheTermsWereFittedToAreCalibrationAndTheOthersAreCounted() {
        var byId = new java.util.HashMap<String, ValidationRow>();
        ValidationCatalog.rows().forEach(r -> byId.put(r.id(), r));
        // GpuRegistrationCalibration fits its terms to PR #450's two times and PR #267's target pair
        for (String id : List.of("MX-450-REG-PIN", "MX-450-REG-STRIPE", "MX-267-TGT-339", "MX-267-TGT-59")) {
            assertTrue(byId.get(id).calibration(), id + " was fitted, so it cannot count");
        }
        for (String id : List.of("MX-267-SRC-339", "MX-267-SRC-59", "MX-BENCH-ARENA", "MX-BENCH-TENSOR",
                "MX-BENCH-POOL")) {
            ValidationRow r = byId.get(id);
            assertFalse(r.calibration(), id);
            assertEquals(Evidence.MEASUREMENT, r.evidence(), id);
            assertTrue(r.tolerance() <= 0.10, id);
            assertTrue(r.dependsOn().stream().anyMatch(d -> d.contains("calibrated")), id + " names the terms");
        }
    }

    /**
     * ModelExpress docs/BENCHMARKS.md (eb961226, L41-43) times three registration granularities of one model on
     * one host: per tensor 8.16 s, pool 1.14 s, arena 0.79 s. The rows pose all three alike (host, releases,
     * bytes per rank) so they differ only in registrations per rank: the model's answers then differ by exactly
     * the per-call and per-MR costs of the extra registrations, and order as the calls do. Per tensor registers
     * pool's allocations (UCX registers a tensor's whole allocation and caches it), so its extra calls are cache
     * hits that pay the call alone. The per-tensor and arena rows are missed, so each says why; pool passes.
     */
    @Test
    void theThreeBenchmarkRegistrationRowsDifferOnlyInRegistrationsPerRank() throws Exception {
        var byId = new java.util.HashMap<String, ValidationRow>();
        ValidationCatalog.rows().forEach(r -> byId.put(r.id(), r));
        ValidationRow arena = byId.get("MX-BENCH-ARENA");
        ValidationRow tensor = byId.get("MX-BENCH-TENSOR");
        ValidationRow pool = byId.get("MX-BENCH-POOL");
        assertEquals(8.16, tensor.low());
        assertEquals(1.14, pool.low());
        assertEquals(0.79, arena.low());
        for (ValidationRow r : List.of(tensor, pool)) {
            assertTrue(r.setup().startsWith(arena.setup() + "; "), r.id() + " is posed as the arena row is");
            assertEquals(arena.dependsOn(), r.dependsOn(), r.id());
            assertEquals(arena.tolerance(), r.tolerance(), r.id());
            assertTrue(r.source().contains("eb961226") && r.source().contains("BENCHMARKS.md"), r.id());
        }
        assertFalse(tensor.knownFailure().isBlank(), "per tensor is missed, so it says why");
        assertFalse(arena.knownFailure().isBlank(), "the arena is missed, so it says why");
        assertTrue(pool.knownFailure().isBlank(), "pool passes");
        // these rows run no scenario
        double a = arena.model().compute(null).value();
        double t = tensor.model().compute(null).value();
        double p = pool.model().compute(null).value();
        assertTrue(a < p && p < t, a + " < " + p + " < " + t);
        var terms = org.rdmasim.memory.RegistrationParameters.defaults();
        // a cache hit pays the call alone; a new allocation adds the GPU's own HCA's two MRs
        int hits = ValidationCatalog.DEEPSEEK_V4_PRO_RANK_TENSORS - ValidationCatalog.DEEPSEEK_V4_PRO_RANK_ALLOCATIONS;
        assertEquals(hits * terms.gpuPerCallSeconds(), t - p, 1e-9);
        assertEquals((ValidationCatalog.DEEPSEEK_V4_PRO_RANK_ALLOCATIONS - 1)
                * (terms.gpuPerCallSeconds() + 2 * terms.perMrSeconds()), p - a, 1e-9);
        assertTrue(Math.abs(p / pool.low() - 1) <= pool.tolerance(), "pool within its 10%: " + p);
        assertTrue(t < tensor.low() * (1 - tensor.tolerance()), "per tensor is far below 8.16 s: " + t);
        assertTrue(a > arena.high() * (1 + arena.tolerance()), "the arena is over 0.79 s: " + a);
    }

    /**
     * The two-NIC phase of pegaflow-cpu-bench's whole-machine run (novitalabs/pegaflow
     * docs/projects/cpu-bench-all-nics.md at db642d6, its 'Execution Log': one NIC ~361 Gbps WRITE / ~304 READ,
     * the two NICs of one NUMA node ~717 / ~584-606): counted two-NIC measurements whose model is two one-QP
     * lanes on the socket's own NICs. WRITE has no per-QP limit in rdmasim, so each lane runs at the RoCE
     * payload rate (400 Gbps x 0.9804); READ is held to the 320 Gbps the connectx7 profile calibrates.
     */
    @Test
    void theNumaNodeRowsOfTheAllNicRunAreCountedTwoNicMeasurementsOfTwoOneQpLanes() {
        var byId = new java.util.HashMap<String, ValidationRow>();
        ValidationCatalog.rows().forEach(r -> byId.put(r.id(), r));
        ValidationRow write = byId.get("PEGA-ALL-W-2NIC");
        ValidationRow read = byId.get("PEGA-ALL-R-2NIC");
        assertEquals(717, write.low());
        assertEquals(717, write.high());
        assertEquals(584, read.low());
        assertEquals(606, read.high());
        for (ValidationRow r : List.of(write, read, byId.get("PEGA-ALL-W-2NIC-SCALE"), byId.get("PEGA-ALL-R-2NIC-SCALE"))) {
            assertEquals(Evidence.MEASUREMENT, r.evidence(), r.id());
            assertFalse(r.calibration(), r.id());
            assertEquals(2, r.nics(), r.id());
            assertTrue(r.source().contains("cpu-bench-all-nics.md"), r.id());
        }
        assertEquals(List.of("connectx7.qpReadRate"), read.dependsOn(), "the READ rests on the calibrated QP rate");
        // the published ratios: 717 / 361, and 584-606 over 304
        assertEquals(717.0 / 361, byId.get("PEGA-ALL-W-2NIC-SCALE").low(), 1e-3);
        assertEquals(584.0 / 304, byId.get("PEGA-ALL-R-2NIC-SCALE").low(), 1e-3);
        assertEquals(606.0 / 304, byId.get("PEGA-ALL-R-2NIC-SCALE").high(), 1e-3);

        Path scenarios = Path.of(System.getProperty("rdmasim.repo", "..")).resolve("scenarios");
        List<Validation.Result> results = Validation.run(List.of(write, read, byId.get("PEGA-ALL-W-2NIC-SCALE"),
                byId.get("PEGA-ALL-R-2NIC-SCALE")), scenarios, id -> { });
        double roceLane = 400 * org.rdmasim.hardware.LinkLayer.ROCE.wireEfficiency();
        assertEquals(2 * roceLane, results.get(0).modelled(), 0.5, "two WRITE lanes at the RoCE payload rate");
        assertEquals(2 * 320, results.get(1).modelled(), 0.5, "two READ lanes at the calibrated one-QP rate");
        // neither is reproduced: the one-QP rates of this run sit below the model's, which the rows say
        assertEquals(Validation.Verdict.KNOWN_FAILURE, results.get(0).verdict());
        assertEquals(Validation.Verdict.KNOWN_FAILURE, results.get(1).verdict());
        // the scaling of one NUMA node's two NICs over one is what the model gets right
        assertEquals(2, results.get(2).modelled(), 1e-3);
        assertEquals(2, results.get(3).modelled(), 1e-3);
        assertTrue(results.get(2).pass() && results.get(3).pass());
    }

    @Test
    void jsonCarriesTheContractFields() {
        var result = judge(row(100, 100, 0.05, Evidence.MEASUREMENT, false, "", Modelled.value(100, "")));
        String json = ValidationReport.json(List.of(result));
        for (String field : List.of("\"id\"", "\"source\"", "\"published\"", "\"modelled\"", "\"unit\"",
                "\"tolerance\"", "\"pass\": true", "\"verdict\": \"pass\"", "\"calibration\": false")) {
            assertTrue(json.contains(field), field + " in " + json);
        }
        assertFalse(json.contains("fitWithinTolerance"), "only a calibration row says whether its fit holds");
    }

    @Test
    void aRowThatDependsOnNoParameterHasNoEmptyDependsOnLine() {
        var result = judge(row(100, 100, 0.05, Evidence.MEASUREMENT, false, "", Modelled.value(100, "")));
        assertTrue(result.row().dependsOn().isEmpty(), "the fixture names no parameter");
        assertFalse(ValidationReport.html(List.of(result)).contains("depends on:"), "no line with nothing after it");
    }

    /**
     * A row the model was fitted to cannot pass: within tolerance it is "fitted", its JSON says pass false and
     * fitWithinTolerance true; out of tolerance, FAIL and fitWithinTolerance false (the fit no longer holds).
     */
    @Test
    void aCalibrationRowIsFittedNeverAPass() throws Exception {
        var fitted = judge(row(308, 308, 0.02, Evidence.MEASUREMENT, true, "", Modelled.value(308, "")));
        var broken = judge(row(308, 308, 0.02, Evidence.MEASUREMENT, true, "", Modelled.value(250, "")));
        assertEquals(Validation.Verdict.FITTED, fitted.verdict());
        assertEquals("fitted", fitted.verdict().words());
        assertFalse(fitted.pass());
        assertTrue(fitted.withinTolerance());
        assertEquals(Validation.Verdict.FAIL, broken.verdict());
        assertFalse(broken.withinTolerance());
        var rows = new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(ValidationReport.json(List.of(fitted, broken))).get("rows");
        assertFalse(rows.get(0).get("pass").asBoolean());
        assertEquals("fitted", rows.get(0).get("verdict").asText());
        assertTrue(rows.get(0).get("fitWithinTolerance").asBoolean());
        assertFalse(rows.get(1).get("pass").asBoolean());
        assertFalse(rows.get(1).get("fitWithinTolerance").asBoolean());
        assertTrue(ValidationReport.html(List.of(fitted)).contains("fitted (calibration, not counted)"));
        // neither decides the exit status: a calibration row is not counted
        assertTrue(Validation.allGood(List.of(fitted, broken)));
    }

    /** validation.json is one object with its version and the tally the table prints, over the rows it holds. */
    @Test
    void jsonIsOneVersionedObjectWhoseTallyCountsItsRows() throws Exception {
        var passing = judge(row(100, 100, 0.05, Evidence.MEASUREMENT, false, "", Modelled.value(101, "")));
        var failing = judge(row(100, 100, 0.05, Evidence.MEASUREMENT, false, "", Modelled.value(150, "")));
        var calibration = judge(row(100, 100, 0.05, Evidence.MEASUREMENT, true, "", Modelled.value(100, "")));
        var doc = new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(ValidationReport.json(List.of(passing, failing, calibration)));
        assertEquals(ValidationReport.SCHEMA_VERSION, doc.get("schemaVersion").asInt());
        assertEquals("validate", doc.get("command").asText());
        assertEquals(3, doc.get("rows").size());
        var tally = doc.get("tally");
        assertEquals(3, tally.get("rows").asInt());
        assertEquals(2, tally.get("measurements").asInt(), "the calibration row is not counted");
        assertEquals(1, tally.get("measurementsPassed").asInt());
        assertEquals(1, tally.get("calibration").asInt());
        int passedInRows = 0;
        for (var r : doc.get("rows")) {
            passedInRows += r.get("counted").asBoolean() && r.get("pass").asBoolean() ? 1 : 0;
        }
        assertEquals(tally.get("measurementsPassed").asInt(), passedInRows);
    }
}
