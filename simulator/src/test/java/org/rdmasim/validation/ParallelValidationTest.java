package org.rdmasim.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Rows judged on several threads: the same table as on one, in catalogue order, and a variant several rows read
 * made once however many threads ask for it at the same time.
 */
class ParallelValidationTest {
    private static Path scenarios() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("simulator/SOURCES.md")) && Files.isDirectory(p.resolve("scenarios"))) {
                return p.resolve("scenarios");
            }
        }
        throw new IllegalStateException("no repository root");
    }

    /** PegaFlow's rows: several read one scenario file's variants, so threads meet on the same runs. */
    @Test
    void theTableOnFourThreadsIsTheTableOnOne() {
        List<ValidationRow> rows = ValidationCatalog.rows().stream().filter(r -> r.id().startsWith("PEGA-")).toList();
        assertTrue(rows.size() >= 6, "PegaFlow's rows: " + rows.size());
        List<Validation.Result> one = Validation.run(rows, scenarios(), 1, id -> { });
        List<String> started = java.util.Collections.synchronizedList(new ArrayList<>());
        List<Validation.Result> four = Validation.run(rows, scenarios(), 4, started::add);
        assertEquals(rows.size(), four.size());
        assertEquals(rows.size(), started.size(), "each row is started once");
        for (int i = 0; i < rows.size(); i++) {
            Validation.Result a = one.get(i);
            Validation.Result b = four.get(i);
            assertSame(rows.get(i), b.row(), "catalogue order kept");
            assertEquals(Double.doubleToLongBits(a.modelled()), Double.doubleToLongBits(b.modelled()), a.row().id());
            assertEquals(a.note(), b.note(), a.row().id());
            assertEquals(a.verdict(), b.verdict(), a.row().id());
        }
    }

    @Test
    void aValueAskedForByManyThreadsAtOnceIsMadeOnce() throws Exception {
        ConcurrentHashMap<String, FutureTask<Object>> made = new ConcurrentHashMap<>();
        AtomicInteger makes = new AtomicInteger();
        CountDownLatch go = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<Object>> asked = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                asked.add(pool.submit(() -> {
                    go.await();
                    return ScenarioRuns.once(made, "file.yaml#variant", () -> {
                        makes.incrementAndGet();
                        Thread.sleep(50);
                        return new Object();
                    });
                }));
            }
            go.countDown();
            Object first = asked.get(0).get(10, TimeUnit.SECONDS);
            for (Future<Object> f : asked) {
                assertSame(first, f.get(10, TimeUnit.SECONDS));
            }
            assertEquals(1, makes.get());
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void whatTheMakingThrewEveryAskerGets() {
        ConcurrentHashMap<String, FutureTask<Object>> made = new ConcurrentHashMap<>();
        assertThrows(IOException.class, () -> ScenarioRuns.once(made, "k", () -> {
            throw new IOException("no such file");
        }));
        IOException again = assertThrows(IOException.class, () -> ScenarioRuns.once(made, "k", () -> new Object()));
        assertEquals("no such file", again.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ScenarioRuns.once(made, "v", () -> {
            throw new IllegalArgumentException("file.yaml has no variant v");
        }));
    }
}
