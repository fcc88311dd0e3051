package org.rdmasim.importers.env;

import org.rdmasim.transport.config.EnvEntry;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Reads shell-style assignments, one per line: {@code [export ]NAME=VALUE}. Values may be bare,
 * single-quoted (taken literally) or double-quoted (backslash escapes {@code \" \\ \$ \`}). A
 * {@code #} starts a comment at the beginning of a line or after whitespace outside quotes.
 * Variables are not expanded: a {@code $} in a value is kept and reported, because the simulator
 * has no environment to expand it from.
 */
final class ShellEnvReader {

    /** POSIX shell names: letters, digits and underscore, not starting with a digit. */
    static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    private final String source;
    private final List<EnvEntry> entries = new ArrayList<>();
    private final List<String> warnings = new ArrayList<>();

    private ShellEnvReader(String source) {
        this.source = source;
    }

    static EnvBlock read(String text, String source) {
        ShellEnvReader reader = new ShellEnvReader(source);
        String[] lines = text.split("\\R", -1);
        for (int i = 0; i < lines.length; i++) {
            reader.readLine(lines[i], i + 1);
        }
        return new EnvBlock(EnvFormat.SHELL, reader.entries, reader.warnings);
    }

    private void readLine(String raw, int lineNo) {
        String line = raw.strip();
        if (line.isEmpty() || line.startsWith("#")) {
            return;
        }
        if (line.startsWith("export") && line.length() > 6 && Character.isWhitespace(line.charAt(6))) {
            line = line.substring(6).stripLeading();
        }
        int eq = line.indexOf('=');
        if (eq < 0) {
            throw new EnvBlockException(source, lineNo, "no '=' in '" + line + "'",
                    "NAME=VALUE or export NAME=VALUE");
        }
        String name = line.substring(0, eq);
        if (!NAME.matcher(name).matches()) {
            throw new EnvBlockException(source, lineNo, "bad variable name '" + name + "'",
                    "letters, digits and '_', not starting with a digit");
        }
        String value = readValue(line.substring(eq + 1), lineNo);
        if (value.indexOf('$') >= 0 && !isSingleQuoted(line.substring(eq + 1))) {
            warnings.add(source + ":" + lineNo + ": value of " + name + " contains '$'; "
                    + "variables are not expanded, the text is kept as written");
        }
        entries.add(new EnvEntry(name, value, source, lineNo));
    }

    private static boolean isSingleQuoted(String rest) {
        return rest.startsWith("'");
    }

    private String readValue(String rest, int lineNo) {
        StringBuilder value = new StringBuilder();
        int i = 0;
        if (rest.startsWith("'")) {
            int close = rest.indexOf('\'', 1);
            if (close < 0) {
                throw new EnvBlockException(source, lineNo, "unterminated single quote",
                        "a closing ' on the same line");
            }
            value.append(rest, 1, close);
            i = close + 1;
        } else if (rest.startsWith("\"")) {
            i = 1;
            boolean closed = false;
            while (i < rest.length()) {
                char c = rest.charAt(i);
                if (c == '\\' && i + 1 < rest.length() && "\"\\$`".indexOf(rest.charAt(i + 1)) >= 0) {
                    value.append(rest.charAt(i + 1));
                    i += 2;
                } else if (c == '"') {
                    closed = true;
                    i++;
                    break;
                } else {
                    value.append(c);
                    i++;
                }
            }
            if (!closed) {
                throw new EnvBlockException(source, lineNo, "unterminated double quote",
                        "a closing \" on the same line");
            }
        } else {
            while (i < rest.length() && !Character.isWhitespace(rest.charAt(i))) {
                char c = rest.charAt(i);
                if (c == '\'' || c == '"') {
                    throw new EnvBlockException(source, lineNo,
                            "quote in the middle of an unquoted value '" + rest + "'",
                            "the whole value in one pair of quotes");
                }
                value.append(c);
                i++;
            }
        }
        String tail = rest.substring(i).strip();
        if (!tail.isEmpty() && !(tail.startsWith("#") && (i == rest.length()
                || Character.isWhitespace(rest.charAt(i))))) {
            throw new EnvBlockException(source, lineNo, "unexpected text '" + tail + "' after the value",
                    "one assignment per line (quote values that contain spaces)");
        }
        return value.toString();
    }
}
