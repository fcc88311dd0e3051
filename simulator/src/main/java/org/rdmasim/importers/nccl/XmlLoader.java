package org.rdmasim.importers.nccl;

import java.io.IOException;
import java.io.StringReader;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.xml.XMLConstants;
import javax.xml.parsers.ParserConfigurationException;
import javax.xml.parsers.SAXParser;
import javax.xml.parsers.SAXParserFactory;
import org.rdmasim.importers.ImportException;
import org.rdmasim.importers.InputLimits;
import org.xml.sax.Attributes;
import org.xml.sax.InputSource;
import org.xml.sax.Locator;
import org.xml.sax.SAXException;
import org.xml.sax.SAXParseException;
import org.xml.sax.helpers.DefaultHandler;

/**
 * Reads XML into {@link XmlElement}s with line numbers. A SAX parser is used for its {@link Locator};
 * DOCTYPE declarations are refused and external entities and DTDs never loaded (topology files come
 * from other machines; NCCL's own parser knows no DTDs either).
 */
final class XmlLoader {
    private XmlLoader() {
    }

    static XmlElement load(String text, String source) {
        InputLimits.check(text).ifPresent(v -> {
            throw new ImportException(source, v.line(), v.problem(), "an NCCL topology XML file");
        });
        SAXParserFactory factory = SAXParserFactory.newInstance();
        factory.setNamespaceAware(false);
        factory.setValidating(false);
        SAXParser parser;
        try {
            factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            factory.setFeature("http://xml.org/sax/features/external-general-entities", false);
            factory.setFeature("http://xml.org/sax/features/external-parameter-entities", false);
            factory.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
            parser = factory.newSAXParser();
        } catch (ParserConfigurationException | SAXException e) {
            throw new IllegalStateException("the JDK's SAX parser cannot be configured safely", e);
        }
        Builder builder = new Builder(source);
        try {
            parser.parse(new InputSource(new StringReader(text)), builder);
        } catch (SAXParseException e) {
            int line = e.getLineNumber() > 0 ? e.getLineNumber() : lastLine(text);
            String what = e.getMessage() == null ? "unreadable XML" : e.getMessage().trim();
            throw new ImportException(source, line, "malformed or truncated XML (" + what + ")",
                    "a complete NCCL topology document, <system version=\"1\"> ... </system>");
        } catch (SAXException | IOException e) {
            throw new ImportException(source, lastLine(text), "cannot read XML (" + e.getMessage() + ")",
                    "a complete NCCL topology document");
        }
        if (builder.root == null) {
            throw new ImportException(source, 1, "no XML element found", "<system version=\"1\">");
        }
        return builder.root;
    }

    private static int lastLine(String text) {
        return (int) text.lines().count();
    }

    /** Collects elements bottom-up: children lists are filled before their element is frozen. */
    private static final class Builder extends DefaultHandler {
        private record Open(String tag, Map<String, String> attributes, int line, List<XmlElement> children) {
        }

        private final String source;
        private Locator locator;
        private final Deque<Open> stack = new ArrayDeque<>();
        private XmlElement root;

        Builder(String source) {
            this.source = source;
        }

        @Override
        public void setDocumentLocator(Locator locator) {
            this.locator = locator;
        }

        @Override
        public void startElement(String uri, String localName, String qName, Attributes attributes) {
            if (stack.size() >= InputLimits.MAX_DEPTH) {
                // Thrown as it is: the reader below walks the tree recursively, so depth is bounded here.
                throw new ImportException(source, locator == null ? 0 : locator.getLineNumber(),
                        "elements nested deeper than the limit of " + InputLimits.MAX_DEPTH,
                        "an NCCL topology (about 6 levels: system, cpu, pci..., nic, net)");
            }
            Map<String, String> attrs = new LinkedHashMap<>();
            for (int i = 0; i < attributes.getLength(); i++) {
                attrs.put(attributes.getQName(i), attributes.getValue(i));
            }
            stack.push(new Open(qName, attrs, locator == null ? 0 : locator.getLineNumber(), new ArrayList<>()));
        }

        @Override
        public void endElement(String uri, String localName, String qName) {
            Open o = stack.pop();
            XmlElement e = new XmlElement(o.tag(), Map.copyOf(o.attributes()), o.line(), List.copyOf(o.children()));
            if (stack.isEmpty()) {
                root = e;
            } else {
                stack.peek().children().add(e);
            }
        }
    }
}
