package org.rdmasim.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * How UCX cuts one message over its lanes, checked against numbers worked out by hand from the
 * source (openucx/ucx v1.20.0 and v1.22.0, identical here): the per-lane minimum chunk of
 * {@code ucp_proto_multi_init} ({@code src/ucp/proto/proto_multi.c} v1.20.0 L402-410, v1.22.0
 * L481-489), the RMA length rule of {@code ucp_proto_multi_max_payload} ({@code proto_multi.inl}
 * L62-91) and the rendezvous rule of {@code ucp_proto_rndv_bulk_max_payload}
 * ({@code src/ucp/rndv/proto_rndv.inl} v1.20.0 L241-291, v1.22.0 L282-332).
 */
class LaneSplitTest {
    private static final long KIB = 1024;

    private static LaneSplit.Candidate lane(String nic, double weight) {
        return new LaneSplit.Candidate(nic, nic, weight);
    }

    private static List<Long> bytes(List<Lane> lanes) {
        return lanes.stream().map(Lane::bytes).toList();
    }

    private static List<String> nics(List<Lane> lanes) {
        return lanes.stream().map(Lane::sourceNic).toList();
    }

    @Test
    void eachLanesMinimumChunkScalesWithItsBandwidthOverTheSlowestLane() {
        // bw x 8192 / min_bw, truncated to size_t: 50 GB/s over 20 GB/s gives 20480, 30 over 20 gives 12288
        List<LaneSplit.Candidate> lanes = List.of(lane("fast", 50e9), lane("mid", 30e9), lane("slow", 20e9));
        assertEquals(List.of(20480L, 12288L, 8192L), LaneSplit.MinChunk.rma(8 * KIB).perLane(lanes));
        // 25/24 x 8192 = 8533.33: the fraction is dropped when the double is stored in a size_t
        assertEquals(List.of(8533L, 8192L),
                LaneSplit.MinChunk.rma(8 * KIB).perLane(List.of(lane("a", 25e9), lane("b", 24e9))));
    }

    @Test
    void noLanesMinimumChunkFallsBelowUcpMinBcopy() {
        // UCX_MIN_RMA_CHUNK_SIZE=16 still leaves 64 bytes per lane (UCP_MIN_BCOPY, src/ucp/core/ucp_types.h L24)
        assertEquals(List.of(64L, 64L),
                LaneSplit.MinChunk.rma(16).perLane(List.of(lane("a", 2), lane("b", 1))));
    }

    @Test
    void aMessageBelowTheFirstLanesMinimumStaysOnTheFirstLane() {
        // first lane's minimum 8 KiB x 2 = 16 KiB: a 12 KiB get is not split at all
        List<Lane> out = LaneSplit.split(12 * KIB, List.of(lane("a", 2), lane("b", 1)), LaneSplit.MinChunk.rma(8 * KIB));
        assertEquals(List.of("a"), nics(out));
        assertEquals(List.of(12 * KIB), bytes(out));
    }

    @Test
    void aLaneWhoseRemainderIsBelowTheRunningMinimumTakesAllTheRest() {
        // three equal lanes, 8 KiB minimum each, 20 KiB message. Weights ceil(65536/3) = 21846.
        // lane a: 20480 left >= 8192, sends ceil(21846 x 20480 / 65536) = 6827;
        // lane b: 13653 left < 8192 + 8192, so it sends all 13653; lane c gets nothing
        List<Lane> out = LaneSplit.split(20 * KIB, List.of(lane("a", 1), lane("b", 1), lane("c", 1)),
                LaneSplit.MinChunk.rma(8 * KIB));
        assertEquals(List.of("a", "b"), nics(out));
        assertEquals(List.of(6827L, 13653L), bytes(out));
    }

    @Test
    void lanesOfUnequalBandwidthSplitALargerMessageByWeight() {
        // weights ceil(65536 x 3/4) = 49152 and ceil(65536/4) = 16384; 100 KiB = 102400 bytes
        // lane a: 102400 left >= 24576 (3 x 8 KiB), sends 76800; lane b: 25600 left < 24576 + 8192, takes the rest
        List<Lane> out = LaneSplit.split(100 * KIB, List.of(lane("a", 3), lane("b", 1)), LaneSplit.MinChunk.rma(8 * KIB));
        assertEquals(List.of(76800L, 25600L), bytes(out));
    }

    @Test
    void aLargeMessageSplitsByWeightAsBefore() {
        List<Lane> lanes = LaneSplit.split(1_000_003, List.of(lane("a", 3), lane("b", 1)),
                LaneSplit.MinChunk.rma(8 * KIB));
        assertEquals(1_000_003, lanes.stream().mapToLong(Lane::bytes).sum());
        // ceil(49152 x 1000003 / 65536) = 750003; the last lane takes what is left
        assertEquals(List.of(750003L, 250000L), bytes(lanes));
        List<Lane> big = LaneSplit.split(16L << 30, List.of(lane("a", 1), lane("b", 1), lane("c", 1), lane("d", 1)),
                LaneSplit.MinChunk.rma(8 * KIB));
        assertEquals(List.of(4L << 30, 4L << 30, 4L << 30, 4L << 30), bytes(big));
    }

    @Test
    void beforeUcx120AnRmaMessageIsSplitUnlessItIsUnderUcpMinBcopy() {
        // v1.19.0 proto_multi.inl L80: only "length < UCP_MIN_BCOPY" keeps a message whole
        List<Lane> out = LaneSplit.split(12 * KIB, List.of(lane("a", 2), lane("b", 1)), LaneSplit.MinChunk.RMA_UNTIL_1_19);
        // ceil(43691 x 12288 / 65536) = 8193
        assertEquals(List.of(8193L, 4095L), bytes(out));
        List<Lane> tiny = LaneSplit.split(63, List.of(lane("a", 1), lane("b", 1)), LaneSplit.MinChunk.RMA_UNTIL_1_19);
        assertEquals(List.of(63L), bytes(tiny));
    }

    @Test
    void rendezvousGivesEachLaneAtLeastItsMinimumInLaneOrder() {
        // UCX_MIN_RNDV_CHUNK_SIZE 16 KiB, lanes 2:1 -> minima 32 KiB and 16 KiB, running ends 32 KiB, 48 KiB.
        // 40 KiB: lane a ends at max(ceil(43691 x 40960 / 65536), 32768) = 32768; lane b sends the other 8 KiB
        List<LaneSplit.Candidate> lanes = List.of(lane("a", 2), lane("b", 1));
        List<Lane> out = LaneSplit.split(40 * KIB, lanes, LaneSplit.MinChunk.rendezvous(16 * KIB));
        assertEquals(List.of(32768L, 8192L), bytes(out));
        // 20 KiB fits within lane a's minimum: one lane
        assertEquals(List.of(20480L), bytes(LaneSplit.split(20 * KIB, lanes, LaneSplit.MinChunk.rendezvous(16 * KIB))));
        // 1 MiB: the weights decide, lane a ends at ceil(43691 x 1048576 / 65536) = 699056
        assertEquals(List.of(699056L, 349520L),
                bytes(LaneSplit.split(1L << 20, lanes, LaneSplit.MinChunk.rendezvous(16 * KIB))));
    }

    @Test
    void anUnboundedMinimumKeepsEveryMessageOnTheFirstLane() {
        List<Lane> out = LaneSplit.split(1L << 30, List.of(lane("a", 1), lane("b", 1)),
                LaneSplit.MinChunk.rma(Long.MAX_VALUE));
        assertEquals(List.of(1L << 30), bytes(out));
    }
}
