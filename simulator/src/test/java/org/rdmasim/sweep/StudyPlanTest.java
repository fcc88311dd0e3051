package org.rdmasim.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StudyPlanTest {
    @TempDir
    Path tmp;

    private Study study(String extra) throws IOException {
        Files.copy(Path.of(System.getProperty("rdmasim.repo", "..")).resolve("scenarios/studies/fanout-64.yaml"),
                tmp.resolve("base.yaml"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        Path s = tmp.resolve("s.yaml");
        Files.writeString(s, "study: plan\nscenario: base.yaml\nreplications: 3\nknobs:\n"
                + "  hosts.sources.count: {from: 1, to: 8, factor: 2}\n"
                + "  workload.fanout.arrival.meanGap: {from: 5, to: 45, step: 10, unit: ms}\n"
                + "  workload.fanout.model: [1 GB, 2 GB, 4 GB]\n" + extra);
        return StudyReader.read(s, false);
    }

    @Test
    void theGridTurnsTheFirstKnobSlowestAndRangesExpandAsWritten() throws IOException {
        StudyPlan plan = new StudyPlan(study(""));
        assertEquals(List.of("1", "2", "4", "8"), plan.study().knobs().get(0).texts());
        assertEquals(List.of("5 ms", "15 ms", "25 ms", "35 ms", "45 ms"), plan.study().knobs().get(1).texts());
        assertEquals(60, plan.points().size());
        assertEquals(List.of("1", "5 ms", "2 GB"), plan.values(plan.points().get(1)));
        assertEquals(List.of("2", "5 ms", "1 GB"), plan.values(plan.points().get(15)));
        assertEquals(180, plan.rows());
    }

    /** A range past the value limit is cut one value over it: the message said "10001 values" of a million. */
    @Test
    void aRangeOverTheLimitIsSaidAsSuchNotCounted() throws IOException {
        Files.copy(Path.of(System.getProperty("rdmasim.repo", "..")).resolve("scenarios/studies/fanout-64.yaml"),
                tmp.resolve("base.yaml"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        Path s = tmp.resolve("s.yaml");
        Files.writeString(s, "study: big\nscenario: base.yaml\nknobs:\n"
                + "  workload.fanout.model: {from: 1, to: 1000000, step: 1, unit: MB}\n");
        var e = assertThrows(org.rdmasim.scenario.ScenarioException.class, () -> StudyReader.read(s, false));
        assertTrue(e.getMessage().endsWith("knobs.workload.fanout.model: knob 'workload.fanout.model': the range gives "
                + "more than 10000 values; take a larger step or factor, or a narrower range"), e.getMessage());
    }

    @Test
    void aSampleIsDistinctGridPointsInGridOrderTheSameForTheSameSeed() throws IOException {
        StudyPlan a = new StudyPlan(study("sample: {points: 17, seed: 4}\n"));
        StudyPlan b = new StudyPlan(study("sample: {points: 17, seed: 4}\n"));
        StudyPlan c = new StudyPlan(study("sample: {points: 17, seed: 5}\n"));
        List<Long> ga = a.points().stream().map(StudyPlan.Point::gridIndex).toList();
        assertEquals(ga, b.points().stream().map(StudyPlan.Point::gridIndex).toList());
        assertTrue(!ga.equals(c.points().stream().map(StudyPlan.Point::gridIndex).toList()), "another seed, another sample");
        assertEquals(17, new HashSet<>(ga).size());
        List<Long> sorted = new ArrayList<>(ga);
        sorted.sort(null);
        assertEquals(sorted, ga);
        assertTrue(ga.get(16) < 60 && ga.get(0) >= 0);
    }

    @Test
    void shardsSplitEveryRowExactlyOnce() throws IOException {
        StudyPlan plan = new StudyPlan(study(""));
        for (int n : new int[] {1, 2, 7, 60}) {
            Set<String> seen = new HashSet<>();
            for (int i = 1; i <= n; i++) {
                for (StudyPlan.Task t : plan.tasks(new StudyPlan.Shard(i, n))) {
                    assertTrue(seen.add(t.point().index() + "/" + t.replication()), "twice: " + t);
                }
            }
            assertEquals(180, seen.size());
        }
        assertThrows(IllegalArgumentException.class, () -> StudyPlan.Shard.parse("0/3"));
        assertThrows(IllegalArgumentException.class, () -> StudyPlan.Shard.parse("4/3"));
        assertThrows(IllegalArgumentException.class, () -> StudyPlan.Shard.parse("2"));
    }
}
