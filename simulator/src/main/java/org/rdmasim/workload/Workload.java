package org.rdmasim.workload;

import java.util.List;

/**
 * What a variant runs: a list of transfers placed in time, or a fan-out of receivers pulling a model
 * from sources. Exactly one of them; a message-size sweep expands into transfer lists.
 */
public sealed interface Workload permits Workload.Transfers, Workload.Fanout {
    /** Transfers, each posted at its own time. */
    record Transfers(List<TransferItem> items) implements Workload {
        public Transfers {
            items = List.copyOf(items);
        }
    }

    /** Receivers arriving and pulling the model from sources, refit after refit. */
    record Fanout(FanoutPlan plan) implements Workload {
        public Fanout {
            java.util.Objects.requireNonNull(plan, "plan");
        }
    }
}
