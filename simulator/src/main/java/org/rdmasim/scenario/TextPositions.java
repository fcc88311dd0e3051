package org.rdmasim.scenario;

import org.rdmasim.importers.InputLocation;

/**
 * Places a problem SnakeYAML reports without a position (nesting depth, alias count) or by character
 * offset (a character YAML forbids) at a line and column of the text, so no message about one place in
 * a file says {@code FILE:0:0}.
 */
final class TextPositions {
    private TextPositions() {
    }

    /** The 1-based line and column of the character at {@code offset} (clamped to the text). */
    static InputLocation ofOffset(String file, String text, int offset) {
        int end = Math.max(0, Math.min(offset, text.length()));
        int line = 1;
        int lineStart = 0;
        for (int i = 0; i < end; i++) {
            if (text.charAt(i) == '\n') {
                line++;
                lineStart = i + 1;
            }
        }
        return new InputLocation(file, line, end - lineStart + 1);
    }

    /**
     * Where nesting first goes deeper than {@code limit}: flow brackets ({@code [ {}) and block
     * indentation (each deeper indent, and each {@code "- "} item marker, opens a level) counted
     * together, as the composer counts nodes. Quoted text and comments are skipped. The first line if
     * no place can be told (the composer saw depth this count does not).
     */
    static InputLocation firstDeeperThan(String file, String text, int limit) {
        java.util.ArrayDeque<Integer> indents = new java.util.ArrayDeque<>();
        int flow = 0;
        int line = 1;
        int i = 0;
        while (i < text.length()) {
            int lineEnd = text.indexOf('\n', i);
            if (lineEnd < 0) {
                lineEnd = text.length();
            }
            int indent = 0;
            while (i + indent < lineEnd && text.charAt(i + indent) == ' ') {
                indent++;
            }
            boolean content = i + indent < lineEnd && text.charAt(i + indent) != '#';
            if (content && flow == 0) {
                while (!indents.isEmpty() && indents.peek() >= indent) {
                    indents.pop();
                }
                indents.push(indent);
            }
            char quote = 0;
            int dashes = 0;
            for (int j = i + indent; j < lineEnd; j++) {
                char c = text.charAt(j);
                if (quote != 0) {
                    quote = c == quote ? 0 : quote;
                } else if (c == '\'' || c == '"') {
                    quote = c;
                } else if (c == '#' && (j == i || text.charAt(j - 1) == ' ')) {
                    break;
                } else if (c == '[' || c == '{') {
                    flow++;
                } else if ((c == ']' || c == '}') && flow > 0) {
                    flow--;
                } else if (c == '-' && flow == 0 && j + 1 < lineEnd && text.charAt(j + 1) == ' ') {
                    dashes++;
                }
                if (indents.size() + dashes + flow > limit) {
                    return new InputLocation(file, line, j - i + 1);
                }
            }
            i = lineEnd + 1;
            line++;
        }
        return new InputLocation(file, 1, 1);
    }

    /** Where the {@code n}-th alias ({@code *name} outside quotes and comments) is written. */
    static InputLocation alias(String file, String text, int n) {
        int seen = 0;
        char quote = 0;
        boolean comment = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\n') {
                comment = false;
                quote = 0;
            } else if (comment) {
                continue;
            } else if (quote != 0) {
                quote = c == quote ? 0 : quote;
            } else if (c == '\'' || c == '"') {
                quote = c;
            } else if (c == '#' && (i == 0 || Character.isWhitespace(text.charAt(i - 1)))) {
                comment = true;
            } else if (c == '*' && i + 1 < text.length() && !Character.isWhitespace(text.charAt(i + 1))
                    && (i == 0 || " \t[{,:-".indexOf(text.charAt(i - 1)) >= 0) && ++seen == n) {
                return ofOffset(file, text, i);
            }
        }
        return new InputLocation(file, 1, 1);
    }
}
