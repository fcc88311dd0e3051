package org.rdmasim.importers.env;

import org.rdmasim.transport.config.EnvEntry;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Reads the {@code env:} lists of a Kubernetes manifest, wherever they are in the tree (pod spec,
 * deployment template, operator CRDs such as Dynamo's, or a bare list of containers), across all
 * YAML documents in the text. Streaming tokens are used instead of a tree so every entry keeps the
 * line it was written on.
 *
 * <p>Each entry is {@code - name: X} with {@code value: "Y"}; an entry with neither value nor
 * {@code valueFrom} has the empty value, as in Kubernetes. {@code valueFrom} entries (secrets,
 * field references) are skipped with a warning: their value exists only in a running pod.
 */
final class KubernetesEnvReader {

    /** Kubernetes accepts '-' and '.' in env names besides the shell characters. */
    private static final Pattern NAME = Pattern.compile("[A-Za-z_.-][A-Za-z0-9_.-]*");

    private static final YAMLFactory YAML = new YAMLFactory();

    private final String source;
    private final List<EnvEntry> entries = new ArrayList<>();
    private final List<String> warnings = new ArrayList<>();
    private int envListsSeen;

    private KubernetesEnvReader(String source) {
        this.source = source;
    }

    static EnvBlock read(String text, String source) {
        KubernetesEnvReader reader = new KubernetesEnvReader(source);
        try (JsonParser parser = YAML.createParser(text)) {
            JsonToken token;
            while ((token = parser.nextToken()) != null) {
                reader.walkValue(parser, token, reader.entries);
            }
        } catch (JsonProcessingException e) {
            int line = e.getLocation() == null ? 0 : e.getLocation().getLineNr();
            throw new EnvBlockException(source, line, "YAML syntax error (" + e.getOriginalMessage() + ")",
                    "a Kubernetes manifest or a list of containers with env: lists");
        } catch (IOException e) {
            throw new EnvBlockException(source, 0, "cannot read YAML (" + e.getMessage() + ")",
                    "readable YAML text");
        }
        if (reader.envListsSeen == 0) {
            reader.warnings.add(source + ":1: no env: list found in the YAML; no variables read");
        }
        return new EnvBlock(EnvFormat.KUBERNETES_YAML, reader.entries, reader.warnings);
    }

    /** Walks one value starting at {@code token}, appending env entries found inside to {@code out}. */
    private void walkValue(JsonParser p, JsonToken token, List<EnvEntry> out) throws IOException {
        if (token == JsonToken.START_OBJECT) {
            walkObject(p, out);
        } else if (token == JsonToken.START_ARRAY) {
            JsonToken t;
            while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
                walkValue(p, t, out);
            }
        }
    }

    /**
     * Walks an object. Entries from an {@code env:} list directly in this object are labelled with
     * the object's {@code name:} (the container name), which may come before or after the list.
     */
    private void walkObject(JsonParser p, List<EnvEntry> out) throws IOException {
        List<EnvEntry> own = new ArrayList<>();
        String objectName = null;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken value = p.nextToken();
            if ("env".equals(field) && value == JsonToken.START_ARRAY) {
                envListsSeen++;
                readEnvList(p, own);
            } else if ("name".equals(field) && value.isScalarValue()) {
                objectName = p.getText();
            } else {
                walkValue(p, value, out);
            }
        }
        String label = objectName == null ? source : source + "[" + objectName + "]";
        for (EnvEntry e : own) {
            out.add(new EnvEntry(e.name(), e.value(), label, e.line()));
        }
    }

    private void readEnvList(JsonParser p, List<EnvEntry> out) throws IOException {
        JsonToken t;
        while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
            int line = line(p);
            if (t != JsonToken.START_OBJECT) {
                throw new EnvBlockException(source, line, "env list item is not a mapping",
                        "'- name: VAR' followed by 'value: \"...\"'");
            }
            readEnvItem(p, line, out);
        }
    }

    private void readEnvItem(JsonParser p, int itemLine, List<EnvEntry> out) throws IOException {
        String name = null;
        int nameLine = itemLine;
        String value = "";
        boolean fromRef = false;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken v = p.nextToken();
            switch (field) {
                case "name" -> {
                    nameLine = line(p);
                    if (!v.isScalarValue()) {
                        throw new EnvBlockException(source, nameLine, "env name is not a plain value",
                                "a variable name such as UCX_NET_DEVICES");
                    }
                    name = p.getText();
                }
                case "value" -> {
                    if (v.isScalarValue()) {
                        if (v != JsonToken.VALUE_STRING && v != JsonToken.VALUE_NULL) {
                            warnings.add(source + ":" + line(p) + ": env value '" + p.getText()
                                    + "' is not a string; Kubernetes requires quotes around it");
                        }
                        value = v == JsonToken.VALUE_NULL ? "" : p.getText();
                    } else {
                        throw new EnvBlockException(source, line(p), "env value is a list or mapping",
                                "a quoted string value");
                    }
                }
                case "valueFrom" -> {
                    fromRef = true;
                    p.skipChildren();
                }
                default -> p.skipChildren();
            }
        }
        if (name == null) {
            throw new EnvBlockException(source, itemLine, "env entry without 'name'",
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

    private static int line(JsonParser p) {
        return p.currentTokenLocation().getLineNr();
    }
}
