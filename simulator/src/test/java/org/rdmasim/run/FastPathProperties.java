package org.rdmasim.run;

import org.rdmasim.scenario.Scenario;
import org.rdmasim.scenario.ScenarioLoader;
import org.rdmasim.scenario.VariantSpec;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.rdmasim.transport.TransferResult;
import org.rdmasim.workload.FanoutResult;
import org.rdmasim.workload.RunResult;
import org.rdmasim.workload.VariantOutcome;

/**
 * The solver's fast paths (flows frozen together at a NIC grouped into one, resources a group's
 * members cross alone followed lazily, host resources built on first use) against the reference path
 * (flow by flow, every resource built up front) on random fan-out scenarios: every receiver's finish,
 * every transfer's and lane's finish, every NIC's and resource's bytes agree within 1e-9 relative; and
 * the same on random transfer lists. Both on each fabric kind.
 */
class FastPathProperties {
    private static final double RELATIVE = 1e-9;

    @Property(tries = 25)
    void fastPathsGiveTheReferenceResults(@ForAll @IntRange(min = 2, max = 48) int receivers,
            @ForAll @IntRange(min = 1, max = 4) int sources, @ForAll @IntRange(min = 0, max = 3) int shape,
            @ForAll @IntRange(min = 0, max = 2) int arrival, @ForAll @IntRange(min = 1, max = 16) int gigabytes,
            @ForAll @IntRange(min = 0, max = 2) int fabric, @ForAll @LongRange(min = 1, max = 1_000_000) long seed)
            throws IOException {
        Path file = Files.createTempFile("fastpath-", ".yaml");
        try {
            Files.writeString(file, scenario(receivers, sources, shape, arrival, gigabytes, fabric, seed));
            Scenario s = ScenarioLoader.load(file);
            VariantSpec v = s.variants().get(0);
            VariantOutcome fast = VariantRunner.run(v, s.seed());
            VariantOutcome reference = RunChecks.withoutFastPaths(() -> VariantRunner.run(v, s.seed()));
            assertEquals(VariantOutcome.Status.OK, fast.status(), fast.error());
            assertEquals(VariantOutcome.Status.OK, reference.status(), reference.error());
            same(reference.result(), fast.result());
        } finally {
            Files.deleteIfExists(file);
        }
    }

    /** A fan-out of GB200 trays or DGX H100s, pinned, two-rail or four-rail striped, arriving in one of three ways. */
    private static String scenario(int receivers, int sources, int shape, int arrival, int gigabytes, int fabric,
            long seed) {
        String preset = shape == 3 ? "dgx-h100" : "gb200-tray";
        String env = switch (shape) {
            case 0 -> "    export MX_RDMA_NIC_PIN=stripe\n    export UCX_NET_DEVICES=mlx5_0:1,mlx5_1:1,mlx5_2:1,mlx5_3:1\n"
                    + "    export UCX_MAX_RMA_RAILS=4\n";
            case 1 -> "    export UCX_NET_DEVICES=mlx5_0:1,mlx5_1:1\n    export UCX_MAX_RMA_RAILS=2\n";
            default -> "    export UCX_MAX_RMA_RAILS=1\n";
        };
        String arrivals = switch (arrival) {
            case 0 -> "{kind: all-at-once}";
            case 1 -> "{kind: poisson, meanGap: 20 ms}";
            default -> "{kind: poisson, meanGap: 300 ms}";
        };
        return "name: fastpath\nseed: " + seed + "\nhosts:\n"
                + "  receivers: {preset: " + preset + ", count: " + receivers + ", prefix: r}\n"
                + "  sources: {preset: " + preset + ", count: " + sources + ", prefix: s}\n"
                + fabricLine(fabric, 1 + (int) (seed % 8))
                + "transport:\n  operation: read\n  nixl: \"1.1.0\"\n  ucx: \"1.20.0\"\n  env: |\n" + env
                + "workload:\n  fanout:\n    receivers: {hosts: receivers, gpus: [GPU0]}\n"
                + "    sources: {hosts: sources, gpus: [GPU0]}\n    model: " + gigabytes + " GB\n"
                + "    arrival: " + arrivals + "\n    assignment: least-loaded\n"
                + "variants:\n  - name: only\n";
    }

    /**
     * The same on random transfer lists (the many-to-many shape of a refit): DGX H100s or GB200 trays,
     * each transfer between random GPUs of a sender and a receiver host, READ or WRITE, on each fabric
     * kind; starts all at one instant (lanes of many transfers starting in one event) or spread over a
     * few instants, so that transfers both overlap from the start and arrive while others run.
     */
    @Property(tries = 25)
    void fastPathsGiveTheReferenceResultsOnTransferLists(@ForAll @IntRange(min = 1, max = 4) int senders,
            @ForAll @IntRange(min = 1, max = 4) int receivers, @ForAll @IntRange(min = 1, max = 96) int transfers,
            @ForAll @IntRange(min = 0, max = 2) int fabric, @ForAll boolean gb200, @ForAll boolean read,
            @ForAll boolean together, @ForAll @LongRange(min = 1, max = 1_000_000) long seed) throws IOException {
        Path file = Files.createTempFile("fastpath-list-", ".yaml");
        try {
            Files.writeString(file, transferList(senders, receivers, transfers, fabric, gb200, read, together, seed));
            Scenario s = ScenarioLoader.load(file);
            VariantSpec v = s.variants().get(0);
            VariantOutcome fast = VariantRunner.run(v, s.seed());
            VariantOutcome reference = RunChecks.withoutFastPaths(() -> VariantRunner.run(v, s.seed()));
            assertEquals(VariantOutcome.Status.OK, fast.status(), fast.error());
            assertEquals(VariantOutcome.Status.OK, reference.status(), reference.error());
            same(reference.result(), fast.result());
        } finally {
            Files.deleteIfExists(file);
        }
    }

    /**
     * The list the property above once shrank to (READ, leaf-spine DGX H100s, staggered starts): a member
     * leaving its group on its own again, across a resource it shared lazily with another member, left that
     * resource's load at the other member's share until the next solve touched it, 2 MB short on six
     * resources while every finish time agreed. Kept as a fixed case.
     */
    @Example
    void aMemberLeavingItsGroupKeepsItsShareOnTheResourceItSharedLazily() throws IOException {
        fastPathsGiveTheReferenceResultsOnTransferLists(2, 2, 52, 1, false, true, false, 177);
    }

    private static String transferList(int senders, int receivers, int transfers, int fabric, boolean gb200,
            boolean read, boolean together, long seed) {
        java.util.Random random = new java.util.Random(seed);
        String preset = gb200 ? "gb200-tray" : "dgx-h100";
        int gpus = gb200 ? 4 : 8;
        StringBuilder out = new StringBuilder("name: fastpath-list\nseed: " + seed + "\nhosts:\n"
                + "  senders: {preset: " + preset + ", count: " + senders + ", prefix: t}\n"
                + "  receivers: {preset: " + preset + ", count: " + receivers + ", prefix: i}\n"
                + fabricLine(fabric, 1 + random.nextInt(4))
                + "transport:\n  operation: " + (read ? "read" : "write") + "\n  nixl: \"1.1.0\"\n  ucx: \"1.20.0\"\n"
                + "workload:\n  transfers:\n");
        for (int k = 0; k < transfers; k++) {
            String from = "t" + random.nextInt(senders) + ":GPU" + random.nextInt(gpus);
            String to = "i" + random.nextInt(receivers) + ":GPU" + random.nextInt(gpus);
            int megabytes = 1 + random.nextInt(256);
            String at = together ? "0 s" : (5 * random.nextInt(4)) + " ms";
            out.append("    - {from: \"").append(from).append("\", to: \"").append(to).append("\", size: ")
                    .append(megabytes).append(" MB, at: ").append(at).append("}\n");
        }
        return out.append("variants:\n  - name: only\n").toString();
    }

    /** A fabric section of kind {@code 0} non-blocking, {@code 1} leaf-spine, {@code 2} rail-optimized. */
    private static String fabricLine(int fabric, int hostsPerLeaf) {
        return switch (fabric) {
            case 1 -> "fabric: {kind: leaf-spine, hostsPerLeaf: " + hostsPerLeaf + "}\n";
            case 2 -> "fabric: {kind: rail-optimized, hostsPerLeaf: " + hostsPerLeaf + "}\n";
            default -> "";
        };
    }

    private static void same(RunResult want, RunResult got) {
        List<FanoutResult.ReceiverPull> a = want.fanout() == null ? List.of() : want.fanout().pulls();
        List<FanoutResult.ReceiverPull> b = got.fanout() == null ? List.of() : got.fanout().pulls();
        assertEquals(a.size(), b.size());
        for (int i = 0; i < a.size(); i++) {
            assertEquals(a.get(i).receiver(), b.get(i).receiver());
            assertEquals(a.get(i).source(), b.get(i).source(), "receivers take the same sources");
            close(a.get(i).finishSeconds(), b.get(i).finishSeconds(), a.get(i).receiver() + " finish");
        }
        assertEquals(want.transfers().size(), got.transfers().size());
        for (int i = 0; i < want.transfers().size(); i++) {
            TransferResult x = want.transfers().get(i);
            TransferResult y = got.transfers().get(i);
            assertEquals(x.spec().id(), y.spec().id());
            close(x.finishSeconds(), y.finishSeconds(), x.spec().id() + " finish");
            assertEquals(x.lanes().size(), y.lanes().size());
            for (int k = 0; k < x.lanes().size(); k++) {
                close(x.lanes().get(k).finishSeconds(), y.lanes().get(k).finishSeconds(), x.spec().id() + " lane " + k);
            }
        }
        for (int i = 0; i < want.nics().size(); i++) {
            close(want.nics().get(i).txBytes(), got.nics().get(i).txBytes(), want.nics().get(i) + " tx");
            close(want.nics().get(i).rxBytes(), got.nics().get(i).rxBytes(), want.nics().get(i) + " rx");
        }
        Map<String, Double> carried = new HashMap<>();
        for (RunResult.ResourceUsage r : got.resources()) {
            carried.put(r.name(), r.bytesCarried());
        }
        for (RunResult.ResourceUsage r : want.resources()) {
            close(r.bytesCarried(), carried.getOrDefault(r.name(), 0.0), r.name() + " bytes");
        }
        assertTrue(want.resources().size() >= got.resources().size(), "the reference builds every resource");
    }

    private static void close(double want, double got, String what) {
        double scale = Math.max(Math.abs(want), Math.abs(got));
        assertTrue(Math.abs(want - got) <= RELATIVE * Math.max(scale, 1e-300),
                what + ": reference " + want + ", fast path " + got);
    }
}
