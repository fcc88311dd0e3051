package org.rdmasim.transport.config;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.rdmasim.transport.citation.Citation;

/**
 * The lines of a project's code sites at each of its releases, as {@code tools/code-sites/generate.py} found
 * them by the code's text in a clone of the project ({@code ucx-sites.tsv}, {@code nixl-sites.tsv}: site,
 * release, tag, file, first line, last line, symbol), and the citation of a site at the release a scenario
 * names. A release without the site's code is cited at the nearest release that has it (the newest before,
 * or else the oldest after), and the citation says which release was named.
 */
final class SiteTable {
    /** One release's lines of a site. */
    private record Lines(StackVersion release, String tag, String file, int first, int last, String symbol) {
    }

    private final String repo;
    private final String resource;
    private final Map<String, List<Lines>> bySite;

    private SiteTable(String repo, String resource, Map<String, List<Lines>> bySite) {
        this.repo = repo;
        this.resource = resource;
        this.bySite = bySite;
    }

    /** Reads {@code resource} from the classpath; fails when a site in {@code expected} has no row. */
    static SiteTable load(String repo, String resource, Set<String> expected) {
        Map<String, List<Lines>> out = new HashMap<>();
        try (InputStream in = SiteTable.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException(resource + " is missing from the classpath");
            }
            BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                if (line.startsWith("#") || line.isBlank()) {
                    continue;
                }
                String[] f = line.split("\t", -1);
                if (!expected.contains(f[0])) {
                    throw new IllegalStateException(resource + ": unknown site '" + f[0] + "'");
                }
                out.computeIfAbsent(f[0], k -> new ArrayList<>()).add(new Lines(StackVersion.parse(f[1]), f[2], f[3],
                        Integer.parseInt(f[4]), Integer.parseInt(f[5]), f[6]));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        for (String s : expected) {
            List<Lines> lines = out.get(s);
            if (lines == null) {
                throw new IllegalStateException(resource + " has no row for site '" + s + "'");
            }
            lines.sort((a, b) -> a.release().compareTo(b.release()));
        }
        return new SiteTable(repo, resource, out);
    }

    /** {@code REPO TAG file:first-last symbol} of {@code site} at {@code release}, or at the nearest release that has it. */
    Citation cite(String site, StackVersion release) {
        List<Lines> all = bySite.get(site);
        if (all == null) {
            throw new IllegalArgumentException(resource + " has no site '" + site + "'");
        }
        Lines at = null;
        for (Lines l : all) { // oldest first: the last one at or before the release named
            if (release.atLeast(l.release())) {
                at = l;
            }
        }
        boolean exact = at != null && at.release().equals(release);
        if (at == null) {
            at = all.get(0);
        }
        String note = exact ? "" : "as at " + at.tag() + "; the release named is " + release;
        return new Citation(repo, at.tag(), at.file(), at.first(), at.last(), at.symbol(), note);
    }
}
