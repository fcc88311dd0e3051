package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rdmasim.workload.*;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.HostSpec;
import org.rdmasim.hardware.Presets;
import org.rdmasim.hardware.Units;
import org.rdmasim.scenario.Scenario;
import org.rdmasim.scenario.ScenarioLoader;
import org.rdmasim.run.VariantRunner;

/**
 * Fan-out behaviour against hand computations. Every case pins each GPU to its nearest NIC
 * (MX_RDMA_NIC_PIN=auto) on DGX H100 hosts, so a source serves all its receivers through one NIC of
 * capacity C and each pull has one lane.
 */
class FanoutRunTest {
    static final long GB = 1_000_000_000L;

    /** One NDR port's transmit capacity: wire rate times the link layer's efficiency, as Cluster builds it. */
    static double nicCapacity() {
        HostSpec.NicSpec nic = new Host("x", Presets.get("dgx-h100")).nic("mlx5_0").nic();
        return Units.gbpsToBytesPerSecond(nic.lineRateGbps()) * nic.linkLayer().wireEfficiency();
    }

    static String scenario(int receivers, int sources, String fanoutExtra, String top) {
        return """
                name: t
                seed: 5
                %s
                hosts:
                  receivers: {preset: dgx-h100, count: %d, prefix: r}
                  sources: {preset: dgx-h100, count: %d, prefix: s}
                transport:
                  env: |
                    export MX_RDMA_NIC_PIN=auto
                workload:
                  fanout:
                    receivers: receivers
                    sources: sources
                    model: 4 GB
                %s
                """.formatted(top, receivers, sources,
                // A key written twice is an error, so the default assignment yields to one the test sets.
                (fanoutExtra.contains("assignment:") ? fanoutExtra : "assignment: least-loaded\n" + fanoutExtra).indent(4));
    }

    static VariantOutcome run(String yaml) {
        Scenario s = ScenarioLoader.parse(yaml, "t.yaml");
        return VariantRunner.run(s.variants().get(0), s.seed(), s.replications(), 1);
    }

    @Test
    void allAtOnceOnOneSourceNicGivesEachReceiverAnNthOfIt() {
        int n = 4;
        VariantOutcome o = run(scenario(n, 1, "arrival: all-at-once", ""));
        double expected = n * 4.0 * GB / nicCapacity();
        List<FanoutResult.ReceiverPull> pulls = o.result().fanout().pulls();
        assertEquals(n, pulls.size());
        for (FanoutResult.ReceiverPull p : pulls) {
            // Latencies are microseconds against a pull of seconds.
            assertEquals(expected, p.pullSeconds(), expected * 1e-4, p.toString());
            assertEquals("s0", p.source());
        }
    }

    @Test
    void wavesAfterThePreviousOneTakeOneWaveTimeEach() {
        VariantOutcome o = run(scenario(6, 1, "arrival: {kind: waves, size: 2}", ""));
        double wave = 2 * 4.0 * GB / nicCapacity();
        double makespan = o.result().fanout().cycles().get(0).pullMakespanSeconds();
        assertEquals(3 * wave, makespan, 3 * wave * 1e-4);
        // The second wave arrives when the first has finished: at the end of that instant (receivers ending
        // in one instant are handled together, SimulationClock.SAME_INSTANT relative).
        List<FanoutResult.ReceiverPull> pulls = o.result().fanout().pulls();
        double finish = pulls.get(1).finishSeconds();
        double gap = pulls.get(2).arrivalSeconds() - finish;
        assertTrue(gap >= 0 && gap <= 1.5 * org.rdmasim.engine.SimulationClock.SAME_INSTANT * Math.max(1, finish),
                "second wave " + gap + " s after the first");
    }

    @Test
    void wavesAtAFixedGapStartOnTheirOwnClock() {
        double wave = 2 * 4.0 * GB / nicCapacity();
        double gap = 1.0;
        assertTrue(gap > wave, "the gap is longer than a wave, so waves never overlap");
        VariantOutcome o = run(scenario(6, 1, "arrival: {kind: waves, size: 2, gap: 1 s}", ""));
        double makespan = o.result().fanout().cycles().get(0).pullMakespanSeconds();
        assertEquals(2 * gap + wave, makespan, wave * 1e-4);
    }

    @Test
    void treeBeatsDirectWhenTheSourceIsTheBottleneckAndParentsFinishFirst() {
        VariantOutcome direct = run(scenario(16, 1, "arrival: all-at-once", ""));
        VariantOutcome tree = run(scenario(16, 1, "arrival: all-at-once\ntree: {maxChildren: 1}", ""));
        double d = direct.result().fanout().cycles().get(0).pullMakespanSeconds();
        double t = tree.result().fanout().cycles().get(0).pullMakespanSeconds();
        assertTrue(t < d / 2, "tree " + t + " s vs direct " + d + " s");
        Map<String, FanoutResult.ReceiverPull> byHost = new HashMap<>();
        tree.result().fanout().pulls().forEach(p -> byHost.put(p.receiver(), p));
        long fromReceivers = 0;
        for (FanoutResult.ReceiverPull p : tree.result().fanout().pulls()) {
            if (p.fromReceiver()) {
                fromReceivers++;
                FanoutResult.ReceiverPull parent = byHost.get(p.source());
                assertTrue(parent.finishSeconds() <= p.postSeconds(), p + " started before its parent " + parent + " finished");
            } else {
                assertEquals("s0", p.source());
            }
        }
        assertTrue(fromReceivers > 8, "most receivers are served by other receivers, got " + fromReceivers);
    }

    @Test
    void poissonArrivalsAreDeterministicForASeedAndDifferAcrossSeeds() {
        String a = scenario(20, 2, "arrival: {kind: poisson, meanGap: 10 ms}", "");
        List<Double> first = arrivals(run(a));
        List<Double> again = arrivals(run(a));
        List<Double> other = arrivals(run(a.replace("seed: 5", "seed: 6")));
        assertEquals(first, again);
        assertNotEquals(first, other);
        // The first receiver arrives as the pull phase opens (after registration), the rest at exponential gaps.
        FanoutResult.Cycle c = run(a).result().fanout().cycles().get(0);
        assertEquals(c.startSeconds() + c.metadataSeconds() + c.registrationSeconds(), first.get(0), 1e-12);
        double meanGap = (first.get(first.size() - 1) - first.get(0)) / (first.size() - 1);
        assertTrue(meanGap > 0.002 && meanGap < 0.05, "mean gap " + meanGap);
    }

    private static List<Double> arrivals(VariantOutcome o) {
        return o.result().fanout().pulls().stream().map(FanoutResult.ReceiverPull::arrivalSeconds).toList();
    }

    @Test
    void replicationStatsDoNotDependOnTheThreadCount() {
        String yaml = scenario(12, 2, "arrival: {kind: poisson, meanGap: 20 ms}\njitter: {nicRate: 5%, start: 2 ms}",
                "replications: 6");
        Scenario s = ScenarioLoader.parse(yaml, "t.yaml");
        VariantOutcome one = VariantRunner.run(s.variants().get(0), s.seed(), 6, 1);
        VariantOutcome four = VariantRunner.run(s.variants().get(0), s.seed(), 6, 4);
        assertEquals(one.replicationStats(), four.replicationStats());
        assertEquals(one.result().fanout(), four.result().fanout());
        ReplicationStats st = one.replicationStats();
        assertEquals(6, st.replications());
        assertTrue(st.makespanSeconds().stdDev() > 0, "jitter makes replications differ");
        assertTrue(st.makespanSeconds().ci95Low() < st.makespanSeconds().mean()
                && st.makespanSeconds().mean() < st.makespanSeconds().ci95High());
    }

    @Test
    void cachedRegistrationMakesTheSecondCycleFaster() {
        VariantOutcome o = run(scenario(4, 1,
                "cycles: {count: 3, metadataRtt: 100 us, metadataPerReceiver: 10 us, registrationCached: true}", ""));
        List<FanoutResult.Cycle> c = o.result().fanout().cycles();
        assertEquals(3, c.size());
        assertTrue(c.get(0).registrationSeconds() > 0);
        assertEquals(0.0, c.get(1).registrationSeconds());
        assertTrue(c.get(1).wallSeconds() < c.get(0).wallSeconds());
        assertEquals(c.get(1).wallSeconds(), c.get(2).wallSeconds(), 1e-9);
        assertEquals(100e-6 + 4 * 10e-6, c.get(1).metadataSeconds(), 1e-15);
        assertEquals(c.get(1).metadataSeconds() + c.get(1).pullMakespanSeconds(), c.get(1).wallSeconds(), 1e-9);

        VariantOutcome uncached = run(scenario(4, 1, "cycles: {count: 2, registrationCached: false}", ""));
        List<FanoutResult.Cycle> u = uncached.result().fanout().cycles();
        assertEquals(u.get(0).registrationSeconds(), u.get(1).registrationSeconds());
    }

    @Test
    void aCycleWaitsForTheSlowestGpuNotForTheSumOverAHostsGpus() {
        // 4 GPUs a host, each its own process pinned to its nearest NIC, each registering 1 GB of the 4 GB
        // model: the same registration on every GPU of every host
        String yaml = """
                name: t
                seed: 5
                hosts:
                  receivers: {preset: dgx-h100, count: 2, prefix: r}
                  sources: {preset: dgx-h100, count: 1, prefix: s}
                transport:
                  env: |
                    export MX_RDMA_NIC_PIN=auto
                workload:
                  fanout:
                    receivers: {hosts: receivers, gpus: [GPU0, GPU1, GPU2, GPU3]}
                    sources: {hosts: sources, gpus: [GPU0, GPU1, GPU2, GPU3]}
                    model: 4 GB
                    assignment: least-loaded
                """;
        VariantOutcome o = run(yaml);
        double wall = o.registration().wallSeconds();
        assertTrue(wall > 0);
        // 3 hosts x 4 GPU processes register side by side: the work is 12 times the wait
        assertEquals(12 * wall, o.registration().summedSeconds(), 1e-9 * o.registration().summedSeconds());
        assertEquals(wall, o.result().fanout().cycles().get(0).registrationSeconds(), 0.0);
    }

    @Test
    void roundRobinSpreadsReceiversOverSourcesInTurn() {
        VariantOutcome o = run(scenario(6, 3, "assignment: round-robin", ""));
        List<String> sources = o.result().fanout().pulls().stream().map(FanoutResult.ReceiverPull::source).toList();
        assertEquals(List.of("s0", "s1", "s2", "s0", "s1", "s2"), sources);
    }

    @Test
    void shardedPullsSplitTheModelOverGpus() {
        VariantOutcome o = run(scenario(2, 1, "layout: sharded", "").replace("receivers: receivers",
                "receivers: {hosts: receivers, gpus: [GPU0, GPU1, GPU2, GPU3]}"));
        long perGpu = o.result().transfers().stream().mapToLong(t -> t.spec().bytes()).max().orElseThrow();
        assertEquals(GB, perGpu);
        assertEquals(4 * GB, o.result().fanout().pulls().get(0).bytes());
        assertTrue(o.result().transfers().stream().allMatch(t -> t.spec().source().device().equals(t.spec().sink().device())),
                "receiver GPU k pulls shard k from source GPU k");
    }
}
