package org.rdmasim.engine;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.ListIterator;
import umontreal.ssj.simevents.Event;
import umontreal.ssj.simevents.eventlist.EventList;

/**
 * An SSJ event list kept as an array-backed binary heap ordered by time, then SSJ priority, then
 * insertion order (so events at the same instant fire first-in, first-out, as with SSJ's Henriksen
 * list). Each event remembers its slot, so cancelling or moving one is O(log n).
 *
 * <p>Why not Henriksen: SSJ's Henriksen list finds an event to remove by walking its list, and fluid
 * flows move their completion event on every rate change. Measured with {@code rdmasim bench}:
 * with 100,000 pending events the Henriksen list ran the hold model 4.2x slower than a bare
 * {@code java.util.PriorityQueue}, and its removals took ~30% of a 16,384-receiver fan-out.
 *
 * <p>Only {@link SimulationClock.ScheduledAction}s are accepted: they carry the slot and sequence.
 */
final class HeapEventList implements EventList {
    private SimulationClock.ScheduledAction[] heap = new SimulationClock.ScheduledAction[64];
    private int size;
    /** The most events held at once. */
    private int peakSize;
    /** Events taken off the front, and the list's size summed over those takes (the event taken included). */
    private long firsts;
    private long sizeAtFirsts;
    private long sequence;

    @Override
    public boolean isEmpty() {
        return size == 0;
    }

    @Override
    public void clear() {
        for (int i = 0; i < size; i++) {
            heap[i].slot = -1;
            heap[i] = null;
        }
        size = 0;
    }

    @Override
    public void add(Event ev) {
        SimulationClock.ScheduledAction e = own(ev);
        e.sequence = sequence++;
        insert(e);
    }

    int peakSize() {
        return peakSize;
    }

    /**
     * Events taken off the front so far, and the list's size at each take summed (the event taken counted):
     * their quotient is the mean size the run's pops worked on; a bare hold-model loop at {@code bench
     * --pending P} keeps it at P.
     */
    long firsts() {
        return firsts;
    }

    long sizeAtFirsts() {
        return sizeAtFirsts;
    }

    /**
     * Takes {@code count} sequence numbers now for events put on the list later ({@link #addReserved}):
     * they keep the place in the order of one instant that adding them now would have given them.
     * Returns the first.
     */
    long reserve(int count) {
        long first = sequence;
        sequence += count;
        return first;
    }

    /** Adds {@code e} with a sequence number {@link #reserve} took earlier. */
    void addReserved(SimulationClock.ScheduledAction e, long reservedSequence) {
        e.sequence = reservedSequence;
        insert(e);
    }

    @Override
    public void addFirst(Event ev) {
        SimulationClock.ScheduledAction e = own(ev);
        // Before every event already at this instant: the smallest sequence number yet.
        e.sequence = Long.MIN_VALUE + sequence++;
        insert(e);
    }

    @Override
    public void addBefore(Event ev, Event other) {
        throw new UnsupportedOperationException("rdmasim schedules by time only");
    }

    @Override
    public void addAfter(Event ev, Event other) {
        throw new UnsupportedOperationException("rdmasim schedules by time only");
    }

    @Override
    public Event getFirst() {
        return size == 0 ? null : heap[0];
    }

    @Override
    public Event getFirstOfClass(String className) {
        Event best = null;
        for (Event e : sorted()) {
            if (e.getClass().getName().equals(className)) {
                best = e;
                break;
            }
        }
        return best;
    }

    @Override
    public <E extends Event> E getFirstOfClass(Class<E> type) {
        for (Event e : sorted()) {
            if (type.isInstance(e)) {
                return type.cast(e);
            }
        }
        return null;
    }

    @Override
    public ListIterator<Event> listIterator() {
        return sorted().listIterator();
    }

    @Override
    public java.util.Iterator<Event> iterator() {
        return listIterator();
    }

    /**
     * Re-files {@code e}, already in this heap, after its time was changed in place: it takes a new
     * sequence number, as a removal followed by {@link #add} would give it, and moves up or down from
     * its slot. The key order is total (sequence numbers are unique), so events fire in the same order
     * as with remove-then-add, at one sift instead of two.
     */
    void moved(SimulationClock.ScheduledAction e) {
        if (e.slot < 0 || e.slot >= size || heap[e.slot] != e) {
            throw new IllegalStateException("event is not in this list");
        }
        e.sequence = sequence++;
        if (!siftUp(e.slot)) {
            siftDown(e.slot);
        }
    }

    @Override
    public boolean remove(Event ev) {
        if (!(ev instanceof SimulationClock.ScheduledAction e) || e.slot < 0 || e.slot >= size || heap[e.slot] != e) {
            return false;
        }
        int at = e.slot;
        e.slot = -1;
        size--;
        if (at != size) {
            SimulationClock.ScheduledAction last = heap[size];
            heap[size] = null;
            place(last, at);
            if (!siftUp(at)) {
                siftDown(at);
            }
        } else {
            heap[size] = null;
        }
        return true;
    }

    @Override
    public Event removeFirst() {
        if (size == 0) {
            return null;
        }
        SimulationClock.ScheduledAction first = heap[0];
        firsts++;
        sizeAtFirsts += size;
        remove(first);
        return first;
    }

    private static SimulationClock.ScheduledAction own(Event ev) {
        if (!(ev instanceof SimulationClock.ScheduledAction e)) {
            throw new IllegalArgumentException("events must be scheduled through SimulationClock");
        }
        return e;
    }

    private void insert(SimulationClock.ScheduledAction e) {
        if (size == heap.length) {
            heap = Arrays.copyOf(heap, size * 2);
        }
        place(e, size++);
        if (size > peakSize) {
            peakSize = size;
        }
        siftUp(e.slot);
    }

    private void place(SimulationClock.ScheduledAction e, int at) {
        heap[at] = e;
        e.slot = at;
    }

    private static boolean before(SimulationClock.ScheduledAction a, SimulationClock.ScheduledAction b) {
        double ta = a.time();
        double tb = b.time();
        if (ta != tb) {
            return ta < tb;
        }
        if (a.priority() != b.priority()) {
            return a.priority() < b.priority();
        }
        return a.sequence < b.sequence;
    }

    private boolean siftUp(int at) {
        SimulationClock.ScheduledAction e = heap[at];
        int start = at;
        while (at > 0) {
            int parent = (at - 1) >>> 1;
            if (!before(e, heap[parent])) {
                break;
            }
            place(heap[parent], at);
            at = parent;
        }
        place(e, at);
        return at != start;
    }

    private void siftDown(int at) {
        SimulationClock.ScheduledAction e = heap[at];
        while (true) {
            int child = 2 * at + 1;
            if (child >= size) {
                break;
            }
            if (child + 1 < size && before(heap[child + 1], heap[child])) {
                child++;
            }
            if (!before(heap[child], e)) {
                break;
            }
            place(heap[child], at);
            at = child;
        }
        place(e, at);
    }

    private List<Event> sorted() {
        List<Event> all = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            all.add(heap[i]);
        }
        all.sort(Comparator.comparingDouble(Event::time).thenComparingDouble(Event::priority)
                .thenComparingLong(e -> ((SimulationClock.ScheduledAction) e).sequence));
        return all;
    }
}
