package org.rdmasim.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The templates escape what a scenario writes, and the answer's lines render as the template lays them out. */
class PageTemplateTest {
    @Test
    void aScenarioNameWithMarkupAndControlsIsTextOnThePage() {
        String name = "<script>alert(1)</script> \u001b[2J & \"quoted\"";
        Verdict.Answer answer = new Verdict.Answer(List.of(new Verdict.Statement(name, ", slowest pull 1 s."),
                new Verdict.Statement("", "Stage costs rest on:", List.of("a <b>term</b>"))), List.of(),
                new Verdict.RestsOn(List.of(), List.of(), List.of()));
        String page = PageTemplate.named("scenario").render(new IndexHtml.Page(name, new Provenance("0.1.0", "ab", 1),
                answer, List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), List.of()));
        assertFalse(page.contains("<script>"), page);
        assertFalse(page.chars().anyMatch(c -> c == 0x1b), "no control character reaches the page");
        assertTrue(page.contains("<b>&lt;script&gt;alert(1)&lt;/script&gt; \\x1B[2J &amp; &quot;quoted&quot;</b>"
                + ", slowest pull 1 s."), page);
        assertTrue(page.contains("<ul>\n<li>a &lt;b&gt;term&lt;/b&gt;</li>\n</ul>"), page);
        // no question, no claims, no faults: their sections are left out, the mechanism-only sentence is said
        assertFalse(page.contains("The question") || page.contains("Published claims") || page.contains("Faults and"));
        assertTrue(page.contains("no calibrated parameter holds any transfer back"), page);
        assertEquals(1, page.split("id=\"verdict\"", -1).length - 1);
    }

    /** The scenarios write "Question: ...", "Expected answer: ..." without blank lines: each label starts a paragraph. */
    @Test
    void aLabelledLineStartsAParagraphWithoutABlankLine() {
        String comment = "ai-dynamo/modelexpress #449: one receiver\npulls 16 GB.\nStack modelled: NIXL 1.1.0\nwith UCX.\n"
                + "Question: why is 4 NICs\nnot 4x?\nExpected answer: 2x, since\nrails: 2 by default.";
        assertEquals(List.of(new IndexHtml.Paragraph(List.of("ai-dynamo/modelexpress #449: one receiver pulls 16 GB.")),
                new IndexHtml.Paragraph(List.of("Stack modelled: NIXL 1.1.0 with UCX.")),
                new IndexHtml.Paragraph(List.of("Question: why is 4 NICs not 4x?")),
                new IndexHtml.Paragraph(List.of("Expected answer: 2x, since rails: 2 by default."))),
                IndexHtml.paragraphs(comment));
    }

    @Test
    void theQuestionIsReflowedIntoParagraphsWithListLinesKept() {
        String comment = "Question: how long until the last\nreceiver has the model?\n\nExpected shape:\n"
                + "- pin: one NIC per\n  source\n* stripe: <all> 4 NICs\n\n\nA last & short one.";
        List<IndexHtml.Paragraph> paragraphs = IndexHtml.paragraphs(comment);
        assertEquals(List.of(new IndexHtml.Paragraph(List.of("Question: how long until the last receiver has the model?")),
                new IndexHtml.Paragraph(List.of("Expected shape:", "- pin: one NIC per source", "* stripe: <all> 4 NICs")),
                new IndexHtml.Paragraph(List.of("A last & short one."))), paragraphs);
        assertEquals(List.of(), IndexHtml.paragraphs(""), "no comment, no paragraph");
        Verdict.Answer answer = new Verdict.Answer(List.of(new Verdict.Statement("x", ".")), List.of(),
                new Verdict.RestsOn(List.of(), List.of(), List.of()));
        String page = PageTemplate.named("scenario").render(new IndexHtml.Page("s", new Provenance("0.1.0", "ab", 1),
                answer, List.of(), paragraphs, List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), List.of()));
        assertTrue(page.contains("<div class=\"question\"><p><span class=\"line\">Question: how long until the last receiver"
                + " has the model?</span></p>\n<p><span class=\"line\">Expected shape:</span><span class=\"line\">- pin: one"
                + " NIC per source</span><span class=\"line\">* stripe: &lt;all&gt; 4 NICs</span></p>\n<p><span class=\"line\">"
                + "A last &amp; short one.</span></p>\n</div>"), page);
        assertFalse(page.contains("pre-line"), "the page does not keep the comment's own line breaks");
    }

    /**
     * A warning is listed under its own heading, apart from what ran other than written: a warning can say the
     * variant runs exactly as written (GPUs its refit layout leaves idle), which "Not as written" would deny.
     */
    @Test
    void warningsAreListedApartFromWhatRanOtherThanWritten() {
        Verdict.RestsOn none = new Verdict.RestsOn(List.of(), List.of(), List.of());
        Verdict.Answer both = new Verdict.Answer(List.of(new Verdict.Statement("x", ".")),
                List.of("v: UCX_MAX_RMA_RAILS=9 replaced"), List.of("v: s.yaml:7:5: inference: GPU4-GPU7 idle"), none);
        String page = render(both);
        int notAsWritten = page.indexOf("<b>Not as written.</b>");
        int warnings = page.indexOf("<b>Warnings.</b>");
        assertTrue(notAsWritten >= 0 && warnings > notAsWritten, page);
        assertTrue(page.indexOf("UCX_MAX_RMA_RAILS=9 replaced") < warnings, page);
        assertTrue(page.indexOf("GPU4-GPU7 idle") > warnings, page);
        String onlyWarned = render(new Verdict.Answer(List.of(new Verdict.Statement("x", ".")), List.of(),
                List.of("v: s.yaml:7:5: inference: GPU4-GPU7 idle"), none));
        assertFalse(onlyWarned.contains("Not as written"), onlyWarned);
        assertTrue(onlyWarned.contains("<li>v: s.yaml:7:5: inference: GPU4-GPU7 idle</li>"), onlyWarned);
        assertFalse(render(new Verdict.Answer(List.of(new Verdict.Statement("x", ".")), List.of(), none))
                .contains("Warnings."), "no warning, no heading");
    }

    private static String render(Verdict.Answer answer) {
        return PageTemplate.named("scenario").render(new IndexHtml.Page("s", new Provenance("0.1.0", "ab", 1),
                answer, List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), List.of()));
    }

    /** The heading over the "not mechanisms" list names the kinds its items are: an assumed number is not called calibrated. */
    @Test
    void theNotMechanismsHeadingNamesTheKindsItsItemsAre() {
        var calibrated = org.rdmasim.hardware.CalibrationProfile.Kind.CALIBRATED;
        var assumed = org.rdmasim.hardware.CalibrationProfile.Kind.ASSUMED;
        List<String> items = List.of("profile p: graceToGrace = 450 Gbps, assumed (x)");
        assertEquals("Some limits are assumed numbers, not mechanisms:",
                pageWith(new Verdict.RestsOn(List.of(), List.of(), items, java.util.Set.of(assumed))));
        assertEquals("Some limits are calibrated numbers, not mechanisms:",
                pageWith(new Verdict.RestsOn(List.of(), List.of(), items, java.util.Set.of(calibrated))));
        assertEquals("Some limits are calibrated or assumed numbers, not mechanisms:",
                pageWith(new Verdict.RestsOn(List.of(), List.of(), items, java.util.Set.of(calibrated, assumed))));
    }

    /** The rendered heading line over the list of {@code restsOn}'s calibrated or assumed numbers. */
    private static String pageWith(Verdict.RestsOn restsOn) {
        Verdict.Answer answer = new Verdict.Answer(List.of(new Verdict.Statement("x", ".")), List.of(), restsOn);
        String page = PageTemplate.named("scenario").render(new IndexHtml.Page("s", new Provenance("0.1.0", "ab", 1),
                answer, List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), List.of()));
        return page.lines().filter(l -> l.contains("not mechanisms")).map(l -> l.replaceAll("</?p>", ""))
                .findFirst().orElse("(no heading)");
    }
}
