package org.rdmasim.workload;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.TreeSet;

/**
 * Sources with their load. Least-loaded keeps an ordered set by (active pulls, publication order);
 * round-robin over a tree keeps a queue of sources with a free slot, a source going to the back
 * after each child, so both pick in O(log n) or O(1).
 */
final class SourcePool {
    private final SourceAssignment assignment;
    private final int maxChildren;
    private final List<SourceNode> all = new ArrayList<>();
    private final TreeSet<SourceNode> byLoad = new TreeSet<>(
            Comparator.comparingInt((SourceNode n) -> n.active).thenComparingInt(n -> n.order));
    private final ArrayDeque<SourceNode> withSlot = new ArrayDeque<>();
    private int nextInTurn;

    SourcePool(SourceAssignment assignment, TreeFanout tree) {
        this.assignment = assignment;
        this.maxChildren = tree == null ? Integer.MAX_VALUE : tree.maxChildren();
    }

    void publish(String host, List<String> gpus, boolean original) {
        SourceNode n = new SourceNode(all.size(), host, gpus, original);
        all.add(n);
        if (assignment == SourceAssignment.LEAST_LOADED) {
            byLoad.add(n);
        } else {
            withSlot.addLast(n);
        }
    }

    SourceNode pick() {
        if (assignment == SourceAssignment.LEAST_LOADED) {
            SourceNode n = byLoad.first();
            return n.active < maxChildren ? n : null;
        }
        if (maxChildren == Integer.MAX_VALUE) {
            return all.get(nextInTurn++ % all.size());
        }
        return withSlot.peekFirst();
    }

    /** A source leaves: it is never picked again. */
    void lose(String host) {
        for (SourceNode n : all) {
            if (n.host.equals(host) && !n.lost) {
                n.lost = true;
                byLoad.remove(n);
                withSlot.remove(n);
            }
        }
    }

    /** True when a source not lost and not in {@code avoid} exists, busy or not. */
    boolean anyEligible(java.util.Set<String> avoid) {
        for (SourceNode n : all) {
            if (!n.lost && !avoid.contains(n.host)) {
                return true;
            }
        }
        return false;
    }

    /** As {@link #pick}, skipping lost sources and those in {@code avoid} (a scan: faults are rare). */
    SourceNode pickAvoiding(java.util.Set<String> avoid) {
        if (assignment == SourceAssignment.LEAST_LOADED) {
            for (SourceNode n : byLoad) {
                if (!avoid.contains(n.host)) {
                    return n.active < maxChildren ? n : null;
                }
            }
            return null;
        }
        if (maxChildren == Integer.MAX_VALUE) {
            for (int k = 0; k < all.size(); k++) {
                SourceNode n = all.get((nextInTurn + k) % all.size());
                if (!n.lost && !avoid.contains(n.host)) {
                    nextInTurn += k + 1;
                    return n;
                }
            }
            return null;
        }
        for (SourceNode n : withSlot) {
            if (!avoid.contains(n.host)) {
                return n;
            }
        }
        return null;
    }

    void acquire(SourceNode n) {
        if (assignment == SourceAssignment.LEAST_LOADED) {
            byLoad.remove(n);
            n.active++;
            byLoad.add(n);
            return;
        }
        n.active++;
        if (maxChildren != Integer.MAX_VALUE) {
            if (withSlot.peekFirst() == n) {
                withSlot.pollFirst();
            } else {
                withSlot.remove(n);
            }
            if (n.active < maxChildren) {
                withSlot.addLast(n);
            }
        }
    }

    void release(SourceNode n) {
        if (n.lost) {
            n.active--;
            return;
        }
        if (assignment == SourceAssignment.LEAST_LOADED) {
            byLoad.remove(n);
            n.active--;
            byLoad.add(n);
            return;
        }
        boolean wasFull = n.active == maxChildren;
        n.active--;
        if (wasFull) {
            withSlot.addLast(n);
        }
    }
}
