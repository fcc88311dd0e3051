package org.rdmasim.scenario;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.rdmasim.workload.TransferItem;

/** The {@code sweep} section: message sizes each written variant runs at, expanded into variants. */
final class SweepReader {
    private SweepReader() {
    }

    static Scenario.Sweep sweep(YamlTree v, List<VariantSpec> variants) {
        v.onlyFields(Set.of("messageSize", "messages"));
        YamlTree sizes = v.get("messageSize");
        List<Long> values = new ArrayList<>();
        List<YamlTree> writtenAt = new ArrayList<>();
        if (sizes.isList()) {
            for (YamlTree s : sizes.items()) {
                values.add(Quantities.bytes(s));
                writtenAt.add(s);
            }
        } else {
            sizes.onlyFields(Set.of("from", "to", "factor"));
            long from = Quantities.bytes(sizes.get("from"));
            long to = Quantities.bytes(sizes.get("to"));
            long factor = sizes.has("factor") ? sizes.get("factor").integer() : 2;
            if (from < 1 || to < from || factor < 2) {
                throw sizes.error("expected 1 <= from <= to and factor >= 2");
            }
            for (long x = from; x <= to; x *= factor) {
                values.add(x);
                writtenAt.add(sizes);
                if (x > Long.MAX_VALUE / factor) {
                    break;
                }
            }
        }
        for (long x : values) {
            if (x < 1) {
                throw sizes.error("message sizes must be at least 1 byte");
            }
        }
        if (values.isEmpty() || values.size() > 64) {
            throw sizes.error("expected 1 to 64 message sizes, got " + values.size());
        }
        long messages = v.has("messages") ? v.get("messages").integer() : 1000;
        if (messages < 1 || messages > 1_000_000) {
            throw v.get("messages").error("expected 1 to 1000000 messages per point");
        }
        // Each point moves size x messages bytes per transfer: that must be a byte count rdmasim can hold.
        for (int i = 0; i < values.size(); i++) {
            if (values.get(i) > Long.MAX_VALUE / messages) {
                throw writtenAt.get(i).error("a message size of " + values.get(i) + " bytes times " + messages
                        + " messages is over " + Long.MAX_VALUE + " bytes per transfer; use smaller sizes or fewer messages");
            }
        }
        return new Scenario.Sweep(variants.stream().map(VariantSpec::name).toList(), values, (int) messages);
    }

    static List<VariantSpec> expand(List<VariantSpec> variants, Scenario.Sweep sweep) {
        List<VariantSpec> out = new ArrayList<>();
        for (VariantSpec v : variants) {
            for (long size : sweep.messageSizes()) {
                List<TransferItem> items = new ArrayList<>();
                for (TransferItem t : v.transfers()) {
                    items.add(new TransferItem(t.id(), t.from(), t.to(), Math.multiplyExact(size, (long) sweep.messages()),
                            t.atSeconds(), t.operation(), sweep.messages(), size));
                }
                out.add(new VariantSpec(Scenario.Sweep.variantName(v.name(), size), v.description(), v.hosts(), v.fabric(),
                        v.transport(), v.protocol(), v.registration(), items, v.claim(), v.warnings()));
            }
        }
        return out;
    }
}
