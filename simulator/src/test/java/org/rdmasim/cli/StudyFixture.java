package org.rdmasim.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** A small study for sweep tests: 8 receivers, 2 x 2 points, 2 replications (8 rows of well under a second). */
final class StudyFixture {
    static final String BASE = """
            name: fanout-8
            seed: 3
            replications: 1
            hosts:
              receivers: {preset: gb200-tray, count: 8, prefix: r}
              sources: {preset: gb200-tray, count: 1, prefix: s}
            transport:
              operation: read
              nixl: "1.1.0"
              ucx: "1.20.0"
              env: |
                export UCX_NET_DEVICES=mlx5_0:1,mlx5_1:1
                export UCX_MAX_RMA_RAILS=2
            workload:
              fanout:
                receivers: receivers
                sources: sources
                model: 1 GB
                arrival: {kind: poisson, meanGap: 10 ms}
                assignment: least-loaded
            """;

    static final String STUDY = """
            study: tiny
            scenario: base.yaml
            replications: 2
            knobs:
              hosts.sources.count: [1, 2]
              workload.fanout.arrival.meanGap: {from: 5, to: 15, step: 10, unit: ms}
            """;

    /** The tables and page a merge must reproduce byte for byte. */
    static final List<String> TABLES = List.of("results.csv", "results.json", "index.html");

    private StudyFixture() {
    }

    /** Writes the base scenario and {@code study} into {@code dir}; returns the study's path. */
    static Path write(Path dir, String study) throws IOException {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("base.yaml"), BASE, StandardCharsets.UTF_8);
        Path s = dir.resolve("study.yaml");
        Files.writeString(s, study, StandardCharsets.UTF_8);
        return s;
    }

    static void assertSameTables(Path expected, Path actual) throws IOException {
        for (String f : TABLES) {
            org.junit.jupiter.api.Assertions.assertEquals(Files.readString(expected.resolve(f)),
                    Files.readString(actual.resolve(f)), f + " of " + actual + " differs from " + expected);
        }
    }
}
