package org.rdmasim.report;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * What a report was made from: the rdmasim release, the SHA-256 of the scenario file's bytes and the
 * seed. With the three, anyone can tell whether two reports should be identical and rerun one. The scenario
 * file's name (no folder: the same on every machine), empty when not known, tells a run of another file
 * whose scenario has the same {@code name:} from a rerun of this one. The file's path ({@code scenarioPath},
 * null when not known) is not in summary.json, whose bytes do not depend on where the report is written: the
 * report folder's manifest records it relative to the folder, which tells a copy of the file with the same
 * name in another folder from the file itself.
 */
public record Provenance(String rdmasimVersion, String scenarioSha256, long seed, String scenarioFile,
        java.nio.file.Path scenarioPath) {
    public Provenance(String rdmasimVersion, String scenarioSha256, long seed) {
        this(rdmasimVersion, scenarioSha256, seed, "", null);
    }

    public Provenance(String rdmasimVersion, String scenarioSha256, long seed, String scenarioFile) {
        this(rdmasimVersion, scenarioSha256, seed, scenarioFile, null);
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
