package org.rdmasim.cli;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.ListenerNotFoundException;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * The largest heap left in use right after a garbage collection while it listens: what the run
 * really holds, as against the pools' peaks, which count garbage not yet collected (and, summed over
 * pools that peak at different moments, can exceed the maximum heap).
 */
final class LiveHeap implements AutoCloseable {
    private final AtomicLong peak = new AtomicLong();
    private final AtomicLong collections = new AtomicLong();
    private final List<NotificationEmitter> emitters = new ArrayList<>();
    private final NotificationListener listener = (n, handback) -> {
        if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(n.getType())) {
            return;
        }
        GarbageCollectionNotificationInfo info = GarbageCollectionNotificationInfo.from((CompositeData) n.getUserData());
        long used = 0;
        for (MemoryUsage u : info.getGcInfo().getMemoryUsageAfterGc().values()) {
            used += u.getUsed();
        }
        peak.accumulateAndGet(used, Math::max);
        collections.incrementAndGet();
    };

    LiveHeap() {
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (gc instanceof NotificationEmitter e) {
                e.addNotificationListener(listener, null, null);
                emitters.add(e);
            }
        }
    }

    /** Bytes in use after the fullest collection so far (0 when none ran). */
    long peakBytes() {
        return peak.get();
    }

    /** Garbage collections seen so far: none means the heap never filled, and the peak says nothing. */
    long collections() {
        return collections.get();
    }

    @Override
    public void close() {
        for (NotificationEmitter e : emitters) {
            try {
                e.removeNotificationListener(listener);
            } catch (ListenerNotFoundException ignored) {
                // already gone: nothing to undo
            }
        }
    }
}
