package org.rdmasim.importers.env;

import java.io.StringReader;
import org.rdmasim.importers.InputLimits;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

import org.rdmasim.transport.config.EnvEntry;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Reads the {@code env:} lists of a Kubernetes manifest, wherever they are in the tree (pod spec,
 * deployment template, operator CRDs such as Dynamo's, or a bare list of containers), across all
 * YAML documents in the text. SnakeYAML's node graph is read (no Java objects are constructed, as
 * for scenarios), so every entry keeps the line it was written on.
 *
 * <p>Each entry is {@code - name: X} with {@code value: "Y"}; an entry with neither value nor
 * {@code valueFrom} has the empty value, as in Kubernetes. {@code valueFrom} entries (secrets,
 * field references) are skipped with a warning: their value exists only in a running pod.
 */
final class KubernetesEnvReader {

    /** Kubernetes accepts '-' and '.' in env names besides the shell characters. */
    private static final Pattern NAME = Pattern.compile("[A-Za-z_.-][A-Za-z0-9_.-]*");

    private final String source;
    private final List<EnvEntry> entries = new ArrayList<>();
    private final List<String> warnings = new ArrayList<>();
    private int envListsSeen;

    private KubernetesEnvReader(String source) {
        this.source = source;
    }

    static EnvBlock read(String text, String source) {
        KubernetesEnvReader reader = new KubernetesEnvReader(source);
        LoaderOptions options = new LoaderOptions();
        // SnakeYAML refuses more than 3 MiB of code points by default, with a bare YAMLException: the
        // file limit is checked before, with a message naming it
        options.setCodePointLimit((int) InputLimits.MAX_FILE_BYTES);
        options.setMaxAliasesForCollections(50);
        options.setNestingDepthLimit(InputLimits.MAX_DEPTH);
        Yaml yaml = new Yaml(new SafeConstructor(options));
        try {
            for (Node document : yaml.composeAll(new StringReader(text))) {
                reader.walk(document, reader.entries, 0);
            }
        } catch (MarkedYAMLException e) {
            Mark m = e.getProblemMark() != null ? e.getProblemMark() : e.getContextMark();
            String problem = e.getProblem() != null ? e.getProblem() : e.getMessage();
            throw new EnvBlockException(source, m == null ? 0 : m.getLine() + 1, "YAML syntax error (" + problem.trim() + ")",
                    "a Kubernetes manifest or a list of containers with env: lists");
        } catch (EnvBlockException e) {
            throw e;
        } catch (RuntimeException e) {
            // SnakeYAML's nesting and alias limits carry no position.
            throw new EnvBlockException(source, 0, "YAML error (" + e.getMessage() + ")",
                    "a Kubernetes manifest nested at most " + InputLimits.MAX_DEPTH + " levels");
        }
        if (reader.envListsSeen == 0) {
            reader.warnings.add(source + ":1: no env: list found in the YAML; no variables read");
        }
        return new EnvBlock(EnvFormat.KUBERNETES_YAML, reader.entries, reader.warnings);
    }

    /** Walks one node, appending env entries found inside to {@code out}. */
    private void walk(Node node, List<EnvEntry> out, int depth) {
        if (depth > InputLimits.MAX_DEPTH) {
            throw new EnvBlockException(source, line(node), "YAML nested deeper than " + InputLimits.MAX_DEPTH + " levels",
                    "a Kubernetes manifest");
        }
        if (node instanceof MappingNode m) {
            walkMapping(m, out, depth);
        } else if (node instanceof SequenceNode s) {
            for (Node item : s.getValue()) {
                walk(item, out, depth + 1);
            }
        }
    }

    /**
     * Walks a mapping. Entries from an {@code env:} list directly in it are labelled with its
     * {@code name:} (the container name), which may come before or after the list.
     */
    private void walkMapping(MappingNode m, List<EnvEntry> out, int depth) {
        List<EnvEntry> own = new ArrayList<>();
        String objectName = null;
        for (NodeTuple t : m.getValue()) {
            String field = t.getKeyNode() instanceof ScalarNode k ? k.getValue() : null;
            Node value = t.getValueNode();
            if ("env".equals(field) && value instanceof SequenceNode list) {
                envListsSeen++;
                readEnvList(list, own);
            } else if ("name".equals(field) && value instanceof ScalarNode n) {
                objectName = n.getValue();
            } else {
                walk(value, out, depth + 1);
            }
        }
        String label = objectName == null ? source : source + "[" + objectName + "]";
        for (EnvEntry e : own) {
            out.add(new EnvEntry(e.name(), e.value(), label, e.line()));
        }
    }

    private void readEnvList(SequenceNode list, List<EnvEntry> out) {
        for (Node item : list.getValue()) {
            if (!(item instanceof MappingNode m)) {
                throw new EnvBlockException(source, line(item), "env list item is not a mapping",
                        "'- name: VAR' followed by 'value: \"...\"'");
            }
            readEnvItem(m, out);
        }
    }

    private void readEnvItem(MappingNode item, List<EnvEntry> out) {
        String name = null;
        int nameLine = line(item);
        String value = "";
        boolean fromRef = false;
        for (NodeTuple t : item.getValue()) {
            String field = t.getKeyNode() instanceof ScalarNode k ? k.getValue() : "";
            Node v = t.getValueNode();
            switch (field) {
                case "name" -> {
                    nameLine = line(v);
                    if (!(v instanceof ScalarNode n)) {
                        throw new EnvBlockException(source, nameLine, "env name is not a plain value",
                                "a variable name such as UCX_NET_DEVICES");
                    }
                    name = n.getValue();
                }
                case "value" -> {
                    if (!(v instanceof ScalarNode n)) {
                        throw new EnvBlockException(source, line(v), "env value is a list or mapping",
                                "a quoted string value");
                    }
                    boolean isNull = Tag.NULL.equals(n.getTag());
                    if (!isNull && !Tag.STR.equals(n.getTag())) {
                        warnings.add(source + ":" + line(v) + ": env value '" + n.getValue()
                                + "' is not a string; Kubernetes requires quotes around it");
                    }
                    value = isNull ? "" : n.getValue();
                }
                case "valueFrom" -> fromRef = true;
                default -> {
                    // other fields of an env entry do not set its value
                }
            }
        }
        if (name == null) {
            throw new EnvBlockException(source, line(item), "env entry without 'name'",
                    "'- name: VAR' followed by 'value: \"...\"'");
        }
        if (!NAME.matcher(name).matches() || Character.isDigit(name.charAt(0))) {
            throw new EnvBlockException(source, nameLine, "bad variable name '" + name + "'",
                    "letters, digits, '_', '-' or '.', not starting with a digit");
        }
        if (fromRef) {
            warnings.add(source + ":" + nameLine + ": " + name
                    + " uses valueFrom; skipped, its value is only known inside a running pod");
            return;
        }
        out.add(new EnvEntry(name, value, source, nameLine));
    }

    private static int line(Node n) {
        return n.getStartMark() == null ? 0 : n.getStartMark().getLine() + 1;
    }
}
