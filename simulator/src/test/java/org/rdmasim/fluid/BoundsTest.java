package org.rdmasim.fluid;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** A group's bounds: the lowest value counted, as the first of a tree of the same values would give. */
class BoundsTest {

    @Test
    void lowestFollowsAddsAndRemovesOfRepeatedValues() {
        Random random = new Random(7);
        double[] pool = {3.5, 1.25, 1.25 + Math.ulp(1.25), 9.0, Double.POSITIVE_INFINITY, -0.0, 0.0, 2.0};
        Bounds bounds = new Bounds();
        List<Double> counted = new ArrayList<>();
        for (int step = 0; step < 20_000; step++) {
            if (counted.isEmpty() || random.nextInt(3) > 0 && counted.size() < 200) {
                double v = pool[random.nextInt(pool.length)];
                bounds.add(v);
                counted.add(v);
            } else {
                double v = counted.remove(random.nextInt(counted.size()));
                bounds.remove(v);
            }
            double lowest = counted.stream().min(Double::compare).orElse(Double.POSITIVE_INFINITY);
            assertEquals(0, Double.compare(lowest, bounds.lowest()), "step " + step);
            assertEquals(counted.isEmpty(), bounds.isEmpty());
        }
    }

    @Test
    void aValueTakesItsPlaceBetweenOthersAndLeavesWithItsLastCount() {
        Bounds bounds = new Bounds();
        bounds.add(5);
        bounds.add(2);
        bounds.add(8);
        bounds.add(2);
        assertEquals(2, bounds.lowest());
        bounds.remove(2);
        assertEquals(2, bounds.lowest(), "one count of 2 is left");
        bounds.remove(2);
        assertEquals(5, bounds.lowest());
        bounds.remove(5);
        bounds.remove(8);
        assertTrue(bounds.isEmpty());
        assertEquals(Double.POSITIVE_INFINITY, bounds.lowest());
    }

    @Test
    void removingAValueNeverAddedIsRefused() {
        Bounds bounds = new Bounds();
        bounds.add(1.0);
        assertThrows(IllegalStateException.class, () -> bounds.remove(1.0 + Math.ulp(1.0)));
        assertEquals(1.0, bounds.lowest());
    }
}
