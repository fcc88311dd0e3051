package org.rdmasim.fluid;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * How flows frozen together at one resource become a {@link FlowGroup} and stop being one: forming and
 * joining groups, members leaving (finishing, or ejected when a resource they cross gains another
 * flow), groups dissolved when their members would no longer be frozen where the group is, and the
 * resources a group follows lazily. Runs only when grouping is on ({@link FluidNetwork#grouping}).
 * Part of the network, above the solver: it reads a solve's outcome ({@link RateChanges}) to judge
 * whether groups still hold, and puts a new or changed group's event on the clock.
 *
 * <p>It keeps what ties flows and resources to groups, so that neither knows groups: by
 * {@link Flow#number}, the group a flow is a member of and the group a pseudo-flow stands for; by
 * {@link Resource#number}, a {@link Site}: the group at the resource and the group it follows lazily.
 */
final class FlowGroups {
    private final FlowNumbers numbers;
    private final RunningFlows running;
    private final ResourceTable resources;
    private final CompletionSchedule schedule;
    /** By {@link Flow#number}: the group the flow is a member of, or null. */
    private FlowGroup[] memberOf = new FlowGroup[16];
    /** By {@link Flow#number}: the group the flow is the pseudo-flow of, or null. */
    private FlowGroup[] pseudoOf = new FlowGroup[16];
    /** By {@link Resource#number}, made on first use. */
    private Site[] sites = new Site[16];
    /**
     * Sites given back ({@link #releaseIfEmpty}), all fields cleared, for {@link #site} to hand out again.
     * A site lives as long as the grouped member on its resource, across young collections, so each new
     * one was copied and promoted, and left as garbage in the old generation when released; a 65,536-transfer
     * list made ~850,000 of them. Reused, at most as many exist as resources hold something at once; at
     * most {@link #MAX_SPARES} are kept, so a run's last members finishing do not leave a pool of sites
     * that nothing will take (~270,000 of them, 11 MB, at the end of that list).
     */
    private Site[] spare = new Site[16];
    private int spares;
    /** Most spare sites kept: members join and leave all through a run, so a few thousand cover the churn. */
    private static final int MAX_SPARES = 1 << 14;

    /** What grouping keeps about one resource. */
    private static final class Site {
        /** The group whose pseudo-flow is frozen here by definition (its members' bottleneck), or null. */
        FlowGroup group;
        /** Non-null while the resource carries only one grouped member (and so follows its group). */
        Flow lazyMember;
        /**
         * The group the resource follows, or null: {@link #lazyMember}'s group, or with no lazy member a
         * group several of whose members cross it and nothing else does (the lanes of one striped
         * receiver on its GPU link). Then the group's cap keeps the level below where it would bind.
         */
        FlowGroup lazyGroup;
        /** Members crossing the resource while it follows {@link #lazyGroup}. */
        int lazyCount;
        /** The blend the resource follows, or null: members of several groups cross it and nothing else. */
        Blend blend;
        /** Members of each of {@link #blend}'s groups crossing the resource, in the blend's order. */
        int[] blendCounts;
    }

    /** What identifies a blend: its groups (by identity) and their usages, in the order of the groups' resources. */
    private record BlendKey(FlowGroup[] groups, double[] factors) {
        @Override
        public boolean equals(Object o) {
            if (!(o instanceof BlendKey k) || k.groups.length != groups.length) {
                return false;
            }
            for (int i = 0; i < groups.length; i++) {
                if (k.groups[i] != groups[i] || Double.compare(k.factors[i], factors[i]) != 0) {
                    return false;
                }
            }
            return true;
        }

        @Override
        public int hashCode() {
            int h = 1;
            for (int i = 0; i < groups.length; i++) {
                h = 31 * h + System.identityHashCode(groups[i]);
                h = 31 * h + Double.hashCode(factors[i]);
            }
            return h;
        }
    }

    /** Blends with at least one resource following them (looked up only, never walked: no order leaks out). */
    private final java.util.Map<BlendKey, Blend> blends = new java.util.HashMap<>();
    /** What a blend's key is, to drop it from {@link #blends} when its last resource leaves. */
    private final java.util.IdentityHashMap<Blend, BlendKey> keyOf = new java.util.IdentityHashMap<>();
    /** Smallest number of flows frozen together at one resource that forms a group; 0 turns grouping off. */
    int minMembers;
    // Scratch by Resource.number for formGroups: the call that last met the resource as a bottleneck,
    // and where its candidates are in that call's list.
    private int[] candidateMark = new int[16];
    private int[] candidateList = new int[16];
    private int candidateScans;
    // Scratch lists of formGroups, kept between calls (formGroups runs after every re-solve and calls out
    // to nothing that re-solves) and emptied at the end of each, so they hold no finished flow: three lists
    // made per call, and one more per bottleneck met, were ~5% of a 65,536-receiver fan-out's garbage.
    // candidateLists holds the lists of flows frozen at each pending resource; the first pending.size()
    // are this call's.
    // Typed as ArrayList, not List: the launcher's C1 compiler inlines ArrayList's get, size and add only
    // where they are called on the class.
    private final ArrayList<Resource> pending = new ArrayList<>();
    private final ArrayList<ArrayList<Flow>> candidateLists = new ArrayList<>();
    private final ArrayList<FlowGroup> changed = new ArrayList<>();

    FlowGroups(FlowNumbers numbers, RunningFlows running, ResourceTable resources, CompletionSchedule schedule) {
        this.numbers = numbers;
        this.running = running;
        this.resources = resources;
        this.schedule = schedule;
    }

    /** The group {@code f} is a member of, or null. */
    FlowGroup groupOf(Flow f) {
        int n = f.number;
        return n >= 0 && n < memberOf.length ? memberOf[n] : null;
    }

    /** The group {@code f} is the pseudo-flow of, or null for a flow of its own. */
    FlowGroup aggregate(Flow f) {
        int n = f.number;
        return n >= 0 && n < pseudoOf.length ? pseudoOf[n] : null;
    }

    /** What grouping keeps about {@code r}. */
    private Site site(Resource r) {
        int n = r.number;
        if (n >= sites.length) {
            sites = Arrays.copyOf(sites, Math.max(n + 1, 2 * sites.length));
        }
        Site s = sites[n];
        if (s == null) {
            s = spares > 0 ? spare[--spares] : new Site();
            sites[n] = s;
        }
        return s;
    }

    /** What grouping keeps about {@code r} if it ever kept anything, else null (makes none). */
    private Site existingSite(Resource r) {
        int n = r.number;
        return n < sites.length ? sites[n] : null;
    }

    /**
     * Forgets what grouping kept about {@code r} once nothing is left in it: a fan-out's finished
     * receivers never see a group again, and at 128k receivers their sites were ~37 MB. A site read
     * as absent means the same as an empty one everywhere (see {@link #existingSite} readers).
     */
    private void releaseIfEmpty(Resource r) {
        Site s = existingSite(r);
        if (s != null && s.group == null && s.lazyMember == null && s.lazyGroup == null && s.lazyCount == 0
                && s.blend == null) {
            sites[r.number] = null;
            if (spares < MAX_SPARES) {
                s.blendCounts = null;
                if (spares == spare.length) {
                    spare = Arrays.copyOf(spare, 2 * spares);
                }
                spare[spares++] = s;
            }
        }
    }

    /** The group at {@code r}, or null. */
    FlowGroup groupAt(Resource r) {
        Site s = existingSite(r);
        return s != null ? s.group : null;
    }

    /** The group {@code r} follows lazily, or null. */
    FlowGroup followedBy(Resource r) {
        Site s = existingSite(r);
        return s != null ? s.lazyGroup : null;
    }

    /** The groups whose members alone cross {@code r} when it follows their blend, else null. */
    Level[] blendedAt(Resource r) {
        Site s = existingSite(r);
        return s != null && s.blend != null ? s.blend.parts : null;
    }

    /** The one member {@code r} carries while it follows that member's group, or null. */
    Flow lazyMember(Resource r) {
        Site s = existingSite(r);
        return s != null ? s.lazyMember : null;
    }

    private static FlowGroup[] fit(FlowGroup[] table, int number) {
        return number < table.length ? table : Arrays.copyOf(table, Math.max(number + 1, 2 * table.length));
    }

    private void setMember(Flow f, FlowGroup g) {
        memberOf = fit(memberOf, f.number);
        memberOf[f.number] = g;
        f.groupLevel = g;
    }

    private void setPseudo(Flow p, FlowGroup g) {
        pseudoOf = fit(pseudoOf, p.number);
        pseudoOf[p.number] = g;
    }

    /** Starts following {@code g} on {@code q}, {@code count} of whose members (and nothing else) cross it. */
    private static void follow(Resource q, Site s, FlowGroup g, double factor, int count, double now) {
        q.follow(g, factor, now);
        s.lazyGroup = g;
        s.lazyCount = count;
    }

    /** Stops following a group on {@code q}: its load is its own again from {@code now}. */
    private static void unfollow(Resource q, Site s, double now) {
        q.unfollow(now);
        s.lazyMember = null;
        s.lazyGroup = null;
        s.lazyCount = 0;
    }

    /**
     * A flow arrives on {@code q}: a member alone there is ejected from its group, and a resource only
     * members of one group crossed goes back into the solve (with another flow there it can bind them).
     */
    void arriving(Resource q, double now) {
        Site s = existingSite(q);
        if (s == null) {
            return;
        }
        if (s.lazyMember != null) {
            eject(s.lazyMember, now);
        } else if (s.lazyGroup != null) {
            unshare(q, now);
        } else if (s.blend != null) {
            unblend(q, s, now);
        }
    }

    /** Relative distance a group keeps from any other constraint of its members; closer, it dissolves. */
    static final double GROUP_MARGIN = 1e-6;

    /**
     * Most resources a group's pseudo-flow may cross (its own plus shared ones), to bound its solve cost.
     * Resources crossed only by its members, alone or with members of other groups, leave the path at
     * the end of each formGroups (shareLazily, blend), so a path holds a handful of resources; this bound
     * only stops a path made of resources other flows also cross from growing without end. At 512 it
     * was reached by every striped fan-out past ~512 backlogged receivers, before blends existed, and
     * every later lane was solved on its own (flows per solve rose from 3 to over 1,000).
     */
    static final int MAX_GROUP_PATH = 1 << 16;

    /**
     * The groups of a solved region that no longer match what progressive filling of their members
     * would give. A group matches when its pseudo-flow is frozen at the group's own resource and clear of
     * its members' thresholds. A shared resource on its pseudo-path may be saturated: the solve reached the
     * group's resource first, so no such resource binds a member below the group's level, and one that fills
     * at that same level (a tie: a leaf's uplink exactly as wide as the source NICs behind it) gives each
     * member the rate flow-by-flow filling gives, to rounding. A group that also had to keep such resources
     * clear was dissolved at every event of a tie and its region solved flow by flow: sizing-1024-receivers'
     * direct-from-2 variant, 2,027 dissolves and 810 flows a solve, 15 s of simulate against 1 s.
     */
    List<FlowGroup> brokenGroups(RateChanges solved) {
        // Made only when a group breaks: nearly every solve has none.
        List<FlowGroup> broken = List.of();
        ArrayList<Flow> flows = solved.flows();
        for (int i = 0; i < flows.size(); i++) {
            FlowGroup g = aggregate(flows.get(i));
            if (g != null && !groupHolds(g)) {
                if (broken.isEmpty()) {
                    broken = new ArrayList<>();
                }
                broken.add(g);
            }
        }
        return broken;
    }

    private static boolean groupHolds(FlowGroup g) {
        Flow p = g.pseudo;
        return p.bottleneck == g.at && !p.cappedByItself && p.rate < p.rateCap * (1 - GROUP_MARGIN);
    }

    void dissolve(List<FlowGroup> broken, double now) {
        for (FlowGroup g : broken) {
            // Members go back on their own at the group's old level; the caller re-solves them.
            while (!g.byTag.isEmpty()) {
                Flow m = g.firstByTag();
                leave(m, now, true);
            }
        }
    }

    /**
     * Takes a member out of its group at its current rate and puts it back in its resources' lists,
     * because a flow is arriving on a resource it crossed alone. Nothing is scheduled here: the arrival's
     * re-solve starts at that resource, so it takes the member (whose completion was cancelled when it
     * joined) and, through the saturated group resource the member crosses, the group's pseudo-flow.
     */
    void eject(Flow m, double now) {
        leave(m, now, true);
    }

    /**
     * Removes a member from its group. Its bytes and rate become its own again as of {@code now} (read
     * from the group's virtual time at {@code now}, which needs no advance while the level is unchanged). With {@code reattach} it re-enters its resources' lists;
     * otherwise it is finishing. A group left empty is removed.
     */
    void leave(Flow m, double now, boolean reattach) {
        FlowGroup g = memberOf[m.number];
        Flow p = g.pseudo;
        double level = g.level();
        g.remove(m);
        m.remaining = Math.max(0.0, m.weight() * (m.tag - g.virtualTimeAt(now)));
        m.rate = m.weight() * level;
        m.lastSettled = now;
        m.creditGrouped(m.remainingAtJoin - m.remaining, now - m.joinedAt);
        Resource[] path = m.pathArray();
        for (int i = 0, ends = m.pathLength(); i < ends; i++) {
            Resource q = path[i];
            // Read without making one: a site exists for every resource grouping ever kept something
            // about, and most resources a member crosses are only on the pseudo-path (or are its group's).
            Site s = existingSite(q);
            if (s == null) {
                leavePseudoPath(m, g, q, i);
                continue;
            }
            if (s.blend != null) {
                // Back on its groups' pseudo-paths; m then leaves its own below.
                unblend(q, s, now);
            }
            if (s.lazyMember == m) {
                unfollow(q, s, now);
                continue;
            }
            if (s.lazyGroup == g) {
                g.removeShared(q);
                if (--s.lazyCount == 0) {
                    unfollow(q, s, now);
                } else {
                    q.refactor(q.lazyFactor() - m.weight() * m.usage(i), now);
                    g.addShared(q);
                    if (reattach) {
                        // m runs on its own on q again: q is no longer crossed by members only. Back on the
                        // pseudo-path q carries the other members' share; m's own share, at the rate it keeps,
                        // is q's load too (no re-solve need touch q, as no rate changes here).
                        unshare(q, now);
                        q.setLoad(now, q.load() + level * m.weight() * m.usage(i));
                    }
                }
                continue;
            }
            leavePseudoPath(m, g, q, i);
        }
        for (int i = 0, n = m.pathLength(); i < n; i++) {
            releaseIfEmpty(path[i]);
        }
        memberOf[m.number] = null;
        m.groupLevel = null;
        if (reattach) {
            running.attach(m);
        }
        if (g.byTag.isEmpty()) {
            running.detach(p);
            pseudoOf[p.number] = null;
            numbers.release(p);
            site(g.at).group = null;
            releaseIfEmpty(g.at);
            if (p.completion != null) {
                p.completion.cancel();
            }
            p.rate = 0;
        } else {
            p.rateCap = g.cap();
        }
    }

    /** Takes member {@code m}'s usage of {@code q}, the {@code i}-th resource of its path, off its group's pseudo-path. */
    private void leavePseudoPath(Flow m, FlowGroup g, Resource q, int i) {
        int k = g.indexOf(q);
        g.pseudo.usageInternal()[k] -= m.weight() * m.usage(i);
        if (--g.crossing[k] == 0 && k > 0) {
            removeFromPseudoPath(g, k);
        }
    }

    /** Puts a resource followed lazily by several members back on its group's pseudo-path. */
    void unshare(Resource q, double now) {
        Site s = site(q);
        FlowGroup g = s.lazyGroup;
        g.removeShared(q);
        double factor = q.lazyFactor();
        int count = s.lazyCount;
        unfollow(q, s, now);
        addToPseudoPath(g, q, factor, count);
        g.pseudo.rateCap = g.cap();
    }

    /**
     * Takes off a group's pseudo-path the resources crossed by its members and by nothing else (a
     * striped receiver's lanes on its GPU link): they follow the group lazily and enter its cap, so the
     * pseudo-flow stays a handful of resources however many receivers the group serves.
     */
    void shareLazily(FlowGroup g, double now) {
        Flow p = g.pseudo;
        for (int k = p.pathLength() - 1; k > 0; k--) {
            Resource q = p.pathArray()[k];
            double factor = p.usageInternal()[k];
            if (resources.crossing(q).size() > 1) {
                blend(q, now);
                continue;
            }
            if (resources.crossing(q).size() != 1 || q.watched || q.follows() || !(g.level() < q.capacity() / factor * (1 - GROUP_MARGIN))) {
                continue;
            }
            int count = g.crossing[k];
            removeFromPseudoPath(g, k);
            follow(q, site(q), g, factor, count, now);
            g.addShared(q);
        }
        p.rateCap = g.cap();
    }

    /**
     * Takes {@code q} off the pseudo-paths crossing it when only pseudo-flows of groups cross it (the
     * lanes of one striped receiver, each in the group of its source NIC, on the receiver's memory): it
     * follows the {@link Blend} of those groups, whose budgets keep it from filling.
     */
    private void blend(Resource q, double now) {
        Crossing on = resources.crossing(q);
        if (q.watched || q.follows()) {
            return;
        }
        int n = on.size();
        FlowGroup[] parts = new FlowGroup[n];
        for (int j = 0; j < n; j++) {
            parts[j] = aggregate(on.flow(j));
            if (parts[j] == null) {
                return;
            }
        }
        Arrays.sort(parts, (a, b) -> Integer.compare(a.at.index(), b.at.index()));
        double[] factors = new double[n];
        int[] counts = new int[n];
        double load = 0;
        for (int j = 0; j < n; j++) {
            int k = parts[j].indexOf(q);
            factors[j] = parts[j].pseudo.usageInternal()[k];
            counts[j] = parts[j].crossing[k];
            load += factors[j] * parts[j].level();
        }
        if (!(load < q.capacity() * (1 - GROUP_MARGIN))) {
            return;
        }
        BlendKey key = new BlendKey(parts, factors);
        Blend b = blends.get(key);
        if (b == null) {
            b = new Blend(parts, factors);
            blends.put(key, b);
            keyOf.put(b, key);
            for (FlowGroup g : parts) {
                g.joinBlend(b);
            }
        }
        for (FlowGroup g : parts) {
            removeFromPseudoPath(g, g.indexOf(q));
        }
        Site s = site(q);
        q.follow(b, 1.0, now);
        s.blend = b;
        s.blendCounts = counts;
        b.add(q);
        recap(b);
    }

    /** Puts a resource following a blend back on the pseudo-paths of the blend's groups. */
    private void unblend(Resource q, Site s, double now) {
        Blend b = s.blend;
        int[] counts = s.blendCounts;
        q.unfollow(now);
        s.blend = null;
        s.blendCounts = null;
        if (b.remove(q)) {
            blends.remove(keyOf.remove(b));
            for (Level part : b.parts) {
                ((FlowGroup) part).leaveBlend(b);
            }
        }
        for (int j = 0; j < b.parts.length; j++) {
            FlowGroup g = (FlowGroup) b.parts[j];
            addToPseudoPath(g, q, b.factors[j], counts[j]);
        }
        recap(b);
    }

    /** The caps of a blend's groups after its budgets changed. */
    private static void recap(Blend b) {
        for (Level part : b.parts) {
            FlowGroup g = (FlowGroup) part;
            g.pseudo.rateCap = g.cap();
        }
    }

    /** The level of group {@code g} changed in a solve: its history and its blends' record it. */
    void levelChanged(FlowGroup g) {
        g.recordLevel();
        for (int i = 0; i < g.blends.size(); i++) {
            Blend b = g.blends.get(i);
            b.recordLevel();
            recap(b);
        }
    }

    /**
     * Takes the {@code k}-th resource off a group's pseudo-path; the last resource of the path takes its
     * place. A pseudo-path's order means nothing (index 0, the group's own resource, never leaves), and
     * moving one entry keeps this constant work but for the copy: shifting the tail, with every later
     * resource's crossing and index updated, made the lazy sharing of a refit's long pseudo-paths
     * quadratic in their length (three fifths of a 32,768-transfer list's run).
     */
    private void removeFromPseudoPath(FlowGroup g, int k) {
        Flow p = g.pseudo;
        Resource q = p.pathArray()[k];
        resources.leave(q, p.slotInResource[k]);
        int last = p.pathLength() - 1;
        p.removeFromPath(k);
        if (k != last) {
            g.crossing[k] = g.crossing[last];
            resources.crossing(p.pathArray()[k]).moved(p.slotInResource[k], k);
        }
        g.removed(q, k);
    }

    private void addToPseudoPath(FlowGroup g, Resource q, double usage, int crossing) {
        Flow p = g.pseudo;
        int n = p.appendToPath(q, usage);
        if (g.crossing.length <= n) {
            g.crossing = Arrays.copyOf(g.crossing, 2 * (n + 1));
        }
        g.crossing[n] = crossing;
        resources.enter(q, p, n);
        g.appended(q);
    }

    /**
     * After a solve: flows frozen at a resource (not by their own cap) join the group there, or form
     * one when at least {@link #minMembers} of them are. Rates and loads do not change, only bookkeeping.
     */
    void formGroups(ArrayList<Flow> flows, double now) {
        int mark = ++candidateScans;
        if (candidateMark.length < resources.count()) {
            int c = Math.max(resources.count(), 2 * candidateMark.length);
            candidateMark = Arrays.copyOf(candidateMark, c);
            candidateList = Arrays.copyOf(candidateList, c);
        }
        pending.clear();
        changed.clear();
        for (int i = 0; i < flows.size(); i++) {
            Flow f = flows.get(i);
            if (f.isFinished() || aggregate(f) != null || groupOf(f) != null || !(f.rate > 0) || f.cappedByItself
                    || f.bottleneck == null) {
                continue;
            }
            Resource r = f.bottleneck;
            FlowGroup at = groupAt(r);
            if (at != null) {
                if (f.rate == f.weight() * at.level() && join(f, at, now) && !changed.contains(at)) {
                    changed.add(at);
                }
            } else {
                if (candidateMark[r.number] != mark) {
                    candidateMark[r.number] = mark;
                    candidateList[r.number] = pending.size();
                    if (pending.size() == candidateLists.size()) {
                        candidateLists.add(new ArrayList<>());
                    } else {
                        candidateLists.get(pending.size()).clear();
                    }
                    pending.add(r);
                }
                candidateLists.get(candidateList[r.number]).add(f);
            }
        }
        for (int at = 0; at < pending.size(); at++) {
            Resource r = pending.get(at);
            ArrayList<Flow> c = candidateLists.get(at);
            if (c.size() < minMembers) {
                continue;
            }
            double level = c.get(0).rate / c.get(0).weight();
            Flow p = new Flow(-1 - r.index(), () -> "group@" + r.name(), new Resource[] {r}, new double[] {0.0}, 1.0,
                    Double.POSITIVE_INFINITY, 0, now);
            p.rate = level;
            p.bottleneck = r;
            FlowGroup g = new FlowGroup(r, p, now);
            numbers.assign(p);
            setPseudo(p, g);
            running.attach(p);
            Site site = site(r);
            site.group = g;
            for (int i = 0; i < c.size(); i++) {
                Flow f = c.get(i);
                if (f.rate == f.weight() * level) {
                    join(f, g, now);
                }
            }
            if (g.byTag.isEmpty()) {
                running.detach(p);
                pseudoOf[p.number] = null;
                numbers.release(p);
                site.group = null;
            } else {
                changed.add(g);
            }
        }
        // Walked by index: an iterator per call (every re-solve) is garbage the C1 compiler keeps.
        for (int i = 0; i < changed.size(); i++) {
            FlowGroup g = changed.get(i);
            shareLazily(g, now);
            schedule.scheduleGroup(g, now);
        }
        for (int at = 0; at < pending.size(); at++) {
            candidateLists.get(at).clear();
        }
        pending.clear();
        changed.clear();
    }

    /** Moves {@code f} (frozen at {@code g.at} at the group's level in this solve) into {@code g}, if it qualifies. */
    boolean join(Flow f, FlowGroup g, double now) {
        Resource[] path = f.pathArray();
        int length = f.pathLength();
        double level = g.level();
        double threshold = f.rateCap() / f.weight();
        int added = 0;
        for (int i = 0; i < length; i++) {
            Resource q = path[i];
            if (q == g.at || g.indexOf(q) >= 0) {
                continue;
            }
            if (q.follows()) {
                // A lazily followed resource carries members of its group only: a flow arriving there
                // ends that first (FluidNetwork#start), and f is no member.
                throw new IllegalStateException(f.label() + " crosses " + q.name() + ", followed lazily by a group");
            }
            if (resources.crossing(q).size() == 1 && !q.watched) {
                threshold = Math.min(threshold, q.capacity() / (f.weight() * f.usage(i)));
            } else {
                added++;
            }
        }
        if (!(level < threshold * (1 - GROUP_MARGIN)) || g.pseudo.pathLength() + added > MAX_GROUP_PATH) {
            return false;
        }
        // f and the pseudo-flow are region flows of the solve that froze f: both are settled at now.
        running.detach(f);
        // Out of every crossing while a member: its slots are made again if it leaves on its own (attach).
        f.slotInResource = null;
        if (f.completion != null) {
            // Dropped, not kept cancelled: a member spends most of its life in its group, and its dead
            // event (two objects) lived as long, promoted with it by every young collection. Should it
            // run on its own again, its next solve schedules a new one, as moving a cancelled one did.
            f.completion.cancel();
            f.completion = null;
        }
        setMember(f, g);
        f.tag = g.virtualTimeAt(now) + f.remaining / f.weight();
        f.threshold = threshold;
        f.remainingAtJoin = f.remaining;
        f.joinedAt = now;
        for (int i = 0; i < length; i++) {
            Resource q = path[i];
            double share = f.weight() * f.usage(i);
            int k = g.indexOf(q);
            if (k >= 0) {
                g.pseudo.usageInternal()[k] += share;
                g.crossing[k]++;
            } else if (resources.crossing(q).isEmpty() && !q.watched) {
                // f was alone here: the resource follows the group instead of sitting in the solve.
                Site s = site(q);
                follow(q, s, g, share, 1, now);
                s.lazyMember = f;
            } else {
                addToPseudoPath(g, q, share, 1);
            }
        }
        g.add(f);
        g.pseudo.rateCap = g.cap();
        return true;
    }
}
