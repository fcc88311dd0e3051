package org.rdmasim.report;

/**
 * JSON string literals for the files and pages rdmasim writes by hand rather than through Jackson. One quoting
 * serves both: a literal that is valid JSON in a file is also safe inside a page's inline {@code <script>}.
 */
public final class JsonText {
    private JsonText() {
    }

    /**
     * {@code s} as a JSON string literal. Besides the quote, the backslash and the control characters that JSON
     * requires escaped, it escapes {@code '<'} (so that a {@code "</script>"} inside a string cannot end the script
     * element of a page that inlines it) and U+2028/U+2029 (line terminators in JavaScript before ES2019, though
     * valid in JSON). The decoded string is always {@code s}.
     */
    public static String quote(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '<' -> b.append("\\u003c");
                default -> b.append(c < 0x20 || c == 0x2028 || c == 0x2029 ? String.format("\\u%04x", (int) c)
                        : String.valueOf(c));
            }
        }
        return b.append('"').toString();
    }
}
