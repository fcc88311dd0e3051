package org.rdmasim.fluid;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** A long pseudo-path's positions: what a plain map of the same puts and removes holds, through growth and deletions. */
class PathPositionsTest {

    @Test
    void readsWhatAMapOfTheSameChangesHolds() {
        Random random = new Random(11);
        PathPositions positions = new PathPositions();
        Map<Integer, Integer> expected = new HashMap<>();
        // Numbers from a narrow range, some consecutive runs among them, so probes collide and removals
        // shift entries back across wrapped runs.
        for (int step = 0; step < 200_000; step++) {
            int number = random.nextBoolean() ? random.nextInt(3_000) : 40_000 + random.nextInt(64);
            if (random.nextInt(3) > 0 && expected.size() < 1_500) {
                int position = random.nextInt(1_000);
                positions.put(number, position);
                expected.put(number, position);
            } else {
                positions.remove(number);
                expected.remove(number);
            }
            int probe = random.nextInt(3_000);
            assertEquals(expected.getOrDefault(probe, -1), positions.get(probe), "number " + probe + " at step " + step);
        }
        for (int number = 0; number < 3_000; number++) {
            assertEquals(expected.getOrDefault(number, -1), positions.get(number), "number " + number);
        }
        for (int number = 40_000; number < 40_064; number++) {
            assertEquals(expected.getOrDefault(number, -1), positions.get(number), "number " + number);
        }
    }

    @Test
    void resourceNumberZeroIsKeptApartFromAFreeSlot() {
        PathPositions positions = new PathPositions();
        assertEquals(-1, positions.get(0));
        positions.put(0, 7);
        assertEquals(7, positions.get(0));
        positions.remove(0);
        assertEquals(-1, positions.get(0));
    }
}
