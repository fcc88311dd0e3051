package org.rdmasim.sizing;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Formatter;
import java.util.List;
import java.util.Locale;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * What {@code rdmasim size} sizes for: a fan-out's p99 pull time ({@link P99Target}) or a refit's time per cycle
 * ({@link RefitCycleTarget}). Each knows how its points are simulated ({@code evaluator}), which search walks its knob, and its
 * table, CSV and JSON fields and charts; the search itself, its progress line and Ctrl-C are {@link SizingSweep}'s.
 */
public sealed interface SizingTarget permits P99Target, RefitCycleTarget {
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

    /**
     * The table of the points so far and the answer, as the command prints it (lines ending in line separators):
     * the target's head, the points and the answer, with the marks every search shares between them.
     */
    default String table(SizingOutcome outcome) {
        Formatter t = new Formatter(Locale.ROOT);
        tableHead(t, outcome);
        if (!outcome.complete()) {
            t.format("INCOMPLETE: interrupted; the points simulated so far:%n");
        }
        tablePoints(t, outcome.points());
        // a bound that is a fitted or assumed number reads as a mechanism in a table column: say so, as the
        // chart's caption does
        for (String line : SimulatedPoint.calibratedCaptions(outcome.points(), label(), this::shownAt)) {
            t.format("%s%n", line);
        }
        NicLanes.table(t, outcome.points(), label(), this::shownAt);
        // with no answer, what the rise puts in doubt is the values the search skipped, not an answer
        String doubt = outcome.complete() && outcome.answer().isEmpty()
                ? "a value not simulated may meet the target" : "the answer may not be the smallest value that meets";
        for (String v : outcome.violations()) {
            t.format("monotonicity violated: %s; %s%n", v, doubt);
        }
        tableAnswer(t, outcome);
        return t.toString();
    }

    /** The table's lines before its points: what is sized for what, and how the knob's values are tried. */
    void tableHead(Formatter t, SizingOutcome outcome);

    /** The column heads and a line for each point, in knob order. */
    void tablePoints(Formatter t, List<SimulatedPoint> points);

    /** The answer, or what is known of it when the search was interrupted. */
    void tableAnswer(Formatter t, SizingOutcome outcome);

    /** The charts of a complete search, from its points that ran. */
    void writeCharts(List<SimulatedPoint> ok, Path dir) throws IOException;

    /** sizing.csv */
    String csv(List<SimulatedPoint> points);

    /** sizing.json */
    ObjectNode json(SizingOutcome outcome);
}
