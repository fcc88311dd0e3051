package org.rdmasim.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** A chart's "at" sizes name each run of neighbouring marked points, never one span over a gap. */
class SizeRunsTest {
    private static final List<Long> POINTS = List.of(4096L, 65536L, 1L << 20, 16L << 20, 1L << 30);

    @Test
    void oneRun() {
        assertEquals("4 KiB-1 MiB", ReportWriter.sizeRuns(POINTS, List.of(4096L, 65536L, 1L << 20)));
    }

    @Test
    void aGapSplitsTheRuns() {
        // held at the small and the largest sizes but not in between: the old label read "4 KiB-1 GiB"
        assertEquals("4 KiB-64 KiB, 1 GiB", ReportWriter.sizeRuns(POINTS, List.of(4096L, 65536L, 1L << 30)));
    }

    @Test
    void singlePoints() {
        assertEquals("64 KiB, 16 MiB", ReportWriter.sizeRuns(POINTS, List.of(65536L, 16L << 20)));
    }
}
