package org.rdmasim.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.Hosts;
import org.rdmasim.memory.HcaRegistration;
import org.rdmasim.memory.RegistrationPlan;
import org.rdmasim.memory.VariantRegistration;
import org.rdmasim.scenario.ScenarioLoader;
import org.rdmasim.scenario.VariantSpec;
import org.rdmasim.transport.DataPath;
import org.rdmasim.transport.LaneSplit;
import org.rdmasim.transport.TransferSpec;
import org.rdmasim.transport.backend.LaneExplanation;
import org.rdmasim.transport.backend.LibfabricBackend;
import org.rdmasim.transport.backend.RegistrationSites;
import org.rdmasim.transport.backend.TransferBackend;
import org.rdmasim.transport.backend.UcxBackend;
import org.rdmasim.workload.TransferItem;

/**
 * The backend a scenario names decides where buffers are registered, which lanes a transfer takes and
 * what explain says, through the one TransferBackend the scenario reader builds.
 */
class TransferBackendChoiceTest {
    /** p5.48xlarge: GPU5 shares its PCIe switch (buses 0xa4-0xa7) with four EFA devices of the host's 32. */
    private static final List<String> GPU5_EFA_GROUP = List.of("rdmap164s0", "rdmap165s0", "rdmap166s0", "rdmap167s0");

    private static VariantSpec variant(String yaml) {
        return ScenarioLoader.parse(yaml, "backend.yaml").variants().get(0);
    }

    private static List<Host> hosts(VariantSpec v) {
        List<Host> hosts = new ArrayList<>();
        v.hosts().forEach((n, s) -> hosts.add(new Host(n, s)));
        return hosts;
    }

    private static TransferSpec spec(VariantSpec v) {
        TransferItem t = v.transfers().get(0);
        return new TransferSpec(t.id(), t.from(), t.to(), t.bytes(), t.operation(), t.descriptors(), DataPath.GPUDIRECT,
                DataPath.GPUDIRECT, false, 0);
    }

    private static RegistrationPlan planOf(VariantRegistration.Outcome o, String host, String device) {
        return o.hosts().stream().filter(h -> h.host().equals(host)).flatMap(h -> h.plans().stream())
                .filter(p -> p.region().deviceName().equals(device)).findFirst().orElseThrow();
    }

    @Test
    void libfabricRegistersOnTheGpusEfaGroupOnlyAndReadsNoUcxVariable() {
        VariantSpec v = variant("""
                name: efa
                hosts:
                  a: {preset: p5.48xlarge}
                  b: {preset: p5.48xlarge}
                transport:
                  nixl: "1.4.0"
                  backend: libfabric
                workload:
                  transfers:
                    - {from: "a:GPU5", to: "b:GPU5", size: 8 GB}
                """);
        TransferBackend backend = v.transport().backend();
        assertInstanceOf(LibfabricBackend.class, backend);
        List<Host> hosts = hosts(v);
        assertEquals(32, hosts.get(0).nics().size(), "the host has 32 EFA devices to choose from");

        // registration: exactly the group, one MR per rail, on both sides; nothing from a UCX configuration
        RegistrationSites sites = VariantRunner.sites(v).of(hosts.get(0), "GPU5");
        assertEquals(new RegistrationSites.OnDevices(GPU5_EFA_GROUP, 1), sites);
        assertFalse(sites.toString().contains("UCX_"), sites.toString());
        assertTrue(v.transport().stack().env().stream().noneMatch(e -> e.name().startsWith("UCX_")),
                "no UCX variable in the variant's environment: " + v.transport().stack().env());
        VariantRegistration.Outcome o = VariantRunner.registrationOutcome(v, hosts);
        for (String host : List.of("a", "b")) {
            RegistrationPlan p = planOf(o, host, "GPU5");
            assertEquals(GPU5_EFA_GROUP, p.hcaNames(), host);
            assertTrue(p.perHca().stream().allMatch(r -> r.mrCount() == 1 && !r.relaxedOrdering()), host);
        }
        assertEquals(8, o.totals().mrCount());
        assertTrue(o.hosts().stream().allMatch(h -> h.warnings().isEmpty()));

        // lanes: an 8 GB descriptor is striped over the four rails, rail i to remote endpoint i, equal shares
        TransferSpec spec = spec(v);
        List<LaneSplit.Candidate> lanes = backend.lanes(v.transport().stack(), VariantRunner.registrationsOf(v).lanes())
                .plan(Hosts.of(hosts), spec).lanes();
        assertEquals(4, lanes.size());
        for (int i = 0; i < 4; i++) {
            assertEquals(GPU5_EFA_GROUP.get(i), lanes.get(i).sinkNic());
            assertEquals(GPU5_EFA_GROUP.get(i), lanes.get(i).sourceNic());
            assertEquals(lanes.get(0).weight(), lanes.get(i).weight());
        }

        // explain: the plugin's words, not UCX's tables
        VariantRunner.Held held = VariantRunner.registrationsOf(v);
        LaneExplanation e = backend.explain(v.transport().stack(), Hosts.of(hosts), spec, held.lanes(), held.ordering());
        assertEquals(lanes, e.lanes());
        assertEquals("NIXL libfabric backend (SRD over EFA), ai-dynamo/nixl v1.4.0:", e.lines().get(1));
        // the grouping is cited as every other decision: repository, tag, file:lines, symbol
        assertTrue(e.lines().stream().anyMatch(l -> l.endsWith("; source: ai-dynamo/nixl v1.4.0 "
                + "src/utils/libfabric/libfabric_topology.cpp:1162-1300 groupNicsWithAccel")), e.lines().toString());
        assertEquals(e.lines().subList(1, e.lines().size()), e.backendNotes().stream()
                .map(org.rdmasim.transport.citation.CitedNote::text).toList());
        assertTrue(e.lines().stream().anyMatch(l -> l.contains("rails " + String.join(", ", GPU5_EFA_GROUP))), e.lines()
                .toString());
        assertTrue(e.lines().stream().noneMatch(l -> l.contains("UCX_") || l.contains("rc_mlx5")), e.lines().toString());
    }

    @Test
    void ucxRegistersWhereItsConfigurationSaysAndExplainsInItsOwnTerms() {
        // UCX_MAX_HCA_PER_GPU=1 (UCX >= 1.21) keeps the one HCA closest to the GPU: on a DGX H100, GPU0's
        // switch mate mlx5_0; UCX then builds lanes only on HCAs that hold the buffer's key
        VariantSpec v = variant("""
                name: ib
                hosts:
                  a: {preset: dgx-h100}
                  b: {preset: dgx-h100}
                transport:
                  ucx: "1.21.0"
                  env: "export UCX_MAX_HCA_PER_GPU=1"
                workload:
                  transfers:
                    - {from: "a:GPU0", to: "b:GPU0", size: 8 GB}
                """);
        TransferBackend backend = v.transport().backend();
        assertInstanceOf(UcxBackend.class, backend);
        List<Host> hosts = hosts(v);
        RegistrationSites sites = VariantRunner.sites(v).of(hosts.get(0), "GPU0");
        assertInstanceOf(RegistrationSites.ByUcxConfig.class, sites);
        VariantRegistration.Outcome o = VariantRunner.registrationOutcome(v, hosts);
        for (String host : List.of("a", "b")) {
            assertEquals(List.of("mlx5_0"), planOf(o, host, "GPU0").hcaNames(), host);
        }

        VariantRunner.Held held = VariantRunner.registrationsOf(v);
        TransferSpec spec = spec(v);
        List<LaneSplit.Candidate> lanes = backend.lanes(v.transport().stack(), held.lanes()).plan(Hosts.of(hosts), spec)
                .lanes();
        Set<String> nics = new TreeSet<>();
        lanes.forEach(l -> {
            nics.add(l.sinkNic());
            nics.add(l.sourceNic());
        });
        assertEquals(Set.of("mlx5_0"), nics, "lanes only where the key is held: " + lanes);

        LaneExplanation e = backend.explain(v.transport().stack(), Hosts.of(hosts), spec, held.lanes(), held.ordering());
        assertEquals(lanes, e.lanes());
        assertTrue(e.lines().contains("effective configuration of the initiating process (b:GPU0):"), e.lines().toString());
        assertTrue(e.lines().stream().anyMatch(l -> l.contains("UCX_MAX_HCA_PER_GPU")), e.lines().toString());
        assertTrue(e.lines().stream().anyMatch(l -> l.contains("rc_mlx5/mlx5_0:1")), e.lines().toString());
        assertTrue(e.lines().stream().noneMatch(l -> l.contains("libfabric")), e.lines().toString());
    }

    @Test
    void aBufferOnAnotherGpuOfTheSameHostGetsItsOwnGroup() {
        VariantSpec v = variant("""
                name: efa
                hosts:
                  a: {preset: p5.48xlarge}
                  b: {preset: p5.48xlarge}
                transport: {backend: libfabric}
                workload:
                  transfers:
                    - {from: "a:GPU0", to: "b:GPU0", size: 1 GB}
                    - {from: "a:GPU5", to: "b:GPU5", size: 1 GB}
                """);
        VariantRegistration.Outcome o = VariantRunner.registrationOutcome(v, hosts(v));
        List<String> gpu0 = planOf(o, "a", "GPU0").hcaNames();
        assertEquals(4, gpu0.size());
        Set<String> both = new TreeSet<>(gpu0);
        both.retainAll(GPU5_EFA_GROUP);
        assertEquals(Set.of(), both, "GPU0's rails are not GPU5's: " + gpu0);
        assertEquals(16, o.totals().mrCount(), "two GPUs per host, four rails each, one MR per rail, two hosts");
        assertTrue(o.hosts().get(0).plans().stream().flatMap(p -> p.perHca().stream()).mapToInt(HcaRegistration::mrCount)
                .allMatch(n -> n == 1));
    }
}
