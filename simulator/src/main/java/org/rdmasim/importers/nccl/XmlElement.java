package org.rdmasim.importers.nccl;

import java.util.List;
import java.util.Map;

/** One element of a topology file as read: tag, attributes, the line its start tag ends on, children. */
record XmlElement(String tag, Map<String, String> attributes, int line, List<XmlElement> children) {

    String attr(String name) {
        return attributes.get(name);
    }

    boolean has(String name) {
        String v = attributes.get(name);
        return v != null && !v.isBlank();
    }

    List<XmlElement> children(String childTag) {
        return children.stream().filter(c -> c.tag.equals(childTag)).toList();
    }
}
