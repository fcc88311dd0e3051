package org.rdmasim.fluid;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * The resources of one {@link FluidNetwork} by index, and which kinds an observer watches. An index may
 * be reserved ahead and its resource built on first use (see {@link FluidNetwork#reserve}), so a
 * cluster of 100k hosts does not hold the ~30 links of every host when a fan-out crosses a dozen of
 * them; reserved-but-unbuilt indices are null. It also keeps, by {@link Resource#number}, the
 * {@link Crossing} of each resource: the flows crossing it, which the resource itself does not know.
 */
final class ResourceTable {
    private Resource[] byIndex = new Resource[16];
    private int indices;
    private int built;
    // A resource's crossing exists only while flows cross it: most resources of a large run (a finished
    // receiver's NICs and links) carry nothing for most of it, and one crossing kept per resource to the
    // end was ~900,000 objects at 131,072 receivers, each copied by a young collection. Emptied crossings
    // wait in {@code spare} for the next resource a flow enters, so they are not made again and again.
    private Crossing[] crossings = new Crossing[16];
    private Crossing[] spare = new Crossing[16];
    private int spares;
    private final Set<ResourceKind> watchedKinds = EnumSet.noneOf(ResourceKind.class);

    /** Reserves {@code count} consecutive indices; returns the first. */
    int reserve(int count) {
        if (count < 0) {
            throw new IllegalArgumentException("cannot reserve " + count + " resources");
        }
        int first = indices;
        indices = Math.addExact(indices, count);
        if (indices > byIndex.length) {
            byIndex = Arrays.copyOf(byIndex, Math.max(indices, 2 * byIndex.length));
        }
        return first;
    }

    /** Builds the resource at a reserved index; it is watched when an observer watches its kind. */
    Resource build(int index, Limit limit, ResourceKind kind, double capacityBytesPerSecond) {
        if (index < 0 || index >= indices) {
            throw new IllegalArgumentException("index " + index + " is not reserved (reserved: 0 to " + (indices - 1) + ")");
        }
        if (byIndex[index] != null) {
            throw new IllegalArgumentException("index " + index + " already holds " + byIndex[index]);
        }
        Resource r = new Resource(index, built, limit, kind, capacityBytesPerSecond);
        r.watched = watchedKinds.contains(kind);
        byIndex[index] = r;
        if (built == crossings.length) {
            crossings = Arrays.copyOf(crossings, 2 * built);
        }
        built++;
        return r;
    }

    /** The resource built at {@code index}, or null when that reserved index was never built. */
    Resource at(int index) {
        return byIndex[index];
    }

    /** The flows crossing {@code r}, a resource of this table (read only: flows enter and leave by {@link #enter}, {@link #leave}). */
    Crossing crossing(Resource r) {
        Crossing c = crossings[r.number];
        return c != null ? c : Crossing.EMPTY;
    }

    /** Puts {@code f}, on whose path {@code r} is at {@code i}, in the crossing of {@code r}. */
    void enter(Resource r, Flow f, int i) {
        Crossing c = crossings[r.number];
        if (c == null) {
            c = spares > 0 ? spare[--spares] : new Crossing();
            spare[spares] = null;
            crossings[r.number] = c;
        }
        c.add(f, i);
    }

    /** Takes the flow in {@code slot} out of the crossing of {@code r}; an emptied crossing is kept for reuse. */
    void leave(Resource r, int slot) {
        Crossing c = crossings[r.number];
        c.remove(slot);
        if (c.isEmpty()) {
            crossings[r.number] = null;
            if (spares == spare.length) {
                spare = Arrays.copyOf(spare, 2 * spares);
            }
            spare[spares++] = c;
        }
    }

    /** Every built resource, in index order. */
    List<Resource> all() {
        List<Resource> out = new ArrayList<>(built);
        for (int i = 0; i < indices; i++) {
            if (byIndex[i] != null) {
                out.add(byIndex[i]);
            }
        }
        return Collections.unmodifiableList(out);
    }

    /** Resources built so far: one more than the largest {@link Resource#number}. */
    int count() {
        return built;
    }

    /** One more than the largest index reserved so far. */
    int indexLimit() {
        return indices;
    }

    /** Marks resources of these kinds, built and to be built, as watched by an observer. */
    void watch(Set<ResourceKind> kinds) {
        watchedKinds.addAll(kinds);
        for (Resource r : all()) {
            if (kinds.contains(r.kind())) {
                if (r.follows()) {
                    throw new IllegalStateException("observers must be added before flows start");
                }
                r.watched = true;
            }
        }
    }
}
