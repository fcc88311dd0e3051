package org.rdmasim.report;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * What a report was made from: the rdmasim release, the SHA-256 of the scenario file's bytes and the
 * seed. With the three, anyone can tell whether two reports should be identical and rerun one. The scenario
 * file's name (no folder: the same on every machine), empty when not known, tells a run of another file
 * whose scenario has the same {@code name:} from a rerun of this one.
 */
public record Provenance(String rdmasimVersion, String scenarioSha256, long seed, String scenarioFile) {
    public Provenance(String rdmasimVersion, String scenarioSha256, long seed) {
        this(rdmasimVersion, scenarioSha256, seed, "");
    }

    /** SHA-256 of {@code bytes} as 64 lower-case hex digits. */
    public static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }

    public static String sha256(String text) {
        return sha256(text.getBytes(StandardCharsets.UTF_8));
    }
}
