package org.rdmasim.report;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.rdmasim.hardware.Bottleneck;
import org.rdmasim.hardware.CalibrationProfile;
import org.rdmasim.workload.VariantOutcome;

/**
 * The answer a report opens with, computed from the results: the fastest and slowest variants by
 * their slowest pull, by how much, what limits each, and the calibrated or assumed parameters that
 * any of those limits is.
 */
final class Verdict {
    private Verdict() {
    }

    /** One variant's headline: its slowest receiver's pull and what held it. */
    record Line(String variant, double seconds, double gbps, Bottleneck limiter) {
    }

    static List<Line> lines(List<VariantOutcome> outcomes) {
        List<Line> out = new ArrayList<>();
        for (VariantOutcome o : outcomes) {
            if (o.status() == VariantOutcome.Status.FAILED || o.result() == null) {
                continue; // a failed variant is never ranked, even when it kept what it did before failing
            }
            ReceiverSummary.Receiver slowest = null;
            for (ReceiverSummary.Receiver r : ReceiverSummary.of(o.result()).receivers()) {
                if (slowest == null || r.pullSeconds() > slowest.pullSeconds()) {
                    slowest = r;
                }
            }
            if (slowest != null) {
                out.add(new Line(o.name(), slowest.pullSeconds(), slowest.gbps(), slowest.bottleneck()));
            }
        }
        return out;
    }

    static String html(List<VariantOutcome> outcomes) {
        List<Line> lines = lines(outcomes);
        StringBuilder h = new StringBuilder("<div class=\"verdict\" id=\"verdict\"><h2>Answer</h2>\n<p>");
        if (lines.isEmpty()) {
            h.append("No variant ran to completion.");
        } else {
            Line fast = lines.get(0);
            Line slow = lines.get(0);
            for (Line l : lines) {
                if (l.seconds() < fast.seconds()) {
                    fast = l;
                }
                if (l.seconds() > slow.seconds()) {
                    slow = l;
                }
            }
            List<String> fastest = tiedWith(lines, fast.seconds());
            List<String> slowest = tiedWith(lines, slow.seconds());
            if (lines.size() == 1) {
                h.append(sentence("All variants", fast));
            } else if (fastest.size() == lines.size()) {
                // every variant takes the same time: a tie, not a ranking
                h.append("<b>All ").append(lines.size()).append(" variants tie</b>: slowest pull ").append(num(fast.seconds()))
                        .append(" s (").append(num(fast.gbps())).append(" Gbps), limited by ")
                        .append(IndexHtml.esc(fast.limiter().words())).append('.');
            } else {
                h.append(sentence(label("Fastest", fastest, fast), fast)).append("<br>\n")
                        .append(sentence(label("Slowest", slowest, slow), slow)).append("<br>\n")
                        .append(String.format(Locale.ROOT, "The fastest is %s times faster (slowest pull %s s vs %s s).",
                                num(slow.seconds() / fast.seconds()), num(fast.seconds()), num(slow.seconds())));
            }
        }
        long failed = outcomes.stream().filter(o -> o.status() == VariantOutcome.Status.FAILED).count();
        if (failed > 0) {
            h.append("<br>\n").append(failed).append(" variant(s) failed: ");
            List<String> names = new ArrayList<>();
            for (VariantOutcome o : outcomes) {
                if (o.status() == VariantOutcome.Status.FAILED) {
                    names.add(IndexHtml.esc(o.name() + " (" + o.error().lines().findFirst().orElse("") + ")"));
                }
            }
            h.append(String.join("; ", names)).append('.');
        }
        h.append("</p>\n");
        h.append(overridden(outcomes));
        Set<String> profiles = new LinkedHashSet<>();
        for (VariantOutcome o : outcomes) {
            for (Line l : lines(List.of(o))) {
                l.limiter().profile().ifPresent(profiles::add);
            }
            if (o.result() != null) {
                for (var t : o.result().transfers()) {
                    for (var lane : t.lanes()) {
                        lane.limiter().profile().ifPresent(profiles::add);
                    }
                }
            }
        }
        h.append("<p><b>What this rests on.</b> ");
        java.util.Set<String> others = new LinkedHashSet<>();
        for (VariantOutcome o : outcomes) {
            for (var a : o.audit().restsOn()) {
                if (!a.what().startsWith("profile ") && !a.what().startsWith("registration: ")) {
                    others.add(a.what() + " (" + a.kind() + "): " + a.source());
                }
            }
        }
        if (!others.isEmpty()) {
            h.append("What the scenario leaves unsaid, filled in:</p>\n<ul>\n");
            for (String a : others) {
                h.append("<li>").append(IndexHtml.esc(a)).append("</li>\n");
            }
            h.append("</ul>\n<p>");
        }
        java.util.Set<String> registrationTerms = new LinkedHashSet<>();
        for (VariantOutcome o : outcomes) {
            for (var a : o.audit().restsOn()) {
                if (a.what().startsWith("registration: ")) {
                    registrationTerms.add(a.what().substring("registration: ".length()) + " (" + a.kind() + "): "
                            + a.source());
                }
            }
        }
        if (!registrationTerms.isEmpty()) {
            h.append("Registration times rest on these terms:</p>\n<ul>\n");
            for (String a : registrationTerms) {
                h.append("<li>").append(IndexHtml.esc(a)).append("</li>\n");
            }
            h.append("</ul>\n<p>");
        }
        if (profiles.isEmpty()) {
            h.append("Every limit above is a mechanism with a derived capacity: no calibrated parameter holds any "
                    + "transfer back.</p>\n");
        } else {
            h.append("Some limits are calibrated numbers, not mechanisms:</p>\n<ul>\n");
            for (String p : profiles) {
                for (CalibrationProfile.Parameter param : CalibrationProfile.named(p).assumptions()) {
                    h.append("<li>profile ").append(IndexHtml.esc(p)).append(": ").append(IndexHtml.esc(param.describe()))
                            .append(param.assumption().isEmpty() ? "" : ". " + IndexHtml.esc(param.assumption()))
                            .append("</li>\n");
                }
            }
            h.append("</ul>\n");
        }
        return h.append("</div>\n").toString();
    }

    /**
     * Every value a layer replaced or the library ignored, and every variant that uses fewer NICs than it
     * lists: said beside the answer, never only on stderr.
     */
    static String overridden(List<VariantOutcome> outcomes) {
        StringBuilder b = new StringBuilder();
        List<String> items = new ArrayList<>();
        for (VariantOutcome o : outcomes) {
            for (var ov : o.audit().overrides()) {
                items.add(IndexHtml.esc(o.name() + ": " + ov.describe()));
            }
            String s = NicUse.shortfall(o);
            if (!s.isEmpty()) {
                items.add(IndexHtml.esc(s));
            }
        }
        if (items.isEmpty()) {
            return "";
        }
        b.append("<p><b>Not as written.</b> The stack ran these variants with something other than the scenario "
                + "says:</p>\n<ul>\n");
        for (String i : items) {
            b.append("<li>").append(i).append("</li>\n");
        }
        return b.append("</ul>\n").toString();
    }

    /** The variants whose slowest pull equals {@code seconds} to one part in 10^9: a tie is not a rank. */
    private static List<String> tiedWith(List<Line> lines, double seconds) {
        List<String> names = new ArrayList<>();
        for (Line l : lines) {
            if (Math.abs(l.seconds() - seconds) <= 1e-9 * seconds) {
                names.add(l.variant());
            }
        }
        return names;
    }

    /** "Fastest" for one variant; "Fastest (tied: a, b)" when others take the same time. */
    private static String label(String word, List<String> tied, Line shown) {
        if (tied.size() < 2) {
            return word;
        }
        List<String> others = new ArrayList<>(tied);
        others.remove(shown.variant());
        return word + " (tied with " + String.join(", ", others) + ")";
    }

    private static String sentence(String label, Line l) {
        return "<b>" + label + ": " + IndexHtml.esc(l.variant()) + "</b>, slowest pull " + num(l.seconds()) + " s ("
                + num(l.gbps()) + " Gbps), limited by " + IndexHtml.esc(l.limiter().words()) + ".";
    }

    private static String num(double v) {
        return org.rdmasim.hardware.Units.number(v);
    }
}
