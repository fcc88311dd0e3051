package org.rdmasim.transport.ucx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** UCX's distance order (ucs_topo_distance_cmp with ucs_fp_compare), worked on hand-made distances. */
class HcaDistanceTest {
    private static int cmp(HcaDistance a, HcaDistance b) {
        return HcaDistance.CLOSEST_FIRST.compare(a, b);
    }

    @Test
    void lowerLatencyThenHigherBandwidthIsCloser() {
        assertTrue(cmp(new HcaDistance(100e-9, 1e9), new HcaDistance(200e-9, 50e9)) < 0, "latency first");
        assertTrue(cmp(new HcaDistance(100e-9, 50e9), new HcaDistance(100e-9, 1e9)) < 0, "then bandwidth, higher first");
        assertEquals(0, cmp(new HcaDistance(0, Double.POSITIVE_INFINITY), new HcaDistance(0, Double.POSITIVE_INFINITY)));
        assertTrue(cmp(new HcaDistance(0, Double.POSITIVE_INFINITY), new HcaDistance(0, 1e12)) < 0);
    }

    /** Values closer than a millionth of their sum are equal: 2 ppm apart ties, 3 ppm apart does not. */
    @Test
    void valuesWithinAMillionthOfTheirSumAreEquallyClose() {
        double bw = 25e9;
        assertEquals(0, cmp(new HcaDistance(0, bw), new HcaDistance(0, bw * (1 + 1.9e-6))));
        assertTrue(cmp(new HcaDistance(0, bw * (1 + 3e-6)), new HcaDistance(0, bw)) < 0);
        assertEquals(0, cmp(new HcaDistance(1e-6, bw), new HcaDistance(1e-6 * (1 + 1e-6), bw)));
    }
}
