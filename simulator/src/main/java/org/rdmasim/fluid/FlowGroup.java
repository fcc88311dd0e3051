package org.rdmasim.fluid;

/**
 * Flows frozen at the same saturated resource, sharing one rate per unit weight (processor sharing).
 *
 * <p>In the solver the group is one pseudo-flow of weight 1 whose rate is the group's level {@code x}
 * (each member runs at {@code w_f * x}) and whose usage of a resource is the members' summed
 * {@code w_f * u_f}: the loads it puts on resources are exactly the members' loads. Its path holds the
 * group's resource and the members' <em>shared</em> resources; a resource crossed by one member only
 * (a receiver's NIC, its PCIe links) is left out and becomes a per-member threshold instead: the level
 * at which that resource or the member's own cap would bind. A resource crossed by several members and
 * nothing else (the lanes of one striped receiver on its GPU link) is left out too, followed lazily with
 * the members' summed usage; the level at which it would fill joins the cap. The pseudo-flow's cap is the lowest such
 * threshold, so if the solver ever lets the group reach it, or freezes the group anywhere but its own
 * resource, the aggregation no longer matches progressive filling of the members and the network
 * dissolves the group and re-solves flow by flow.
 *
 * <p>Progress is a virtual clock {@code V} (bytes per unit weight delivered since the group formed): a
 * member joining with {@code b} bytes left gets the tag {@code V + b / w} and finishes when {@code V}
 * reaches it. Only the smallest tag needs a completion event, and a level change moves that one event.
 */
final class FlowGroup implements Level {
    final Resource at;
    final Flow pseudo;
    /** Members by tag; read here, changed only through {@link #add} and {@link #remove}. */
    final MembersByTag byTag = new MembersByTag();
    /** Members' thresholds (only the lowest is read); changed only through {@link #add} and {@link #remove}. */
    private final Bounds thresholds = new Bounds();
    /**
     * Levels at which the resources crossed by several members and nothing else, followed lazily (see
     * {@link FlowGroups#shareLazily}), would fill: each resource's {@link Resource#lazyLimit} while it
     * follows this group. Changed only through {@link #addShared} and {@link #removeShared}.
     */
    private final Bounds shared = new Bounds();
    /** Members crossing {@code pseudo.path[i]} (index 0 is {@link #at}, crossed by all). */
    int[] crossing = new int[4];
    /**
     * Pseudo-path positions by resource, made when the path first grows past {@link #SCANNED_PATH} (a
     * refit's groups span every sender's links) and kept up from then on; null before, when a scan of the
     * path finds a resource. A fan-out's pseudo-paths hold a handful of resources, and the hashed
     * lookups cost more than that scan: ~4% of a 65,536-receiver fan-out's simulate, mostly from joining
     * members (measured with an identity-hash map).
     */
    private PathPositions slots;
    /** Longest pseudo-path searched by a scan rather than in {@link #slots}. */
    static final int SCANNED_PATH = 16;

    private double virtualTime;
    private double virtualSince;

    /** Level history, for the peak load of lazily followed resources. */
    private final LevelHistory history = new LevelHistory();
    /**
     * Blends this group is part of: each bounds the group's level by its budget (see {@link Blend}). Read
     * here and by {@link FlowGroups}; changed only through {@link #joinBlend} and {@link #leaveBlend}.
     */
    final java.util.List<Blend> blends = new java.util.ArrayList<>(2);
    /**
     * This group's place among the parts of each blend, by place in {@link #blends}: found once, when it
     * joins. {@link #cap} reads every blend's budget, and searching each blend's parts for this group there
     * made a refit's groups, each in blends of hundreds of parts, pay the product on every recap (~5% of a
     * 32,768-transfer refit list's simulate, perf).
     */
    private int[] partInBlend = new int[2];

    FlowGroup(Resource at, Flow pseudo, double now) {
        this.at = at;
        this.pseudo = pseudo;
        this.virtualSince = now;
        recordLevel();
    }

    /**
     * The pseudo-flow's cap: the lowest member threshold, level at which a shared lazy resource fills,
     * or budget of a blend the group is part of.
     */
    double cap() {
        double c = thresholds.lowest();
        if (!shared.isEmpty()) {
            c = Math.min(c, shared.lowest());
        }
        for (int i = 0; i < blends.size(); i++) {
            c = Math.min(c, blends.get(i).budget(partInBlend[i]));
        }
        return c;
    }

    /** Becomes bounded by blend {@code b}, one of whose parts this group is. */
    void joinBlend(Blend b) {
        int n = blends.size();
        if (n == partInBlend.length) {
            partInBlend = java.util.Arrays.copyOf(partInBlend, 2 * n);
        }
        partInBlend[n] = b.partIndex(this);
        blends.add(b);
    }

    /** Is no longer bounded by blend {@code b} (its first entry, as {@code List.remove} takes it). */
    void leaveBlend(Blend b) {
        int k = blends.indexOf(b);
        if (k < 0) {
            return;
        }
        blends.remove(k);
        System.arraycopy(partInBlend, k + 1, partInBlend, k, blends.size() - k);
    }

    /** Takes in member {@code f}, its tag and threshold set. */
    void add(Flow f) {
        byTag.add(f);
        thresholds.add(f.threshold);
    }

    /** Lets member {@code f} go. */
    void remove(Flow f) {
        byTag.remove(f);
        thresholds.remove(f.threshold);
    }

    /** Lazily followed resource {@code q} enters the cap (call after it follows this group at its factor). */
    void addShared(Resource q) {
        shared.add(q.lazyLimit());
    }

    /** Lazily followed resource {@code q} leaves the cap (call before its factor changes or it unfollows). */
    void removeShared(Resource q) {
        shared.remove(q.lazyLimit());
    }

    /** The member with the smallest tag (the next to finish), null when none. */
    Flow firstByTag() {
        return byTag.first();
    }

    /** Rate per unit weight of every member. */
    @Override
    public double level() {
        return pseudo.rate;
    }

    void advance(double now) {
        advance(now, pseudo.rate);
    }

    /** Moves the virtual clock to {@code now} at {@code level}, the level the group ran at until now. */
    void advance(double now, double level) {
        double dt = now - virtualSince;
        if (dt > 0) {
            virtualTime += level * dt;
            virtualSince = now;
        }
    }

    @Override
    public double virtualTimeAt(double now) {
        return virtualTime + pseudo.rate * Math.max(0.0, now - virtualSince);
    }

    /** Appends the current level to the history. */
    void recordLevel() {
        history.record(pseudo.rate);
    }

    /** Number of the latest level record. */
    @Override
    public long levelRecord() {
        return history.latest();
    }

    /** Highest level recorded since record {@code from} (inclusive), and the current one. */
    @Override
    public double maxLevelSince(long from) {
        return history.maxSince(from, pseudo.rate);
    }

    /** Position of {@code r} on the pseudo-path, -1 when absent: a lookup, as paths reach hundreds of resources. */
    int indexOf(Resource r) {
        if (slots != null) {
            return slots.get(r.number);
        }
        // A resource is on the pseudo-path at most once (it is appended only when not found).
        Resource[] path = pseudo.pathArray();
        for (int i = 0, n = pseudo.pathLength(); i < n; i++) {
            if (path[i] == r) {
                return i;
            }
        }
        return -1;
    }

    /** The pseudo-path gained {@code r} at its end. */
    void appended(Resource r) {
        int n = pseudo.pathLength();
        if (slots != null) {
            slots.put(r.number, n - 1);
        } else if (n > SCANNED_PATH) {
            slots = new PathPositions();
            Resource[] path = pseudo.pathArray();
            for (int i = 0; i < n; i++) {
                slots.put(path[i].number, i);
            }
        }
    }

    /** The pseudo-path lost {@code r}, which was at {@code k}; its last resource, if another, moved to {@code k}. */
    void removed(Resource r, int k) {
        if (slots == null) {
            return;
        }
        slots.remove(r.number);
        if (k < pseudo.pathLength()) {
            slots.put(pseudo.pathArray()[k].number, k);
        }
    }

    /** Due time of the member with the smallest tag, as a delay from {@code now}; +Infinity when none. */
    double nextDelay(double now) {
        if (byTag.isEmpty() || !(pseudo.rate > 0)) {
            return Double.POSITIVE_INFINITY;
        }
        // The tag as the ring keeps it (the same value as the member's): no load of a cold member per move.
        return Math.max(0.0, (byTag.firstTag() - virtualTimeAt(now)) / pseudo.rate);
    }
}
