package org.rdmasim.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rdmasim.refit.method.RefitCalibration;
import org.rdmasim.transport.backend.PegaflowBackend;
import org.rdmasim.workload.FanoutPlan;

/**
 * The default a parameter prints ({@code rdmasim parameters}, README's table) is the value a scenario that
 * leaves the field out runs with: each applied value is read back from scenarios loaded without the field,
 * and the printed text must read to exactly that value. A parameter with a default that is not in the map of
 * applied values fails too, so a new one cannot print a default nothing checks.
 */
class ParameterDefaultsTest {
    private static final String TWO_HOSTS = """
            hosts:
              a: {preset: dgx-h100, linkLayer: roce}
              b: {preset: dgx-h100, linkLayer: roce}
            """;
    private static final String ONE_TRANSFER = """
            workload:
              transfers:
                - {from: "a:GPU0", to: "b:GPU0", size: 1 GB}
            """;

    /** Scenario text without the field, for each parameter, read back as the model holds it. */
    private static Map<Parameter<?>, Object> applied() {
        Map<Parameter<?>, Object> out = new HashMap<>();
        Scenario plain = ScenarioLoader.parse("name: d\n" + TWO_HOSTS + "fabric: {kind: leaf-spine}\n"
                + "registration: {firmwarePageCap: 1 GiB}\n" + ONE_TRANSFER, "d.yaml");
        VariantSpec v = plain.variants().get(0);
        out.put(Parameters.REPLICATIONS, (long) plain.replications());
        out.put(Parameters.DESCRIPTORS, (long) v.transport().descriptors());
        out.put(Parameters.GPUDIRECT, v.transport().gpudirect());
        out.put(Parameters.ACS, v.transport().acs());
        out.put(Parameters.IOMMU_PENALTY, v.transport().iommuPenalty());
        out.put(Parameters.HOSTS_PER_LEAF, (long) v.fabric().hostsPerLeaf());
        out.put(Parameters.OVERSUBSCRIPTION, v.fabric().oversubscription());
        out.put(Parameters.HOP_LATENCY, v.fabric().hopLatencySeconds());
        out.put(Parameters.NIC_LATENCY, v.protocol().nicLatencySeconds());
        out.put(Parameters.PCIE_HOP, v.protocol().pcieHopSeconds());
        out.put(Parameters.PER_DESCRIPTOR, v.protocol().perDescriptorSeconds());
        out.put(Parameters.PER_FRAGMENT, v.protocol().perFragmentSeconds());
        out.put(Parameters.MAX_OUTSTANDING_READS, (long) v.protocol().maxOutstandingReads());
        out.put(Parameters.STAGING_COPY, v.protocol().stagingCopySeconds());
        out.put(Parameters.SEND_QUEUE_DEPTH, (long) v.protocol().sendQueueDepth());
        out.put(Parameters.NIC_MESSAGE_RATE, (long) v.protocol().nicMessageRate());
        out.put(Parameters.PAGE_SIZE, v.registration().parameters().pageSize());
        out.put(Parameters.CAP_SCOPE, v.registration().caps().firmwareCapScope());

        VariantSpec pegaflow = ScenarioLoader.parse("name: p\n" + TWO_HOSTS
                + "transport: {backend: pegaflow, operation: write}\n" + ONE_TRANSFER, "p.yaml").variants().get(0);
        out.put(Parameters.QPS_PER_PEER, (long) ((PegaflowBackend) pegaflow.transport().backend()).qpsPerPeer());
        VariantSpec mooncake = ScenarioLoader.parse("name: m\n" + TWO_HOSTS
                + "transport: {backend: mooncake}\n" + ONE_TRANSFER, "m.yaml").variants().get(0);
        out.put(Parameters.SLICE_THREAD,
                ((org.rdmasim.transport.backend.MooncakeBackend) mooncake.transport().backend()).sliceThreadSeconds());

        VariantSpec inline = ScenarioLoader.parse("""
                name: i
                hosts:
                  a: {sockets: [{devices: [{gpu: GPU0}, {nic: mlx5_0}]}]}
                  b: {sockets: [{devices: [{gpu: GPU0}, {nic: mlx5_0}]}]}
                """ + ONE_TRANSFER, "i.yaml").variants().get(0);
        out.put(Parameters.MEMORY_BANDWIDTH, inline.hosts().get("a").sockets().get(0).memoryBandwidth());

        FanoutPlan fanout = ScenarioLoader.parse("""
                name: f
                hosts:
                  receivers: {preset: dgx-h100, count: 2, prefix: r}
                  sources: {preset: dgx-h100, count: 1, prefix: s}
                workload:
                  fanout:
                    receivers: receivers
                    sources: sources
                    model: 4 GB
                    cycles: {metadataRtt: 0 s}
                    jitter: {start: 0 s}
                """, "f.yaml").variants().get(0).fanoutPlan();
        out.put(Parameters.CYCLES, (long) fanout.cycles().count());
        out.put(Parameters.NIC_RATE_JITTER, fanout.jitter().nicRateFraction());
        return out;
    }

    /** Defaults no value stands for: unlimited, a preset's or model's own, or a field the scenario must write. */
    private static boolean saysNoNumber(String text) {
        return text.equals("none") || text.equals("required") || text.startsWith("the ");
    }

    @Test
    void everyDefaultValueIsWhatAScenarioWithoutTheFieldRunsWithAndItsTextReadsToExactlyIt() {
        Map<Parameter<?>, Object> applied = applied();
        for (Parameter<?> p : Parameters.all()) {
            if (Parameters.refitStages().contains(p)) {
                continue; // the next test
            }
            if (saysNoNumber(p.defaultText())) {
                assertNull(p.defaultValue(), p.field() + " prints '" + p.defaultText() + "' but holds a value");
                assertTrue(!applied.containsKey(p), p.field() + " prints no value but the test maps one");
                continue;
            }
            if (!applied.containsKey(p)) {
                fail(p.field() + " prints the default '" + p.defaultText() + "': read back what the model applies");
            }
            assertEquals(applied.get(p), p.defaultValue(), p.field() + ": declared default against what the model applies");
            assertEquals(p.defaultValue(), p.read(p.defaultText()),
                    p.field() + ": printed '" + p.defaultText() + "' against the declared default");
        }
    }

    /** A refit stage's default is its calibration's value, printed to 3 figures. */
    @Test
    void aRefitStageDefaultsToItsCalibratedValueAndPrintsItToThreeFigures() {
        for (Parameter<Double> p : Parameters.refitStages()) {
            double value = RefitCalibration.defaults().get(Parameters.calibrationKey(p)).value();
            assertEquals(value, p.defaultValue(), p.field());
            assertEquals(value, p.read(p.defaultText()), Math.abs(value) * 5e-3,
                    p.field() + " prints '" + p.defaultText() + "'");
        }
    }

    @Test
    void aReaderAsksForADefaultOnlyOfAParameterThatHasOne() {
        YamlTree empty = YamlTree.parse("{}\n", "e.yaml");
        assertEquals(1L, Parameters.REPLICATIONS.fromYamlOrDefault(empty));
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> Parameters.WAVE_SIZE.fromYamlOrDefault(empty));
        assertTrue(e.getMessage().contains("workload.fanout.arrival.size"), e.getMessage());
    }
}
