package org.rdmasim.transport.libfabric;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rdmasim.engine.SimulationClock;
import org.rdmasim.fluid.FluidNetwork;
import org.rdmasim.hardware.Cluster;
import org.rdmasim.hardware.FabricSpec;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.Presets;
import org.rdmasim.transport.DataPath;
import org.rdmasim.transport.Endpoint;
import org.rdmasim.transport.Lane;
import org.rdmasim.transport.LanePolicy;
import org.rdmasim.transport.LaneSplit;
import org.rdmasim.transport.Operation;
import org.rdmasim.transport.TransferSpec;

/** NIXL libfabric's striping and round-robin rule (prepareAndSubmitTransfer) on hand-computed cases. */
class LibfabricRailsTest {
    private static final long KIB = 1024;

    private static Cluster p5Pair() {
        return new Cluster(List.of(new Host("src", Presets.get("p5.48xlarge")), new Host("dst", Presets.get("p5.48xlarge"))),
                FabricSpec.nonBlocking(), new FluidNetwork(new SimulationClock()));
    }

    private static TransferSpec spec(long bytes, int descriptors, Operation op) {
        return new TransferSpec("t", new Endpoint("src", "GPU3"), new Endpoint("dst", "GPU3"), bytes, op, descriptors,
                DataPath.GPUDIRECT, DataPath.GPUDIRECT, false, 0);
    }

    private static Map<String, Long> shares(List<LaneSplit.Candidate> lanes, long bytes) {
        Map<String, Long> out = new LinkedHashMap<>();
        for (Lane l : LaneSplit.split(bytes, lanes, LaneSplit.MinChunk.PROPORTIONAL_SHARES)) {
            out.put(l.sourceNic() + ">" + l.sinkNic(), l.bytes());
        }
        return out;
    }

    @Test
    void oneLargeDescriptorIsStripedEquallyOverTheGpusFourRails() {
        LibfabricRails rails = new LibfabricRails(List.of());
        long bytes = 16_000_000_000L;
        LibfabricDecision d = rails.decide(p5Pair(), spec(bytes, 1, Operation.READ));
        assertTrue(d.striped());
        Map<String, Long> s = shares(d.lanes(), bytes);
        // GPU3's switch holds buses 0x82-0x85 = rdmap130s0..rdmap133s0; chunk i goes rail i -> endpoint i
        assertEquals(Map.of("rdmap130s0>rdmap130s0", 4_000_000_000L, "rdmap131s0>rdmap131s0", 4_000_000_000L,
                "rdmap132s0>rdmap132s0", 4_000_000_000L, "rdmap133s0>rdmap133s0", 4_000_000_000L), s);
    }

    @Test
    void aStripedRemainderGoesToTheLastRail() {
        // chunk_size = 1 MiB + 10 bytes over 4 = 262146, remainder 2 on the last rail (rail manager L490-497)
        long bytes = (1 << 20) + 10;
        LibfabricDecision d = new LibfabricRails(List.of()).decide(p5Pair(), spec(bytes, 1, Operation.READ));
        assertEquals(List.of(262146L, 262146L, 262146L, 262148L), List.copyOf(shares(d.lanes(), bytes).values()));
    }

    @Test
    void theThresholdIsInclusive() {
        LibfabricRails rails = new LibfabricRails(List.of());
        // usesStriping: transfer_size >= 128 KiB
        assertTrue(rails.decide(p5Pair(), spec(128 * KIB * 10, 10, Operation.READ)).striped());
        assertFalse(rails.decide(p5Pair(), spec((128 * KIB - 1) * 10, 10, Operation.READ)).striped());
    }

    @Test
    void smallReadsAreDealtOneByOne() {
        // 10 READ descriptors of 64 KiB over 4 rails: rails 0,1 get 3 descriptors, rails 2,3 get 2
        LibfabricDecision d = new LibfabricRails(List.of()).decide(p5Pair(), spec(640 * KIB, 10, Operation.READ));
        assertFalse(d.striped());
        assertEquals(List.of(3.0, 3.0, 2.0, 2.0), d.lanes().stream().map(LaneSplit.Candidate::weight).toList());
        assertEquals(List.of(192 * KIB, 192 * KIB, 128 * KIB, 128 * KIB),
                List.copyOf(shares(d.lanes(), 640 * KIB).values()));
    }

    @Test
    void smallWritesGoSixteenToARail() {
        // 40 WRITE descriptors: 0-15 on rail 0, 16-31 on rail 1, 32-39 on rail 2, nothing on rail 3
        LibfabricDecision d = new LibfabricRails(List.of()).decide(p5Pair(), spec(40 * 64 * KIB, 40, Operation.WRITE));
        assertTrue(d.writeBatch());
        assertEquals(List.of(16.0, 16.0, 8.0), d.lanes().stream().map(LaneSplit.Candidate::weight).toList());
        assertEquals("rdmap130s0", d.lanes().get(0).sourceNic(), "a WRITE's initiator is the source");
    }

    @Test
    void fewerRemoteEndpointsAreReusedByIndex() {
        // the receiver sees two devices of GPU3's switch, the source four: chunk i -> endpoint i % 2
        Cluster c = p5Pair();
        LibfabricRails rails = new LibfabricRails(List.of("rdmap130s0", "rdmap131s0", "rdmap132s0", "rdmap133s0"));
        LibfabricDecision both = rails.decide(c, spec(1 << 30, 1, Operation.WRITE));
        assertEquals(4, both.lanes().size());
        Map<List<String>, Long> w = new LinkedHashMap<>();
        LibfabricRails.countDescriptors(4, 1, List.of("a0", "a1", "a2", "a3"), List.of("b0", "b1"), w);
        assertEquals(Map.of(List.of("a0", "b0"), 1L, List.of("a1", "b1"), 1L, List.of("a2", "b0"), 1L,
                List.of("a3", "b1"), 1L), w);
        // 1000001 descriptors over 4 x 2: counted by whole periods plus the rest
        Map<List<String>, Long> many = new LinkedHashMap<>();
        LibfabricRails.countDescriptors(1_000_001, 1, List.of("a0", "a1", "a2", "a3"), List.of("b0", "b1"), many);
        assertEquals(250_001L, many.get(List.of("a0", "b0")));
        assertEquals(250_000L, many.get(List.of("a3", "b1")));
        assertEquals(1_000_001L, many.values().stream().mapToLong(Long::longValue).sum());
    }

    @Test
    void oneRailTakesEverythingAndPlansDependOnSize() {
        LibfabricRails pinned = new LibfabricRails(List.of("rdmap130s0"));
        LibfabricDecision d = pinned.decide(p5Pair(), spec(1L << 30, 1, Operation.READ));
        assertFalse(d.striped(), "one rail is never striped");
        assertEquals(1, d.lanes().size());
        LanePolicy policy = pinned;
        assertTrue(policy.dependsOnSize());
    }

    @Test
    void hostMemoryIsRefusedNotGuessed() {
        TransferSpec fromHost = new TransferSpec("t", new Endpoint("src", "CPU0"), new Endpoint("dst", "GPU0"), 1 << 20,
                Operation.READ, 1, DataPath.GPUDIRECT, DataPath.GPUDIRECT, false, 0);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new LibfabricRails(List.of()).decide(p5Pair(), fromHost));
        assertTrue(e.getMessage().contains("host memory"), e.getMessage());
    }
}
