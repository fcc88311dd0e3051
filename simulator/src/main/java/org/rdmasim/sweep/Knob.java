package org.rdmasim.sweep;

import java.util.List;
import org.rdmasim.scenario.YamlTree;

/**
 * One scenario field a study turns: its dotted path ({@code hosts.sources.count}), where the path was
 * written in the study (errors about the field point there), and the values, each located where the
 * study wrote it (a range's values at the range).
 */
public record Knob(String path, List<String> keys, YamlTree pathAt, List<YamlTree> values) {
    public Knob {
        keys = List.copyOf(keys);
        values = List.copyOf(values);
    }

    /** The values as written, in order: the table's column for this knob. */
    public List<String> texts() {
        return values.stream().map(YamlTree::written).toList();
    }

    /** The mapping that sets this knob to its {@code i}-th value, to lay over the base scenario. */
    YamlTree overlay(int i) {
        return YamlTree.placedAt(keys, pathAt, values.get(i));
    }
}
