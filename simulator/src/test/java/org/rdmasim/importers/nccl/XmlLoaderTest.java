package org.rdmasim.importers.nccl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.rdmasim.importers.ImportException;

class XmlLoaderTest {

    @Test
    void aLineOverTheLimitIsRefusedBeforeParsing() {
        // 22 characters before the value, 10,000 in it, 3 after
        String text = "<system version=\"1\">\n<cpu numaid=\"0\" note=\"" + "x".repeat(10_000) + "\"/>\n</system>\n";
        ImportException e = assertThrows(ImportException.class, () -> XmlLoader.load(text, "long.xml"));
        assertEquals("long.xml:2: line is 10025 characters long, over the limit of 10000, "
                + "expected an NCCL topology XML file", e.getMessage());
    }

    @Test
    void malformedXmlNamesTheParsersLineNotTheLastOne() {
        // 22 characters before the value, 10,000 in it, 3 after
        String text = "<system version=\"1\">\n<cpu numaid=\"0\" <pci/>\n</cpu>\n</system>\n\n";
        ImportException e = assertThrows(ImportException.class, () -> XmlLoader.load(text, "bad.xml"));
        // the parser's own words are passed on (JDK Xerces: 'Element type "cpu" must be followed by ...')
        assertTrue(e.getMessage().startsWith("bad.xml:2: malformed or truncated XML (Element type \"cpu\""), e.getMessage());
        assertTrue(e.getMessage().endsWith("), expected a complete NCCL topology document, <system version=\"1\"> ... </system>"),
                e.getMessage());
    }

    @Test
    void elementsKeepTheirLines() {
        XmlElement root = XmlLoader.load("<system version=\"1\">\n\n<cpu numaid=\"3\"/>\n</system>\n", "ok.xml");
        assertEquals("system", root.tag());
        assertEquals(1, root.line());
        assertEquals(3, root.children().get(0).line());
    }
}
