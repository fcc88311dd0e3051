package org.rdmasim.engine;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import umontreal.ssj.rng.MRG32k3a;
import umontreal.ssj.rng.RandomStream;

/**
 * Named, seeded random streams. A stream's seed depends only on the scenario seed, the replication
 * index and the stream's name, so adding a stream or running replications on other threads never
 * changes the numbers another stream draws (SSJ's default constructor advances a global package seed,
 * which would make results depend on creation order).
 */
public final class RandomStreams {
    // MRG32k3a seed bounds (L'Ecuyer 1999): first three values < m1, last three < m2, not all zero.
    private static final long M1 = 4294967087L;
    private static final long M2 = 4294944443L;

    private final long seed;
    private final int replication;

    public RandomStreams(long seed, int replication) {
        this.seed = seed;
        this.replication = replication;
    }

    public long seed() {
        return seed;
    }

    public int replication() {
        return replication;
    }

    /** A fresh stream for {@code name}; the same name always yields the same sequence. */
    public RandomStream stream(String name) {
        byte[] digest = digest(seed + "/" + replication + "/" + name);
        long[] state = new long[6];
        for (int i = 0; i < 6; i++) {
            long v = 0;
            for (int b = 0; b < 4; b++) {
                v = (v << 8) | (digest[i * 4 + b] & 0xFF);
            }
            long modulus = i < 3 ? M1 : M2;
            state[i] = 1 + Math.floorMod(v, modulus - 1);
        }
        MRG32k3a stream = new MRG32k3a(name);
        stream.setSeed(state);
        return stream;
    }

    private static byte[] digest(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by the Java platform", e);
        }
    }
}
