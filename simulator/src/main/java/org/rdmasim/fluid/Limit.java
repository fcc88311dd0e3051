package org.rdmasim.fluid;

/**
 * What a resource, or a flow's own rate cap, stands for, as the layer that built it knows it (a NIC's
 * transmit side, a leaf's uplink). The solver never looks inside: it records which limit held each
 * flow, comparing them by identity so the hot path builds no text, and hands it back. {@link #id()} is
 * the stable text tables and logs write for it; a resource's name is its limit's id.
 */
public interface Limit {
    /** A flow's own rate cap held it; the layer that set the cap knows which of its limits that was. */
    Limit OWN_CAP = new Named("flow-cap");
    /** Nothing held the flow (it moved no bytes, or was never solved). */
    Limit NONE = new Named("none");

    /** Stable text for this limit, as reports write it. */
    String id();

    /** A limit known only by its name, for networks built without a richer model (bench runs, flow problems). */
    static Limit named(String id) {
        return new Named(id);
    }

    /** A limit that is only a name. */
    record Named(String id) implements Limit {
        public Named {
            if (id == null) {
                throw new IllegalArgumentException("a limit needs a name");
            }
        }

        @Override
        public String toString() {
            return id;
        }
    }
}
