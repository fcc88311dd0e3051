package org.rdmasim.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Receivers ending in one instant are handled in receiver order, each once: what decides which waiting
 * receiver gets which freed source must not be the order their computations finished in.
 */
class EndingReceiversTest {

    @Test
    void takesReceiversLowestFirstAndEachOnce() {
        EndingReceivers ending = new EndingReceivers(10);
        assertTrue(ending.isEmpty());
        for (int i : new int[] {7, 2, 9, 2, 0, 7, 5}) {
            ending.add(i);
        }
        List<Integer> out = new ArrayList<>();
        while (!ending.isEmpty()) {
            out.add(ending.pollFirst());
        }
        assertEquals(List.of(0, 2, 5, 7, 9), out);
    }

    @Test
    void agreesWithASortedSetWhenAddsAndRemovalsInterleave() {
        // A receiver taken out may be added again later in the same instant (a tree's new source ending at
        // once); the order must stay that of a sorted set of indices, as the fan-out held them before.
        Random random = new Random(42);
        EndingReceivers ending = new EndingReceivers(200);
        TreeSet<Integer> expected = new TreeSet<>();
        for (int step = 0; step < 20_000; step++) {
            if (random.nextInt(3) > 0) {
                int i = random.nextInt(200);
                ending.add(i);
                expected.add(i);
            } else if (!expected.isEmpty()) {
                assertFalse(ending.isEmpty());
                assertEquals(expected.pollFirst().intValue(), ending.pollFirst());
            }
            assertEquals(expected.isEmpty(), ending.isEmpty());
        }
    }
}
