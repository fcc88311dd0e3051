package org.rdmasim.workload;

import java.util.List;

/** A host serving the model, with how many pulls it serves now. */
final class SourceNode {
    final int order;
    final String host;
    final List<String> gpus;
    final boolean original;
    int active;
    boolean lost;

    SourceNode(int order, String host, List<String> gpus, boolean original) {
        this.order = order;
        this.host = host;
        this.gpus = gpus;
        this.original = original;
    }
}
