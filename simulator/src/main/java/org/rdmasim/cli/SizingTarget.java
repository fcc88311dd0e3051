package org.rdmasim.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.rdmasim.scenario.SizingSearch;

/**
 * What {@code rdmasim size} sizes for: a fan-out's p99 pull time ({@link P99Target}) or a refit's time per cycle
 * ({@link RefitCycleTarget}). Each knows how its points are simulated ({@code evaluator}), which search walks its knob, and its
 * table, CSV and JSON fields and charts; the search itself, its progress line and Ctrl-C are {@link SizingSweep}'s.
 */
sealed interface SizingTarget permits P99Target, RefitCycleTarget {
    /** The scenario's name, for the progress line and the table. */
    String scenario();

    /** The knob's name, as given to {@code --vary}. */
    String label();

    /** A new search over the knob's values (positions from 1). */
    SizingSearch search();

    /** The knob's value at a search position as the table shows it. */
    String shownAt(int position);

    /** Every file the sizing writes (charts only once the search is complete). */
    List<String> files();

    /** Neighbouring points whose figure rises with the knob. */
    List<String> violations(SizingSearch search);

    void printTable(PrintWriter o, SizingSweep.Outcome outcome);

    /** The charts of a complete search, from its points that ran. */
    void writeCharts(List<SizingSweep.Row> ok, Path dir) throws IOException;

    /** sizing.csv */
    String csv(List<SizingSweep.Row> points);

    /** sizing.json */
    ObjectNode json(SizingSweep.Outcome outcome);
}
