package org.rdmasim.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.rdmasim.hardware.Bottleneck;
import org.rdmasim.scenario.Scenario;
import org.rdmasim.scenario.ScenarioException;
import org.rdmasim.scenario.ScenarioLoader;
import org.rdmasim.transport.LaneResult;
import org.rdmasim.transport.QpRetry;
import org.rdmasim.transport.TransferResult;
import org.rdmasim.workload.FanoutResult;
import org.rdmasim.workload.VariantOutcome;

/** Faults in a run against hand calculations: a two-lane pull with a port down, a source lost mid-fan-out. */
class FaultScenarioTest {
    private static final double TICK = QpRetry.UCX_DEFAULT.tickSeconds();

    /** GB200 trays, one 16 GB WRITE over two rails (mlx5_0 and mlx5_1 on both sides); {@code faults} appended. */
    private static VariantOutcome twoLanes(String faults) {
        String yaml = """
                name: two-lane-fault
                hosts:
                  source: {preset: gb200-tray}
                  receiver: {preset: gb200-tray}
                transport:
                  operation: write
                  nixl: "1.1.0"
                  ucx: "1.20.0"
                  env: "UCX_NET_DEVICES=mlx5_0:1,mlx5_1:1\\nUCX_MAX_RMA_RAILS=2\\n"
                workload:
                  transfers:
                    - {from: "source:GPU0", to: "receiver:GPU0", size: 16 GB}
                """ + faults;
        Scenario s = ScenarioLoader.parse(yaml, "two-lane-fault.yaml");
        VariantOutcome o = VariantRunner.run(s.variants().get(0), 1);
        assertTrue(o.result() != null, o.error());
        // a run where every transfer gave up is a failure that keeps its result; any other ends ok
        boolean nothingArrived = o.faultCost() != null && Double.isNaN(o.faultCost().maxPullWith());
        assertEquals(nothingArrived ? VariantOutcome.Status.FAILED : VariantOutcome.Status.OK, o.status(), o.error());
        return o;
    }

    private static LaneResult lane(TransferResult t, String sourceNic) {
        return t.lanes().stream().filter(l -> l.sourceNic().equals(sourceNic)).findFirst().orElseThrow();
    }

    @Test
    void aPortDownForGoodFailsThePullAfterEveryRetryOfItsQp() {
        VariantOutcome o = twoLanes("""
                faults:
                  events:
                    - {kind: nic-down, host: receiver, nic: mlx5_1, at: 50 ms}
                """);
        TransferResult t = o.result().transfers().get(0);
        assertTrue(t.failed());
        // hand calculation: stalled at 50 ms, error after the first timeout and 7 retries
        assertEquals(0.05 + 8 * TICK, t.finishSeconds(), 1e-9);
        assertTrue(t.failure().startsWith("NIXL_ERR_REMOTE_DISCONNECT: UCS_ERR_ENDPOINT_TIMEOUT"), t.failure());
        // the healthy lane delivered its half; the stalled one what it moved in its first 50 ms
        LaneResult healthy = lane(t, "mlx5_0");
        LaneResult stalled = lane(t, "mlx5_1");
        assertEquals(8_000_000_000L, healthy.bytes());
        assertTrue(stalled.bytes() > 0 && stalled.bytes() < 8_000_000_000L);
        assertEquals(1, o.faultCost().gaveUp());
        assertEquals(1, o.faultCost().failedAttempts());
        assertTrue(o.error().startsWith("every transfer gave up (1 of 1; 1 attempt(s) failed)"), o.error());
        // bytes conserved and nothing over capacity, with the fault
        assertEquals(List.of(), RunChecks.violations(o.result()));
    }

    @Test
    void aPortBackBeforeTheRetriesRunOutResumesAtTheNextRetransmission() {
        VariantOutcome healthy = twoLanes("");
        VariantOutcome flap = twoLanes("""
                faults:
                  events:
                    - {kind: nic-down, host: receiver, nic: mlx5_1, at: 50 ms, until: 2.5 s}
                """);
        TransferResult h = healthy.result().transfers().get(0);
        TransferResult f = flap.result().transfers().get(0);
        assertFalse(f.failed());
        LaneResult hl = lane(h, "mlx5_1");
        LaneResult alone = lane(f, "mlx5_0");
        // the lane's rate while both lanes run (healthy run) and the other lane's rate alone (it ran
        // alone: the stalled lane was away for seconds, the other finished in a tenth of one)
        double shared = hl.bytes() / (hl.finishSeconds() - hl.startSeconds());
        double soloRate = alone.bytes() / (alone.finishSeconds() - alone.startSeconds());
        double movedBeforeStall = shared * (0.05 - hl.startSeconds());
        // back at 2.5 s, 2.45 s after the stall: the third retransmission (2.45 / 1.074 = 2.3 periods)
        double resume = 0.05 + 3 * TICK;
        double expected = resume + (hl.bytes() - movedBeforeStall) / soloRate;
        assertEquals(expected, lane(f, "mlx5_1").finishSeconds(), 1e-6 * expected);
        assertEquals(List.of(), RunChecks.violations(flap.result()));
    }

    @Test
    void aRepostTakesTheSameLanesAndFailsAgainWhileThePortIsDown() {
        VariantOutcome o = twoLanes("""
                faults:
                  repost: true
                  events:
                    - {kind: nic-down, host: receiver, nic: mlx5_1, at: 50 ms}
                """);
        List<TransferResult> ts = o.result().transfers();
        assertEquals(3, ts.size());
        assertTrue(ts.stream().allMatch(TransferResult::failed));
        // each attempt is posted when the previous one fails (retry delay 0) and stalls on the same port
        // as soon as its lane starts: 8 timer periods each
        assertEquals(0.05 + 8 * TICK, ts.get(0).finishSeconds(), 1e-9);
        for (int k = 1; k < 3; k++) {
            assertEquals(ts.get(k - 1).finishSeconds(), ts.get(k).startSeconds(), 1e-12);
            double stalledAt = lane(ts.get(k), "mlx5_1").startSeconds();
            assertTrue(stalledAt - ts.get(k).startSeconds() < 1e-5, "the lane starts within its posting delay");
            assertEquals(stalledAt + 8 * TICK, ts.get(k).finishSeconds(), 1e-9);
        }
    }

    @Test
    void aSourceLostMidFanoutSendsItsReceiversToOtherSources() {
        String yaml = """
                name: lost
                hosts:
                  receivers: {preset: gb200-tray, count: 8, prefix: r}
                  sources: {preset: gb200-tray, count: 2, prefix: s}
                transport: {operation: read, nixl: "1.1.0", ucx: "1.20.0"}
                workload:
                  fanout:
                    receivers: {hosts: receivers, gpus: [GPU0]}
                    sources: {hosts: sources, gpus: [GPU0]}
                    model: 16 GB
                    arrival: all-at-once
                    assignment: least-loaded
                faults:
                  events:
                    - {kind: source-loss, host: s1, at: 1 s}
                """;
        VariantOutcome o = VariantRunner.run(ScenarioLoader.parse(yaml, "lost.yaml").variants().get(0), 1);
        FanoutResult f = o.result().fanout();
        assertEquals(8, f.pulls().size());
        assertEquals(0, o.faultCost().gaveUp());
        // least-loaded gave s1 four receivers, all mid-pull at 1 s: each failed once, 8.59 s later
        assertEquals(4, o.faultCost().failedAttempts());
        for (TransferResult t : o.result().transfers()) {
            if (t.failed()) {
                assertEquals(1 + 8 * TICK, t.finishSeconds(), 1e-9);
                assertEquals("s1", t.spec().source().host());
            } else {
                assertEquals("s0", t.spec().source().host());
            }
        }
        assertTrue(o.faultCost().makespanWith() > 1 + 8 * TICK);
        assertEquals(List.of(), RunChecks.violations(o.result()));
    }

    @Test
    void aReceiverWhoseRegistrationFailsFallsBackAndTheOthersPull() {
        String yaml = """
                name: reg
                hosts:
                  receivers: {preset: gb200-tray, count: 3, prefix: r}
                  sources: {preset: gb200-tray, count: 1, prefix: s}
                transport: {operation: read, nixl: "1.1.0", ucx: "1.20.0"}
                workload:
                  fanout:
                    receivers: {hosts: receivers, gpus: [GPU0]}
                    sources: {hosts: sources, gpus: [GPU0]}
                    model: 1 GB
                    arrival: all-at-once
                faults:
                  events:
                    - {kind: registration-failure, host: r1, nic: mlx5_2}
                """;
        VariantOutcome o = VariantRunner.run(ScenarioLoader.parse(yaml, "reg.yaml").variants().get(0), 1);
        FanoutResult.ReceiverPull r1 = o.result().fanout().pulls().stream().filter(p -> p.receiver().equals("r1"))
                .findFirst().orElseThrow();
        assertTrue(r1.bottleneck() instanceof Bottleneck.Failed f && f.reason().contains("NIXL_ERR_BACKEND"), r1.bottleneck().id());
        assertEquals(1, o.faultCost().gaveUp());
        assertEquals(2, o.result().transfers().size());
    }

    @Test
    void modelExpressGivesUpAfterThreeSourcesWhenEveryAttemptOutrunsItsBudget() {
        String yaml = """
                name: budget
                hosts:
                  receivers: {preset: gb200-tray, count: 1, prefix: r}
                  sources: {preset: gb200-tray, count: 4, prefix: s}
                transport: {operation: read, nixl: "1.1.0", ucx: "1.20.0", env: "MX_TRANSFER_TIMEOUT=0.01\\n"}
                workload:
                  fanout:
                    receivers: {hosts: receivers, gpus: [GPU0]}
                    sources: {hosts: sources, gpus: [GPU0]}
                    model: 16 GB
                    arrival: all-at-once
                faults:
                  events:
                    - {kind: degraded, host: r0, nic: mlx5_0, fraction: 0.5, at: 1 s}
                """;
        VariantOutcome o = VariantRunner.run(ScenarioLoader.parse(yaml, "budget.yaml").variants().get(0), 1);
        // a 16 GB pull takes ~0.4 s against a 10 ms budget: three sources tried, then storage
        assertEquals(3, o.faultCost().failedAttempts());
        assertEquals(1, o.faultCost().gaveUp());
        FanoutResult.Cycle c = o.result().fanout().cycles().get(0);
        double pullStart = c.startSeconds() + c.metadataSeconds() + c.registrationSeconds();
        assertEquals(pullStart + 0.03, o.result().transfers().get(2).finishSeconds(), 1e-9);
    }

    @Test
    void faultsWithUnknownPartsAreErrorsNamingTheirLine() {
        ScenarioException e = assertThrows(ScenarioException.class, () -> ScenarioLoader.parse("""
                name: bad
                hosts: {a: {preset: gb200-tray}, b: {preset: gb200-tray}}
                workload: {transfers: [{from: "a:GPU0", to: "b:GPU0", size: 1 GB}]}
                faults:
                  events:
                    - {kind: nic-down, host: b, nic: mlx5_9, at: 1 ms}
                """, "bad.yaml"));
        assertTrue(e.getMessage().contains("bad.yaml:6") && e.getMessage().contains("mlx5_9"), e.getMessage());
        ScenarioException kind = assertThrows(ScenarioException.class, () -> ScenarioLoader.parse("""
                name: bad
                hosts: {a: {preset: gb200-tray}, b: {preset: gb200-tray}}
                workload: {transfers: [{from: "a:GPU0", to: "b:GPU0", size: 1 GB}]}
                faults:
                  events:
                    - {kind: meteor, host: b, at: 1 ms}
                """, "bad.yaml"));
        assertTrue(kind.getMessage().contains("unknown fault kind 'meteor'"), kind.getMessage());
        ScenarioException until = assertThrows(ScenarioException.class, () -> ScenarioLoader.parse("""
                name: bad
                hosts: {a: {preset: gb200-tray}, b: {preset: gb200-tray}}
                workload: {transfers: [{from: "a:GPU0", to: "b:GPU0", size: 1 GB}]}
                faults:
                  events:
                    - {kind: nic-down, host: b, nic: mlx5_0, at: 2 ms, until: 1 ms}
                """, "bad.yaml"));
        assertNotNull(until.getMessage());
        assertTrue(until.getMessage().contains("until must come after at"), until.getMessage());
    }

    @Test
    void faultsUnderTheLibfabricBackendAreRefusedNotAnsweredWithRcMechanics() {
        ScenarioException e = assertThrows(ScenarioException.class, () -> ScenarioLoader.parse("""
                name: efa
                hosts: {a: {preset: p5.48xlarge}, b: {preset: p5.48xlarge}}
                transport: {backend: libfabric, nixl: "1.4.0"}
                workload: {transfers: [{from: "a:GPU0", to: "b:GPU0", size: 1 GB}]}
                faults:
                  events:
                    - {kind: nic-down, host: b, nic: rdmap80s0, at: 1 ms}
                """, "efa.yaml"));
        // the faults section's body starts on line 6
        assertTrue(e.getMessage().startsWith("efa.yaml:6:") && e.getMessage().contains("SRD over EFA"), e.getMessage());
    }
}
