package org.rdmasim.report;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.jfree.chart.JFreeChart;
import org.jfree.data.category.DefaultCategoryDataset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Charts drawn by the batch (on several threads where there are cores) are the files one thread draws. */
class ChartBatchTest {
    @TempDir
    Path dir;

    private static JFreeChart bars(int k) {
        DefaultCategoryDataset d = new DefaultCategoryDataset();
        d.addValue(k, "slowest", "v" + k);
        d.addValue(2 * k, "mean", "v" + k);
        return Charts.bars("chart " + k, "seconds", d, List.of());
    }

    private static JFreeChart cdf(int k) {
        return Charts.pullCdf("cdf " + k, Map.of("v", new double[] {0.1 * k, 0.2 * k, 0.3 * k}));
    }

    @Test
    void aBatchWritesTheSameBytesAsOneThreadAndKeepsTheOrderOfNames() throws IOException {
        Path batchDir = Files.createDirectories(dir.resolve("batch"));
        Path serialDir = Files.createDirectories(dir.resolve("serial"));
        ChartBatch batch = new ChartBatch();
        for (int k = 1; k <= 4; k++) {
            int n = k;
            batch.add(() -> n % 2 == 0 ? bars(n) : cdf(n), "c" + n);
            ChartFiles.write(n % 2 == 0 ? bars(n) : cdf(n), serialDir, "c" + n);
        }
        batch.writeAll(batchDir);
        assertEquals(List.of("c1", "c2", "c3", "c4"), batch.names());
        for (int k = 1; k <= 4; k++) {
            for (String ext : List.of(".png", ".svg")) {
                assertArrayEquals(Files.readAllBytes(serialDir.resolve("c" + k + ext)),
                        Files.readAllBytes(batchDir.resolve("c" + k + ext)), "c" + k + ext);
            }
        }
    }

    @Test
    void aChartThatFailsFailsTheBatch() {
        ChartBatch batch = new ChartBatch();
        batch.add(() -> bars(1), "ok");
        batch.add(() -> {
            throw new IllegalStateException("no data");
        }, "broken");
        assertEquals("no data", assertThrows(IllegalStateException.class, () -> batch.writeAll(dir)).getMessage());
        // the failure is reported once every other chart is written, not while one still writes into the folder
        assertTrue(Files.isRegularFile(dir.resolve("ok.png")) && Files.isRegularFile(dir.resolve("ok.svg")));
    }
}
