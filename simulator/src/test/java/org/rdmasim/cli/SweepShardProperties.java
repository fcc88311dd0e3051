package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * A study split into any number of shards, each run on any number of threads, merges into the same
 * bytes as one local run: rows do not depend on who computed them. Four tries in CI, each running the
 * study's 8 rows again split its own way.
 */
class SweepShardProperties {
    private static Path local;
    private static Path study;

    private static synchronized void localRun() throws IOException {
        if (local != null) {
            return;
        }
        Path dir = Files.createTempDirectory("rdmasim-sweep-prop");
        study = StudyFixture.write(dir, StudyFixture.STUDY);
        local = dir.resolve("local");
        var r = CliTestSupport.run("sweep", study.toString(), "--threads", "1", "--out", local.toString());
        assertEquals(0, r.code(), r.err());
    }

    @Property(tries = 4)
    void shardsMergeIntoTheLocalRun(@ForAll @IntRange(min = 1, max = 6) int shards,
            @ForAll @IntRange(min = 1, max = 3) int threads) throws IOException {
        localRun();
        Path dir = Files.createTempDirectory("rdmasim-sweep-shards");
        List<String> args = new ArrayList<>(List.of("merge"));
        for (int i = 1; i <= shards; i++) {
            Path out = dir.resolve("shard-" + i);
            var r = CliTestSupport.run("sweep", study.toString(), "--shard", i + "/" + shards, "--threads",
                    String.valueOf(threads), "--out", out.toString());
            assertEquals(0, r.code(), r.err());
            args.add(out.toString());
        }
        // shards given in any order
        java.util.Collections.reverse(args.subList(1, args.size()));
        args.add("--out");
        args.add(dir.resolve("merged").toString());
        var m = CliTestSupport.run(args.toArray(String[]::new));
        assertEquals(0, m.code(), m.err());
        assertTrue(m.out().contains(shards + " shard(s) merged, 8 row(s)"), m.out());
        StudyFixture.assertSameTables(local, dir.resolve("merged"));
    }
}
