package org.rdmasim.hardware;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Chars;
import net.jqwik.api.constraints.StringLength;

/**
 * QuantityText reads a number and its unit by hand as this regular expression reads them (the reading
 * it replaced): the same texts are quantities, with the same number and unit.
 */
class QuantityTextProperties {
    private static final Pattern SPEC = Pattern.compile(
            "^\\s*([-+]?[0-9]*\\.?[0-9]+(?:[eE][-+]?[0-9]+)?)\\s*([A-Za-z/]*)\\s*$");

    private static void same(String text) {
        Matcher m = SPEC.matcher(text);
        QuantityText.Quantity q = QuantityText.Quantity.of(text);
        if (m.matches()) {
            assertEquals(new QuantityText.Quantity(m.group(1), m.group(2)), q, () -> "for '" + text + "'");
        } else {
            assertNull(q, () -> "for '" + text + "'");
        }
    }

    /** Texts made of the characters that matter (digits, signs, points, exponents, units, every kind of space). */
    @Property(tries = 50000)
    void anyTextOfQuantityCharacters(@ForAll @StringLength(max = 12)
            @Chars({'0', '1', '9', '.', '+', '-', 'e', 'E', 'G', 'b', 'p', 's', '/', ' ', '\t', '\n', '\u000B', '\f', '\r',
                    '\u00A0', '\u2028', '\u0085', 'x', '_'}) String text) {
        same(text);
    }

    @Property(tries = 5000)
    void anyText(@ForAll @StringLength(max = 16) String text) {
        same(text);
    }

    @Example
    void writtenForms() {
        for (String text : new String[] {"16 GB", "16GiB", " 400 Gbps ", "50 GB/s", "0.002404851 s", ".5 ms", "-3 us",
                "+1e3", "1e", "1e+", "1eGB", "1e5GB", "12.", ".", "1.2.3", "- 5", "", " ", "5\n", "5\u2028", "1 e5"}) {
            same(text);
        }
    }
}
