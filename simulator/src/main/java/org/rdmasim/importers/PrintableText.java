package org.rdmasim.importers;

/**
 * Text from an input made safe to print or write: a value echoed in a message, a cell of a CSV table,
 * a label in an SVG or HTML page. A scenario's strings are the user's (or whoever wrote the file they
 * were handed), so a control character in one must not reach a terminal (ESC sequences clear the screen
 * or rewrite a line), a spreadsheet (a cell starting with {@code =} is a formula) or an XML document
 * (C0 controls make it invalid).
 */
public final class PrintableText {
    private PrintableText() {
    }

    /** Every control character (C0, DEL, C1) written as {@code \xHH}, line breaks included. */
    public static String escaped(String s) {
        return escape(s, false);
    }

    /**
     * As {@link #escaped}, but line breaks and tabs stay: for a whole message whose lines are rdmasim's
     * own (the values in it should have been escaped with {@link #escaped} already).
     */
    public static String escapedKeepingLines(String s) {
        return escape(s, true);
    }

    /**
     * A text cell of a CSV table: controls escaped, a leading {@code = + - @} (or tab, CR) neutralised by
     * a leading apostrophe, as OWASP's "CSV Injection" page recommends
     * (https://owasp.org/www-community/attacks/CSV_Injection), and quoted per RFC 4180 when it holds a
     * comma or a quote. Only for text: numbers are written as they are, a minus sign included.
     */
    public static String csvCell(String s) {
        if (plainCell(s)) {
            return s; // the common case (an id, a device, a NIC): one pass, nothing to change
        }
        String t = escaped(s);
        if (!t.isEmpty() && "=+-@\t\r".indexOf(t.charAt(0)) >= 0) {
            t = "'" + t;
        }
        if (t.contains(",") || t.contains("\"") || t.contains("\n")) {
            return "\"" + t.replace("\"", "\"\"") + "\"";
        }
        return t;
    }

    /**
     * Text for HTML or SVG: markup characters as entities, controls (invalid in XML 1.0) escaped; line
     * breaks and tabs stay, as a page may turn them into its own breaks.
     */
    public static String markup(String s) {
        return escapedKeepingLines(s).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    /** Whether {@link #csvCell} leaves {@code s} as it is: no control, comma or quote, no leading formula mark. */
    private static boolean plainCell(String s) {
        if (!s.isEmpty() && "=+-@\t\r".indexOf(s.charAt(0)) >= 0) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == ',' || c == '"' || isControl(c)) {
                return false;
            }
        }
        return true;
    }

    /** Whether {@code c} is a control character a terminal or an XML parser would act on. */
    public static boolean isControl(char c) {
        return c < 0x20 || c >= 0x7f && c <= 0x9f;
    }

    private static String escape(String s, boolean keepLines) {
        int i = 0;
        while (i < s.length() && !(isControl(s.charAt(i)) && !(keepLines && (s.charAt(i) == '\n' || s.charAt(i) == '\t')))) {
            i++;
        }
        if (i == s.length()) {
            return s;
        }
        StringBuilder b = new StringBuilder(s.length() + 8).append(s, 0, i);
        for (; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!isControl(c) || keepLines && (c == '\n' || c == '\t')) {
                b.append(c);
            } else if (c == '\n') {
                b.append("\\n");
            } else if (c == '\t') {
                b.append("\\t");
            } else if (c == '\r') {
                b.append("\\r");
            } else {
                b.append(String.format(java.util.Locale.ROOT, "\\x%02X", (int) c));
            }
        }
        return b.toString();
    }
}
