package org.rdmasim.report;

import com.github.mustachejava.DefaultMustacheFactory;
import com.github.mustachejava.Mustache;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.io.Writer;

/**
 * A page written from a Mustache template in {@code templates/} on the class path and a view (records
 * whose accessors the template names). Every {@code {{value}}} is escaped for HTML as the rest of the
 * reports escape text ({@link org.rdmasim.importers.PrintableText#markup}: markup characters as entities,
 * control characters made visible), so a scenario's names and comments never become markup.
 */
public final class PageTemplate {
    private static final DefaultMustacheFactory TEMPLATES = new DefaultMustacheFactory("templates") {
        @Override
        public void encode(String value, Writer writer) {
            try {
                writer.write(org.rdmasim.importers.PrintableText.markup(value));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    };

    private final Mustache template;

    private PageTemplate(Mustache template) {
        this.template = template;
    }

    /** The template {@code templates/<name>.mustache}. */
    public static PageTemplate named(String name) {
        synchronized (TEMPLATES) {
            return new PageTemplate(TEMPLATES.compile(name + ".mustache"));
        }
    }

    /** The page for {@code view}. */
    public String render(Object view) {
        StringWriter out = new StringWriter();
        template.execute(out, view);
        return out.toString();
    }
}
