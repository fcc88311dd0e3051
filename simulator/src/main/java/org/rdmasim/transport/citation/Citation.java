package org.rdmasim.transport.citation;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A place in a public repository's code that a modelled decision follows, written
 * {@code REPO TAG FILE:LINE[-LAST] [SYMBOL]}: {@code openucx/ucx v1.20.0 src/ucs/sys/topo/base/topo.c:481-512
 * ucs_topo_update_distance_sysfs}. The text is what {@code explain} prints after {@code source:}; the fields are
 * what {@code explain --json} prints, so the two are one record.
 *
 * @param repo     GitHub owner/name
 * @param tag      the tag or commit the lines were read at
 * @param file     the path in the repository at that tag
 * @param line     the first line
 * @param lastLine the last line, {@code line} when one
 * @param symbol   the function, macro or variable there; empty when the text names none
 * @param note     what the reader should know about the place cited, printed after it in square brackets
 *                 ({@code [as at v1.2.0; the release named is 1.1.0]}: read at another release than the
 *                 scenario's); empty for none
 */
public record Citation(String repo, String tag, String file, int line, int lastLine, String symbol, String note) {
    /** REPO TAG FILE:LINE[-LAST] [SYMBOL...] [[NOTE]]. */
    private static final Pattern FORM = Pattern.compile(
            "([A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+) (\\S+) ([^\\s:]+):(\\d+)(?:-(\\d+))?(?: ([^\\[]+?))?(?: \\[([^\\]]+)\\])?");

    public Citation {
        if (repo.isBlank() || tag.isBlank() || file.isBlank() || line < 1 || lastLine < line) {
            throw new IllegalArgumentException("not a citation: " + repo + " " + tag + " " + file + ":" + line + "-"
                    + lastLine);
        }
        symbol = symbol == null ? "" : symbol;
        note = note == null ? "" : note;
    }

    /** A citation with no note. */
    public Citation(String repo, String tag, String file, int line, int lastLine, String symbol) {
        this(repo, tag, file, line, lastLine, symbol, "");
    }

    /** Reads the text form; a string that is not one is a mistake in the code that holds it. */
    public static Citation parse(String text) {
        Matcher m = FORM.matcher(text);
        if (!m.matches()) {
            throw new IllegalArgumentException("not a citation (REPO TAG FILE:LINE[-LAST] [SYMBOL]): " + text);
        }
        int first = Integer.parseInt(m.group(4));
        return new Citation(m.group(1), m.group(2), m.group(3), first,
                m.group(5) == null ? first : Integer.parseInt(m.group(5)), m.group(6), m.group(7));
    }

    /** The same place, other lines and symbol (a second function of one file). */
    public Citation at(int first, int last, String otherSymbol) {
        return new Citation(repo, tag, file, first, last, otherSymbol);
    }

    /** {@code FILE:LINE[-LAST]}. */
    public String fileAndLines() {
        return file + ":" + lines();
    }

    private String lines() {
        return lastLine == line ? Integer.toString(line) : line + "-" + lastLine;
    }

    /** The text form: what {@code explain} prints. */
    public String text() {
        return repo + " " + tag + " " + fileAndLines() + (symbol.isEmpty() ? "" : " " + symbol)
                + (note.isEmpty() ? "" : " [" + note + "]");
    }

    /**
     * Several places as one text: each after the first that is in the same file of the same repository and tag is
     * shortened to {@code :LINE SYMBOL} ({@code ib_iface.c:1387 uct_ib_iface_set_num_paths, :2007
     * uct_ib_iface_estimate_path_bw}).
     */
    public static String join(List<Citation> all) {
        StringBuilder b = new StringBuilder();
        Citation previous = null;
        for (Citation c : all) {
            if (previous != null) {
                b.append(", ");
            }
            if (previous != null && previous.repo.equals(c.repo) && previous.tag.equals(c.tag)
                    && previous.file.equals(c.file)) {
                b.append(':').append(c.lines()).append(c.symbol.isEmpty() ? "" : " " + c.symbol)
                        .append(c.note.isEmpty() ? "" : " [" + c.note + "]");
            } else {
                b.append(c.text());
            }
            previous = c;
        }
        return b.toString();
    }

    /** Reads what {@link #join} writes: citations after ", ", a {@code :LINE SYMBOL} one in the file before it. */
    public static List<Citation> parseAll(String text) {
        List<Citation> out = new java.util.ArrayList<>();
        for (String part : text.split(", ")) {
            if (part.startsWith(":") && !out.isEmpty()) {
                Citation previous = out.get(out.size() - 1);
                out.add(parse(previous.repo + " " + previous.tag + " " + previous.file + part));
            } else {
                out.add(parse(part));
            }
        }
        return out;
    }

    /** The text form, so a citation reads the same wherever it is joined into words. */
    @Override
    public String toString() {
        return text();
    }
}
