package org.rdmasim.hardware;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/**
 * Hosts by name: all a lane choice or a registration needs to see of a cluster. A {@link Cluster} is
 * one; reading a scenario or explaining it needs no fluid network, so it looks hosts up through
 * {@link #of} instead of building a cluster to throw away.
 */
@FunctionalInterface
public interface Hosts {
    /** The host named {@code name}; an IllegalArgumentException when there is none. */
    Host host(String name);

    static Hosts of(Collection<Host> hosts) {
        Map<String, Host> byName = new HashMap<>();
        for (Host h : hosts) {
            byName.put(h.name(), h);
        }
        return name -> {
            Host h = byName.get(name);
            if (h == null) {
                throw new IllegalArgumentException("no host named " + name);
            }
            return h;
        };
    }
}
