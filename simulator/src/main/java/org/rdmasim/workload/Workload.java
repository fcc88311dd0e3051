package org.rdmasim.workload;

import java.util.List;

/**
 * What a variant runs: a list of transfers placed in time, or a fan-out of receivers pulling a model
 * from sources, or a refit from trainer to inference layouts. Exactly one of them; a message-size sweep expands into transfer lists.
 */
public sealed interface Workload permits Workload.Transfers, Workload.Fanout, Workload.Refit {
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

    /** Trainer ranks handing fresh weights to inference ranks, cycle after cycle. */
    record Refit(RefitSpec spec) implements Workload {
        public Refit {
            java.util.Objects.requireNonNull(spec, "spec");
        }
    }
}
