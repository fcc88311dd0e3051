package org.rdmasim.layering;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.MalformedInputException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every citation a reader meets in the code, the scenarios, the README and the reports can be followed:
 * no private notes file, no path into the notes directory, no "seed 00N" without its public origin on
 * the same line, and every short source id in square brackets is listed in simulator/SOURCES.md.
 */
class SourceCitationTest {
    // Built from pieces so that this file does not itself mention what it forbids.
    private static final List<String> PRIVATE_NOTES = List.of("FACTS" + ".md", "FACTS" + " section",
            "WEIGHTSYNC" + ".md", ".." + "/shared");
    private static final Pattern SEED = Pattern.compile("(?i)\\bseeds?[- ]0{2}\\d\\b");
    /** A short id: lower case, two letters or more, then at least one hyphenated part; not a Markdown link. */
    private static final Pattern CITED_ID = Pattern.compile("\\[([a-z]{2,}[a-z0-9]*(?:-[a-z0-9.]+)+)\\](?!\\()");
    private static final Pattern LISTED_ID = Pattern.compile("^- \\[([a-z0-9.-]+)\\] ");
    /** This file: its examples of what the rules catch would trip them. */
    private static final Path SELF = Path.of("org/rdmasim/layering/SourceCitationTest.java");
    private static final Set<String> BINARY = Set.of("png", "jpg", "jpeg", "gif", "class", "jar", "ico");

    private static Path repo() {
        Path here = Path.of("").toAbsolutePath();
        for (Path p = here; p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("simulator/SOURCES.md")) && Files.isDirectory(p.resolve("scenarios"))) {
                return p;
            }
        }
        throw new IllegalStateException("no repository root above " + here);
    }

    static Set<String> listedIds(List<String> sourcesMd) {
        Set<String> ids = new LinkedHashSet<>();
        for (String line : sourcesMd) {
            Matcher m = LISTED_ID.matcher(line);
            if (m.find() && !ids.add(m.group(1))) {
                throw new IllegalStateException("source id listed twice in SOURCES.md: " + m.group(1));
            }
        }
        return ids;
    }

    /** What is wrong with one line, in words; empty when nothing is. */
    static List<String> problems(String line, Set<String> listed) {
        List<String> out = new ArrayList<>();
        for (String s : PRIVATE_NOTES) {
            if (line.contains(s)) {
                out.add("cites " + s + ", which readers cannot open");
            }
        }
        Set<String> cited = new LinkedHashSet<>();
        Matcher m = CITED_ID.matcher(line);
        while (m.find()) {
            cited.add(m.group(1));
        }
        for (String id : cited) {
            if (!listed.contains(id)) {
                out.add("cites [" + id + "], which simulator/SOURCES.md does not list");
            }
        }
        Matcher seed = SEED.matcher(line);
        if (seed.find() && cited.stream().noneMatch(listed::contains)) {
            out.add("cites '" + seed.group() + "' without its public origin (a [source-id] on the same line)");
        }
        return out;
    }

    private static List<Path> scanned(Path repo) throws IOException {
        List<Path> files = new ArrayList<>();
        files.add(repo.resolve("README.md"));
        for (String dir : List.of("simulator/src", "scenarios", "reports")) {
            try (Stream<Path> s = Files.walk(repo.resolve(dir))) {
                s.filter(Files::isRegularFile).filter(p -> !BINARY.contains(extension(p)))
                        .filter(p -> !p.endsWith(SELF)).sorted().forEach(files::add);
            }
        }
        return files;
    }

    private static String extension(Path p) {
        String n = p.getFileName().toString();
        int dot = n.lastIndexOf('.');
        return dot < 0 ? "" : n.substring(dot + 1).toLowerCase(java.util.Locale.ROOT);
    }

    @Test
    void everyCitationCanBeFollowed() throws IOException {
        Path repo = repo();
        Set<String> listed = listedIds(Files.readAllLines(repo.resolve("simulator/SOURCES.md")));
        assertTrue(listed.size() >= 20, "SOURCES.md lists " + listed.size() + " ids");
        Map<String, List<String>> bad = new LinkedHashMap<>();
        int files = 0;
        for (Path f : scanned(repo)) {
            List<String> lines;
            try {
                lines = Files.readAllLines(f, StandardCharsets.UTF_8);
            } catch (MalformedInputException e) {
                continue; // not text
            }
            files++;
            for (int i = 0; i < lines.size(); i++) {
                for (String p : problems(lines.get(i), listed)) {
                    bad.computeIfAbsent(repo.relativize(f) + ":" + (i + 1), k -> new ArrayList<>()).add(p);
                }
            }
        }
        assertTrue(files > 400, "scanned only " + files + " files");
        assertEquals(Map.of(), bad, "citations a reader cannot follow");
    }

    @Test
    void theRulesCatchWhatTheyAreFor() {
        Set<String> listed = Set.of("mx-issue-449", "ucx-src");
        assertEquals(1, problems("see " + "FACTS" + ".md section 2", listed).size());
        assertEquals(1, problems("notes in " + ".." + "/shared/DESIGN.md", listed).size());
        assertEquals(1, problems("// the 308 Gbps of seed 003", listed).size());
        assertEquals(1, problems("# The seed-003 question", listed).size());
        assertEquals(1, problems("seeds 000, 001 and 002", listed).size());
        assertEquals(List.of(), problems("// the 308 Gbps of seed 003 [mx-issue-449]", listed));
        assertEquals(2, problems("// seed 003 [no-such-id]", listed).size());
        assertEquals(List.of("cites [ucx-1.20-proto], which simulator/SOURCES.md does not list"),
                problems("[ucx-src] v1.20.0 proto_multi.c, or [ucx-1.20-proto]", listed));
        // not citations: a scenario file name, a random seed, array indexes, regex classes, Markdown links
        assertEquals(List.of(), problems("SEED003 = \"seed003-nic-pin-vs-stripe.yaml\"; seed: 3; a[i-1]; [a-z0-9]",
                listed));
        assertEquals(List.of(), problems("[ai-dynamo/modelexpress #449](https://github.com/x) [see-also](#x)", listed));
    }
}
