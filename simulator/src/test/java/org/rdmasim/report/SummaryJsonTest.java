package org.rdmasim.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rdmasim.hardware.Bottleneck;
import org.rdmasim.memory.RegistrationTotals;
import org.rdmasim.transport.DataPath;
import org.rdmasim.transport.Endpoint;
import org.rdmasim.transport.LaneResult;
import org.rdmasim.transport.Operation;
import org.rdmasim.transport.QpRetry;
import org.rdmasim.transport.TransferResult;
import org.rdmasim.transport.TransferSpec;
import org.rdmasim.workload.Fault;
import org.rdmasim.workload.FaultCost;
import org.rdmasim.workload.FaultPlan;
import org.rdmasim.workload.RunResult;
import org.rdmasim.workload.VariantOutcome;

/**
 * The summary.json contract (README, "Outputs"): field names and meanings, on a hand-made result whose
 * numbers are worked out here from literals (never from the code under test).
 */
class SummaryJsonTest {
    private static TransferSpec spec(String id, String sinkDevice, long bytes) {
        return new TransferSpec(id, new Endpoint("src", "GPU0"), new Endpoint("dst", sinkDevice), bytes, Operation.READ, 1,
                DataPath.GPUDIRECT, DataPath.GPUDIRECT, false, 0);
    }

    private static final Bottleneck DST_RX = new Bottleneck.NicWire("dst", "mlx5_0", Bottleneck.Side.RX, null);
    private static final Bottleneck SRC_TX = new Bottleneck.NicWire("src", "mlx5_1", Bottleneck.Side.TX, null);

    /** Two receiver GPUs of one host: 1e9 bytes each, posted at 0.1 s, done at 0.3 s and 0.5 s. */
    private static RunResult twoTransfers() {
        TransferResult a = new TransferResult(spec("a", "GPU0", 1_000_000_000L), 0.1, 0.3,
                List.of(new LaneResult("mlx5_0", "mlx5_0", 1_000_000_000L, 0.1, 0.3, DST_RX)), DST_RX);
        TransferResult b = new TransferResult(spec("b", "GPU1", 1_000_000_000L), 0.1, 0.5,
                List.of(new LaneResult("mlx5_1", "mlx5_1", 1_000_000_000L, 0.1, 0.5, SRC_TX)), SRC_TX);
        return new RunResult(List.of(a, b), List.of(new RunResult.NicTraffic("src", "mlx5_0", 1_000_000_000L, 0),
                new RunResult.NicTraffic("dst", "mlx5_0", 0, 1_000_000_000L)), List.of(), List.of(), 10, 2);
    }

    /** The variant as summary.json holds it: built, written to a file and read back, as a user reads it. */
    private static JsonNode variant(VariantOutcome o) {
        JsonNode root = written(o);
        assertEquals("s", root.get("scenario").asText());
        assertEquals(7, root.get("provenance").get("seed").asLong());
        return root.get("variants").get(0);
    }

    private static JsonNode written(VariantOutcome o) {
        try {
            java.nio.file.Path file = java.nio.file.Files.createTempFile("summary", ".json");
            try {
                SummaryJson.write(file, SummaryJson.build("s", "question", List.of(o), new Provenance("0.1.0", "ab", 7)));
                return SummaryJson.mapper().readTree(file.toFile());
            } finally {
                java.nio.file.Files.deleteIfExists(file);
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void anOkVariantCarriesTheContractFieldsWithTheirMeaning() {
        RegistrationTotals reg = new RegistrationTotals(16, 2048, 4096, 8192, 0.25, 0.125);
        JsonNode v = variant(new VariantOutcome("v", "d", VariantOutcome.Status.OK, "", twoTransfers(), 1.0, null, reg));
        assertEquals("v", v.get("name").asText());
        assertEquals("ok", v.get("status").asText());
        assertEquals("", v.get("error").asText());
        // a receiver is a sink endpoint: dst:GPU0 got 1e9 bytes in 0.2 s (40 Gbps), dst:GPU1 in 0.4 s (20 Gbps)
        assertEquals(0.4, v.get("makespanSeconds").asDouble(), 1e-12);
        JsonNode r = v.get("receivers").get(1);
        assertEquals("dst:GPU1", r.get("id").asText());
        assertEquals(1_000_000_000L, r.get("bytes").asLong());
        assertEquals(0.1, r.get("startSeconds").asDouble(), 1e-12);
        assertEquals(0.5, r.get("finishSeconds").asDouble(), 1e-12);
        assertEquals(0.4, r.get("pullSeconds").asDouble(), 1e-12);
        assertEquals(20.0, r.get("gbps").asDouble(), 1e-9);
        assertEquals("src:mlx5_1 tx", r.get("bottleneck").asText());
        assertEquals(40.0, v.get("receivers").get(0).get("gbps").asDouble(), 1e-9);
        // 2e9 bytes over the 0.4 s makespan; the mean of 40 and 20
        assertEquals(40.0, v.get("aggregateGbps").asDouble(), 1e-9);
        assertEquals(30.0, v.get("meanReceiverGbps").asDouble(), 1e-9);
        JsonNode nic = v.get("nics").get(0);
        assertEquals("src", nic.get("host").asText());
        assertEquals("mlx5_0", nic.get("name").asText());
        assertEquals(1_000_000_000L, nic.get("txBytes").asLong());
        assertEquals(0, nic.get("rxBytes").asLong());
        JsonNode rg = v.get("registration");
        assertEquals(16, rg.get("mrCount").asLong());
        assertEquals(2048, rg.get("translationBytes").asLong());
        assertEquals(8192, rg.get("pinnedHostBytes").asLong());
        // registrationSeconds is the sum over every GPU process (schema version 1's meaning), the wall the wait
        assertEquals(0.25, rg.get("registrationSeconds").asDouble(), 0.0);
        assertEquals(0.125, rg.get("registrationWallSeconds").asDouble(), 0.0);
        // the first use waits for the registration wall, then the slowest pull (0.4 s)
        assertEquals(0.125 + 0.4, v.get("firstUseSeconds").asDouble(), 1e-12);
        assertFalse(v.has("faults"), "no faults object without faults");
    }

    @Test
    void aFailedVariantSaysSoWithTheStacksError() {
        JsonNode v = variant(VariantOutcome.failed("v", "d", "NIXL_ERR_BACKEND: registration failed", null,
                RegistrationTotals.ZERO));
        assertEquals("failed", v.get("status").asText());
        assertEquals("NIXL_ERR_BACKEND: registration failed", v.get("error").asText());
        assertEquals(0, v.get("receivers").size());
        assertEquals(0.0, v.get("makespanSeconds").asDouble());
    }

    @Test
    void faultsCarryTheirCostAndNeverANaN() {
        FaultPlan plan = new FaultPlan(List.of(new Fault.PortDown("dst", "mlx5_1", 0.05, Double.POSITIVE_INFINITY)),
                QpRetry.UCX_DEFAULT, 0, false, 300);
        // every pull gave up: no mean or slowest pull exists
        FaultCost cost = new FaultCost(plan, 8.64, 0.4, Double.NaN, 0.4, Double.NaN, 0.4, 1, 1);
        VariantOutcome o = new VariantOutcome("v", "d", VariantOutcome.Status.OK, "", twoTransfers(), 1.0, null,
                RegistrationTotals.ZERO).withFaultCost(cost);
        JsonNode f = variant(o).get("faults");
        assertEquals("nic-down", f.get("scheduled").get(0).get("kind").asText());
        assertEquals(0.05, f.get("scheduled").get(0).get("atSeconds").asDouble());
        assertEquals(7, f.get("reaction").get("rcRetryCount").asInt());
        assertEquals(8 * 4.096e-6 * (1 << 18), f.get("reaction").get("qpErrorAfterSeconds").asDouble(), 1e-12);
        assertTrue(f.get("reaction").get("retryDelayAssumed").asBoolean());
        JsonNode c = f.get("cost");
        assertEquals(8.64, c.get("makespanWithSeconds").asDouble());
        assertEquals(0.4, c.get("makespanWithoutSeconds").asDouble());
        assertTrue(c.get("meanPullWithSeconds").isNull());
        assertTrue(c.get("maxPullWithSeconds").isNull());
        assertEquals(1, c.get("gaveUp").asInt());
        assertFalse(written(o).toString().contains("NaN"));
    }
}
