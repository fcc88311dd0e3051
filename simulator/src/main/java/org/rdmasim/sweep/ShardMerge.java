package org.rdmasim.sweep;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.rdmasim.scenario.ScenarioException;

/**
 * Combines the folders of a study's shards into the table a local run of the whole study writes. It
 * refuses, before writing anything: a folder with no table (a shard that never ran or crashed before
 * writing), a table of another study (its fingerprint differs), shards of different splits, a shard
 * given twice, a shard whose rows are not all there (failed or interrupted), and shards missing from
 * the split; each is named.
 */
public final class ShardMerge {
    private ShardMerge() {
    }

    public static ResultTable merge(List<Path> dirs) throws IOException {
        if (dirs.isEmpty()) {
            throw new StudyInputException("merge needs at least one shard folder");
        }
        Map<Integer, Path> byIndex = new TreeMap<>();
        ResultTable.Meta first = null;
        Path firstDir = null;
        List<ResultTable> tables = new ArrayList<>();
        for (Path d : dirs) {
            Path json = d.resolve(ResultTable.JSON);
            if (!Files.isRegularFile(json)) {
                // A sweep writes its table before its first point, so a folder without one holds no sweep
                // to resume: it is another command's output (run's summary.json) or a shard never started.
                if (Files.isRegularFile(d.resolve("summary.json"))) {
                    throw new StudyInputException(d + ": a run's report (summary.json), not a sweep shard's folder; merge "
                            + "takes the --out folders of 'sweep STUDY --shard I/N'");
                }
                throw new StudyInputException(d + ": no result table (" + ResultTable.JSON + "): not a sweep shard's "
                        + "folder, or its shard never started; run it with 'sweep STUDY --shard I/N --out " + d + "'");
            }
            ResultTable t = ResultTable.read(d);
            ResultTable.Meta m = t.meta();
            if (first == null) {
                first = m;
                firstDir = d;
            } else if (!m.fingerprint().equals(first.fingerprint()) || !m.study().equals(first.study())) {
                throw new ScenarioException(json.toString(), 1, 1, "fingerprint: shard of study '" + m.study() + "' ("
                        + m.fingerprint() + ") does not belong with " + firstDir + " (study '" + first.study() + "', "
                        + first.fingerprint() + "): the study or its base scenario differ; nothing merged");
            }
            int count = m.shard() == null ? 1 : m.shard().count();
            int firstCount = first.shard() == null ? 1 : first.shard().count();
            if (count != firstCount) {
                throw new ScenarioException(json.toString(), 1, 1, "shard: " + (m.shard() == null ? "a whole run"
                        : "shard " + m.shard()) + " does not match the split of " + firstDir + " into " + firstCount
                        + "; nothing merged");
            }
            int index = m.shard() == null ? 1 : m.shard().index();
            Path dup = byIndex.put(index, d);
            if (dup != null) {
                throw new ScenarioException(json.toString(), 1, 1, "shard: shard " + index + "/" + count
                        + " is given twice (also " + dup + "); nothing merged");
            }
            if (!t.complete()) {
                throw new ScenarioException(json.toString(), 1, 1, "complete: shard " + index + "/" + count + " in " + d
                        + " holds " + t.rows().size() + " of its " + m.expectedRows() + " rows (failed or interrupted); "
                        + "finish it with sweep --resume " + d + "; nothing merged");
            }
            tables.add(t);
        }
        int count = first.shard() == null ? 1 : first.shard().count();
        List<String> missing = new ArrayList<>();
        for (int i = 1; i <= count; i++) {
            if (!byIndex.containsKey(i)) {
                missing.add(i + "/" + count);
            }
        }
        if (!missing.isEmpty()) {
            throw new StudyInputException("shard(s) " + String.join(", ", missing) + " of study '" + first.study()
                    + "' missing: none of the given folders holds them; nothing merged");
        }
        ResultTable whole = new ResultTable(first.whole());
        for (ResultTable t : tables) {
            t.rows().forEach(whole::add);
        }
        return whole;
    }
}
