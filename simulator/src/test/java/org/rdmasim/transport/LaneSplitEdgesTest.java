package org.rdmasim.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * LaneSplit at its edges, against UCX's own conditions: a remainder equal to the minimum is still split
 * ({@code offset < min_end_offset}, openucx/ucx src/ucp/proto/proto_multi.inl v1.20.0 L81), a message of
 * exactly UCP_MIN_BCOPY is split before v1.20 ({@code length < UCP_MIN_BCOPY}, v1.19.0 L80), a zero-byte
 * transfer keeps one lane, and sizes whose weighted products overflow 64 bits are cut exactly.
 */
class LaneSplitEdgesTest {
    private static final List<LaneSplit.Candidate> TWO_EQUAL = List.of(new LaneSplit.Candidate("mlx5_0", "mlx5_0", 1),
            new LaneSplit.Candidate("mlx5_1", "mlx5_1", 1));

    private static List<Long> shares(long bytes, LaneSplit.MinChunk min) {
        return LaneSplit.split(bytes, TWO_EQUAL, min).stream().map(Lane::bytes).toList();
    }

    @Test
    void aRemainderEqualToTheMinimumIsStillSplitAndOneByteLessIsNot() {
        // Weights 32768/65536 each: half, rounded up.
        assertEquals(List.of(4096L, 4096L), shares(8192, LaneSplit.MinChunk.rma(8192)));
        assertEquals(List.of(8191L), shares(8191, LaneSplit.MinChunk.rma(8192)));
    }

    @Test
    void beforeUcx120OnlyAMessageUnderSixtyFourBytesStaysWhole() {
        assertEquals(List.of(63L), shares(63, LaneSplit.MinChunk.RMA_UNTIL_1_19));
        assertEquals(List.of(32L, 32L), shares(64, LaneSplit.MinChunk.RMA_UNTIL_1_19));
    }

    @Test
    void aZeroByteTransferKeepsOnlyItsFirstLane() {
        List<Lane> lanes = LaneSplit.split(0, TWO_EQUAL, LaneSplit.MinChunk.rma(8192));
        assertEquals(List.of(new Lane("mlx5_0", "mlx5_0", 0, 0)), lanes);
    }

    @Test
    void sizesWhoseWeightedProductOverflowsAreCutExactly() {
        // 32768 x 2^62 needs 77 bits: scaled through BigInteger, 2^61 a lane.
        assertEquals(List.of(1L << 61, 1L << 61), shares(1L << 62, LaneSplit.MinChunk.rma(8192)));
        // One lane of weight 65536 over Long.MAX_VALUE bytes: the product saturates, the lane takes everything.
        List<Lane> one = LaneSplit.split(Long.MAX_VALUE, List.of(TWO_EQUAL.get(0)), LaneSplit.MinChunk.rma(8192));
        assertEquals(Long.MAX_VALUE, one.get(0).bytes());
    }

    @Test
    void aRendezvousMinimumBeyondAnySizeSaturatesAndPutsEverythingOnTheFirstLane() {
        // Each lane's minimum is Long.MAX_VALUE; their running sum saturates instead of wrapping negative.
        assertEquals(List.of(1_000_000L), shares(1_000_000, LaneSplit.MinChunk.rendezvous(Long.MAX_VALUE)));
    }
}
