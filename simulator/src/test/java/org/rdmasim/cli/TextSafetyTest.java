package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rdmasim.hardware.LinkLayer;
import org.rdmasim.importers.PrintableText;
import org.rdmasim.scenario.Scenario;
import org.rdmasim.scenario.ScenarioLoader;

/**
 * Text safety: control characters from a scenario are shown escaped in messages and outputs, CSV text
 * cells that a spreadsheet would run as formulas are neutralised (numbers stay numbers), SVG and HTML
 * text is escaped, and enum-like values parse the same under any default locale.
 */
class TextSafetyTest {
    @TempDir
    Path dir;

    private static boolean hasControl(String s) {
        return s.chars().anyMatch(c -> c != '\n' && c != '\t' && c != '\r' && PrintableText.isControl((char) c));
    }

    @Test
    void controlCharactersInEchoedValuesAreEscapedInMessages() throws IOException {
        Path s = Files.writeString(dir.resolve("s.yaml"), ScenarioErrorsTest.GOOD.replace("{preset: dgx-h100}\n  b:",
                "{preset: dgx-h100, linkLayer: \"\\e[2J\\e[Hall checks passed\\r\"}\n  b:"));
        CliTestSupport.Outcome o = CliTestSupport.run("run", s.toString(), "--out", dir.resolve("out").toString());
        assertEquals(2, o.code(), o.err());
        assertTrue(o.err().contains("got '\\x1B[2J\\x1B[Hall checks passed\\r'"), o.err());
        assertFalse(hasControl(o.err()) || o.err().indexOf('\r') >= 0, "no control character reaches the terminal");

        CliTestSupport.Outcome arg = CliTestSupport.run("run", s.toString(), "--threads", "\u001b[2J");
        assertEquals(2, arg.code());
        assertFalse(hasControl(arg.err()), arg.err());
        assertTrue(arg.err().contains("\\x1B[2J"), arg.err());
    }

    private static final String OUTPUTS = """
            name: text
            hosts:
              a: {preset: dgx-h100}
              b: {preset: dgx-h100}
            references:
              - {label: "<script>alert(1)</script> \\e[2J\\0 & more", bandwidth: 100 Gbps}
            workload:
              transfers:
                - {id: "=HYPERLINK(\\"http://x\\")", from: "a:GPU0", to: "b:GPU0", size: 1 GB}
                - {id: "@SUM(A1)\\e]0;title\\a", from: "a:GPU1", to: "b:GPU1", size: 1 GB}
                - {id: "-2+3", from: "a:GPU2", to: "b:GPU2", size: 1 GB}
                - {id: "+cmd\\r\\n", from: "a:GPU3", to: "b:GPU3", size: 1 GB}
            variants:
              - {name: "-v"}
            """;

    @Test
    void csvTextCellsStartingWithFormulaCharactersAreNeutralisedAndNumbersStayNumbers() throws Exception {
        Path s = Files.writeString(dir.resolve("s.yaml"), OUTPUTS);
        Path out = dir.resolve("out");
        CliTestSupport.Outcome o = CliTestSupport.run("run", s.toString(), "-q", "--out", out.toString());
        assertEquals(0, o.code(), o.err());
        assertFalse(hasControl(o.out() + o.err()), o.out() + o.err());
        List<String> rows = Files.readAllLines(out.resolve("transfers.csv"));
        List<String> transfers = rows.stream().filter(r -> r.startsWith("'-v,transfer,")).toList();
        assertEquals(4, transfers.size(), rows.toString());
        for (String id : List.of("\"'=HYPERLINK(\"\"http://x\"\")\",a:GPU0,", "'@SUM(A1)\\x1B]0;title\\x07,a:GPU1,",
                "'-2+3,a:GPU2,", "'+cmd\\r\\n,a:GPU3,")) {
            assertTrue(transfers.stream().anyMatch(r -> r.startsWith("'-v,transfer," + id)), id + " in " + transfers);
        }
        for (String file : List.of("transfers.csv", "resources.csv", "nic-throughput.csv")) {
            for (String row : Files.readAllLines(out.resolve(file))) {
                for (String cell : row.split(",(?=(?:[^\"]*\"[^\"]*\")*[^\"]*$)", -1)) {
                    assertFalse(!cell.isEmpty() && "=+-@".indexOf(cell.charAt(0)) >= 0 && !isNumber(cell),
                            file + ": a text cell a spreadsheet would run: " + cell);
                }
            }
        }
        try (Stream<Path> files = Files.list(out)) {
            for (Path f : files.filter(p -> !p.toString().endsWith(".png")).toList()) {
                assertFalse(hasControl(Files.readString(f)), f + " holds a control character");
            }
        }
    }

    private static boolean isNumber(String cell) {
        try {
            Double.parseDouble(cell);
            return true;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    @Test
    void svgAndHtmlTextIsEscaped() throws Exception {
        Path s = Files.writeString(dir.resolve("s.yaml"), OUTPUTS);
        Path out = dir.resolve("out");
        assertEquals(0, CliTestSupport.run("run", s.toString(), "-q", "--out", out.toString()).code());
        List<Path> svgs;
        try (Stream<Path> files = Files.list(out)) {
            svgs = files.filter(p -> p.toString().endsWith(".svg")).toList();
        }
        assertFalse(svgs.isEmpty());
        var factory = DocumentBuilderFactory.newInstance();
        factory.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
        boolean labelled = false;
        for (Path svg : svgs) {
            factory.newDocumentBuilder().parse(svg.toFile()); // throws on a control character or stray markup
            String text = Files.readString(svg);
            assertFalse(text.contains("<script>"), svg.toString());
            labelled |= text.contains("&lt;script&gt;alert(1)&lt;/script&gt; \\x1B[2J\\x00 &amp; more");
        }
        assertTrue(labelled, "the reference label is drawn, escaped, in a chart");
        String index = Files.readString(out.resolve("index.html"));
        assertFalse(index.contains("<script>alert"), "no script from a scenario in the page");
        assertFalse(hasControl(index));
    }

    @Test
    void enumLikeValuesParseUnderATurkishDefaultLocale() throws IOException {
        Locale before = Locale.getDefault();
        Locale.setDefault(Locale.forLanguageTag("tr-TR"));
        try {
            // "IB".toLowerCase() in Turkish is "ıb" (dotless i): the parse must not depend on that
            Path s = Files.writeString(dir.resolve("s.yaml"), ScenarioErrorsTest.GOOD.replace(
                    "{preset: dgx-h100}\n  b:", "{preset: dgx-h100, linkLayer: IB}\n  b:"));
            Scenario scenario = ScenarioLoader.load(s);
            assertEquals(LinkLayer.INFINIBAND, scenario.variants().get(0).hosts().get("a").nicSpecs().get(0).linkLayer());
            Path t = Files.writeString(dir.resolve("t.yaml"), ScenarioErrorsTest.GOOD.replace(
                    "{preset: dgx-h100}\n  b:", "{preset: dgx-h100, linkLayer: ROCE}\n  b:"));
            assertEquals(0, CliTestSupport.run("run", t.toString(), "-q", "--out", dir.resolve("o").toString()).code());
            CliTestSupport.Outcome bad = CliTestSupport.run("run", Files.writeString(dir.resolve("u.yaml"),
                    ScenarioErrorsTest.GOOD.replace("{preset: dgx-h100}\n  b:", "{preset: dgx-h100, linkLayer: İB}\n  b:"))
                    .toString(), "-q", "--out", dir.resolve("u").toString());
            assertEquals(2, bad.code(), "a Turkish capital dotted I is not an 'i': " + bad.err());
        } finally {
            Locale.setDefault(before);
        }
    }
}
