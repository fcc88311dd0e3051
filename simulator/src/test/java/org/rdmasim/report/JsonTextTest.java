package org.rdmasim.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.ObjectMapper;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

class JsonTextTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Any text comes back whole from a JSON parser, and nothing in it can end an inline script or a JS line. */
    @Property(tries = 500)
    void aQuotedTextDecodesToItselfAndIsSafeInAScript(@ForAll String text) throws Exception {
        String quoted = JsonText.quote(text + "</script>\u2028\n\"\\");
        assertEquals(text + "</script>\u2028\n\"\\", JSON.readValue(quoted, String.class));
        String inner = quoted.substring(1, quoted.length() - 1);
        assertFalse(inner.contains("<"), quoted);
        assertFalse(inner.contains("\u2028") || inner.contains("\u2029") || inner.contains("\n"), quoted);
        assertFalse(inner.replace("\\\\", "").replace("\\\"", "").contains("\""), quoted);
    }
}
