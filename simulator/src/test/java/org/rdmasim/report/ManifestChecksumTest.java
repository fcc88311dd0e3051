package org.rdmasim.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The manifest tells a file rdmasim wrote, unchanged, from one the user edited: by a checksum of its bytes
 * (CRC-32C and CRC-32), or by the SHA-256 a folder of an earlier release recorded.
 */
class ManifestChecksumTest {
    @TempDir
    Path dir;

    @Test
    void aFileIsOwnedWhileItsChecksumMatchesAndNotOnceOneByteChanges() throws IOException {
        Files.writeString(dir.resolve("transfers.csv"), "id,bytes\nt0,1000\n");
        ReportFolder.recordWritten(dir, List.of("transfers.csv"));
        String manifest = Files.readString(dir.resolve(ReportFolder.MANIFEST));
        assertTrue(manifest.matches("(?s).*\\n[0-9a-f]{16}  transfers\\.csv\\n"), manifest);
        assertTrue(ReportFolder.ownedEntries(dir, Set.of()).contains("transfers.csv"));

        // an edit that keeps the size: one digit changed
        Files.writeString(dir.resolve("transfers.csv"), "id,bytes\nt0,1001\n");
        assertFalse(ReportFolder.ownedEntries(dir, Set.of()).contains("transfers.csv"), "an edited file is the user's");
        assertEquals(List.of("transfers.csv"), ReportFolder.foreignEntries(dir, Set.of()));
    }

    @Test
    void aManifestOfAnEarlierReleaseIsReadByItsSha256() throws IOException, NoSuchAlgorithmException {
        byte[] bytes = "id,bytes\nt0,1000\n".getBytes(StandardCharsets.UTF_8);
        Files.write(dir.resolve("transfers.csv"), bytes);
        String sha = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        Files.writeString(dir.resolve(ReportFolder.MANIFEST), "written by rdmasim; safe to replace\n"
                + "# The files rdmasim wrote here, with their SHA-256.\n" + sha + "  transfers.csv\n");
        assertTrue(ReportFolder.ownedEntries(dir, Set.of()).contains("transfers.csv"));
        Files.writeString(dir.resolve("transfers.csv"), "id,bytes\nt0,1001\n");
        assertFalse(ReportFolder.ownedEntries(dir, Set.of()).contains("transfers.csv"));
    }

    @Test
    void theChecksumIsTheTwoCrcsOfTheBytes() throws IOException {
        Path f = Files.writeString(dir.resolve("a.txt"), "123456789");
        // the CRC-32C and CRC-32 check values of "123456789" (the catalogue's test vector)
        assertEquals("e3069283cbf43926", ReportFolder.checksum(f));
    }
}
