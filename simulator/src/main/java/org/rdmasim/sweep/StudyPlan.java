package org.rdmasim.sweep;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeSet;

/**
 * The points of a study, numbered 0.. in a fixed order, and how they split into shards. On a grid the
 * first knob turns slowest; a sample draws distinct grid points with a seeded generator (Robert
 * Floyd's algorithm, so each is drawn once) and keeps them in grid order. Shard {@code i} of {@code n}
 * (1-based) holds the points whose number is {@code i - 1} modulo {@code n}: neighbouring points, which
 * often cost alike, go to different shards.
 */
public final class StudyPlan {
    /** One point: its number, its place on the grid and the index of each knob's value. */
    public record Point(int index, long gridIndex, int[] choice) {
    }

    /** One row to compute: a point and a replication. */
    public record Task(Point point, int replication) {
    }

    /** Which part of the points a run computes: shard {@code index} of {@code count}, 1-based. */
    public record Shard(int index, int count) {
        public static final Shard ALL = new Shard(1, 1);

        public Shard {
            if (count < 1 || index < 1 || index > count) {
                throw new StudyInputException("a shard is I/N with 1 <= I <= N, got " + index + "/" + count);
            }
        }

        /** Parses {@code I/N}. */
        public static Shard parse(String text) {
            String[] p = text.trim().split("/", -1);
            if (p.length != 2) {
                throw new StudyInputException("expected --shard I/N (shard I of N, 1-based), got '" + text + "'");
            }
            try {
                return new Shard(Integer.parseInt(p[0].trim()), Integer.parseInt(p[1].trim()));
            } catch (NumberFormatException e) {
                throw new StudyInputException("expected --shard I/N with whole numbers, got '" + text + "'");
            }
        }

        public boolean holds(int point) {
            return point % count == index - 1;
        }

        public boolean isAll() {
            return count == 1;
        }

        @Override
        public String toString() {
            return index + "/" + count;
        }
    }

    private final Study study;
    private final List<Point> points;

    public StudyPlan(Study study) {
        this.study = study;
        List<Long> grid = new ArrayList<>();
        long size = study.gridSize();
        if (study.sample() == null) {
            for (long g = 0; g < size; g++) {
                grid.add(g);
            }
        } else {
            SplittableRandom random = new SplittableRandom(study.sample().seed());
            TreeSet<Long> chosen = new TreeSet<>();
            int m = study.sample().points();
            for (long j = size - m; j < size; j++) {
                long t = random.nextLong(j + 1);
                chosen.add(chosen.contains(t) ? j : t);
            }
            grid.addAll(chosen);
        }
        List<Point> out = new ArrayList<>(grid.size());
        for (long g : grid) {
            out.add(new Point(out.size(), g, choice(g)));
        }
        this.points = List.copyOf(out);
    }

    private int[] choice(long grid) {
        List<Knob> knobs = study.knobs();
        int[] c = new int[knobs.size()];
        for (int k = knobs.size() - 1; k >= 0; k--) {
            int n = knobs.get(k).values().size();
            c[k] = (int) (grid % n);
            grid /= n;
        }
        return c;
    }

    public Study study() {
        return study;
    }

    public List<Point> points() {
        return points;
    }

    /** The knob values of a point, as written, in knob order. */
    public List<String> values(Point p) {
        List<String> out = new ArrayList<>();
        for (int k = 0; k < study.knobs().size(); k++) {
            out.add(study.knobs().get(k).texts().get(p.choice()[k]));
        }
        return out;
    }

    /** The rows a shard computes, point by point, replications in order. */
    public List<Task> tasks(Shard shard) {
        List<Task> out = new ArrayList<>();
        for (Point p : points) {
            if (shard.holds(p.index())) {
                for (int r = 0; r < study.replications(); r++) {
                    out.add(new Task(p, r));
                }
            }
        }
        return out;
    }

    /** Rows a whole run of the study has. */
    public long rows() {
        return (long) points.size() * study.replications();
    }
}
