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
                answer, List.of(), null, List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), List.of()));
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
}
