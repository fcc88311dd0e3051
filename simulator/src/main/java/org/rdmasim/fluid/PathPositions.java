package org.rdmasim.fluid;

/**
 * Where each resource sits on a long group pseudo-path, by {@link Resource#number}: an open-addressed
 * table of ints (linear probing, deletion by backward shift, so no tombstones pile up as members come
 * and go). It replaced an {@code IdentityHashMap<Resource, Integer>}, whose identity hash codes, boxed
 * positions and entry arrays made the lookups 13.0% of refit-256-to-128's event-loop samples (32,768 transfers;
 * JFR, the groups' joins, leaves and blends), 7.4% after.
 */
final class PathPositions {
    /** Resource number plus one in each used slot, 0 in a free one. */
    private int[] keys = new int[64];
    private int[] positions = new int[64];
    private int size;

    /** Position of resource number {@code number}, -1 when it is not on the path. */
    int get(int number) {
        int key = number + 1;
        int mask = keys.length - 1;
        for (int i = spread(key) & mask; ; i = (i + 1) & mask) {
            int k = keys[i];
            if (k == key) {
                return positions[i];
            }
            if (k == 0) {
                return -1;
            }
        }
    }

    /** Resource number {@code number} is at {@code position} from now on. */
    void put(int number, int position) {
        int key = number + 1;
        int mask = keys.length - 1;
        int i = spread(key) & mask;
        while (keys[i] != 0 && keys[i] != key) {
            i = (i + 1) & mask;
        }
        if (keys[i] == 0) {
            keys[i] = key;
            size++;
        }
        positions[i] = position;
        if (2 * size > keys.length) {
            grow();
        }
    }

    /** Resource number {@code number} left the path. */
    void remove(int number) {
        int key = number + 1;
        int mask = keys.length - 1;
        int i = spread(key) & mask;
        while (keys[i] != key) {
            if (keys[i] == 0) {
                return;
            }
            i = (i + 1) & mask;
        }
        size--;
        // Backward shift: move up each later entry of the run whose home slot is not after the hole.
        int hole = i;
        for (int j = (hole + 1) & mask; keys[j] != 0; j = (j + 1) & mask) {
            int home = spread(keys[j]) & mask;
            if (((j - home) & mask) >= ((j - hole) & mask)) {
                keys[hole] = keys[j];
                positions[hole] = positions[j];
                hole = j;
            }
        }
        keys[hole] = 0;
    }

    private void grow() {
        int[] oldKeys = keys;
        int[] oldPositions = positions;
        keys = new int[2 * oldKeys.length];
        positions = new int[2 * oldKeys.length];
        int mask = keys.length - 1;
        for (int s = 0; s < oldKeys.length; s++) {
            int key = oldKeys[s];
            if (key != 0) {
                int i = spread(key) & mask;
                while (keys[i] != 0) {
                    i = (i + 1) & mask;
                }
                keys[i] = key;
                positions[i] = oldPositions[s];
            }
        }
    }

    /** Resource numbers are dense and a path's run of them often consecutive: mixed so runs do not cluster. */
    private static int spread(int key) {
        int h = key * 0x9E3779B9;
        return h ^ (h >>> 16);
    }
}
