package org.rdmasim.scenario;

import java.util.Locale;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * One user parameter, declared once: its scenario field and command-line option, unit, default, allowed
 * range, the source of its default, and the one reading that scenarios and the command line share (in the
 * manner of ns-3's attribute system). A value out of range is refused where it was written: at the YAML
 * value's file:line:column, or naming the option.
 *
 * @param field       where a scenario writes it, e.g. {@code registration.firmwarePageCap}
 * @param option      the command-line option that sets the same thing, e.g. {@code --fw-page-cap}, or empty
 *                    when only a scenario sets it
 * @param unit        the unit values are written in, or what the words are
 * @param defaultText  the default, as a user would write it ("none" when unset means unlimited, "the preset's"
 *                     when a host preset or model sets it, "required" when a scenario must write it)
 * @param defaultValue the value applied when the field is left out, null when {@code defaultText} names none;
 *                     otherwise {@code defaultText} reads to exactly this value (ParameterDefaultsTest)
 * @param range       the physical range, in the unit of {@code magnitude}
 * @param source      where the default or the range comes from
 * @param reader      reads the text; throws IllegalArgumentException saying what was expected
 * @param magnitude   the number the range applies to
 */
public record Parameter<T>(String field, String option, String unit, String defaultText, T defaultValue, Range range,
        String source, Function<String, T> reader, ToDoubleFunction<T> magnitude) {

    /** A closed interval {@code [min, max]} with a phrase saying why. */
    public record Range(double min, double max, String why) {
        boolean contains(double x) {
            return x >= min && x <= max;
        }

        static final Range ANY = new Range(Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY, "");
    }

    /** The value of {@code text}, checked against the range; IllegalArgumentException with what is wrong. */
    public T read(String text) {
        T value = reader.apply(text);
        double x = magnitude.applyAsDouble(value);
        if (!range.contains(x)) {
            throw new IllegalArgumentException(String.format(Locale.ROOT, "'%s' is out of range: %s", text.strip(),
                    range.why()));
        }
        return value;
    }

    /** The value a scenario writes at {@code v}; a bad one is refused at its file:line:column. */
    public T fromYaml(YamlTree v) {
        try {
            return read(v.text());
        } catch (IllegalArgumentException e) {
            // a parameter written as one of its words (unit "hca|vf|host|vm") names the nearest
            String near = unit.matches("[a-z-]+(\\|[a-z-]+)+")
                    ? YamlTree.suggestion(v.text().trim(), java.util.List.of(unit.split("\\|"))) : "";
            throw v.error(e.getMessage() + near);
        }
    }

    /** The value at {@code section.key()} if the section writes it, else {@code fallback}. */
    public T fromYaml(YamlTree section, T fallback) {
        return section.has(key()) ? fromYaml(section.get(key())) : fallback;
    }

    /** The value at {@code section.key()} if the section writes it, else {@link #defaultValue}. */
    public T fromYamlOrDefault(YamlTree section) {
        if (defaultValue == null) {
            throw new IllegalStateException(field + " has no default value (" + defaultText + ")");
        }
        return fromYaml(section, defaultValue);
    }

    /** Whether a command-line option sets it too (else only a scenario does). */
    public boolean hasOption() {
        return !option.isEmpty();
    }

    /** The value given to {@link #option}; a bad one is refused naming the option. */
    public T fromOption(String text) {
        try {
            return read(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(option + ": " + e.getMessage(), e);
        }
    }

    /** The YAML key within its section ({@code firmwarePageCap}). */
    public String key() {
        return field.substring(field.lastIndexOf('.') + 1);
    }
}
