package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher's build step passes Maven's messages on without terminal codes: Maven 3.8 under
 * {@code -B -q} writes ESC[0m resets on both streams, which a log or a non-terminal shows as
 * {@code [0m[0m}. A stand-in {@code mvn} on the PATH writes them as Maven does.
 */
class LauncherBuildOutputTest {
    @TempDir
    Path home;

    private String launch(String mvnExit) throws Exception {
        Files.copy(CliTestSupport.repo().resolve("rdmasim"), home.resolve("rdmasim"), StandardCopyOption.COPY_ATTRIBUTES);
        Files.writeString(home.resolve("pom.xml"), "<project/>");
        Files.createDirectories(home.resolve("simulator/src/main"));
        Files.writeString(home.resolve("simulator/pom.xml"), "<project/>");
        Path bin = Files.createDirectories(home.resolve("bin"));
        Path mvn = bin.resolve("mvn");
        Files.writeString(mvn, "#!/usr/bin/env bash\nprintf '\\033[0m\\033[0m'\nprintf '\\033[0m[WARNING] a warning\\033[0m\\n' >&2\n"
                + "exit " + mvnExit + "\n");
        Files.setPosixFilePermissions(mvn, PosixFilePermissions.fromString("rwxr-xr-x"));
        ProcessBuilder pb = new ProcessBuilder("bash", home.resolve("rdmasim").toString(), "--version");
        pb.environment().put("PATH", bin + ":" + System.getenv("PATH"));
        pb.redirectOutput(ProcessBuilder.Redirect.DISCARD);
        Process p = pb.start();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        int code = p.waitFor();
        if (!mvnExit.equals("0")) {
            assertEquals(3, code, err);
        }
        return err;
    }

    @Test
    void aFailedBuildShowsMavensMessagesWithoutEscapeCodes() throws Exception {
        String err = launch("1");
        assertTrue(err.contains("[WARNING] a warning") && err.contains("rdmasim: build failed"), err);
        assertFalse(err.contains("\u001b"), "no terminal codes: " + err.replace("\u001b", "ESC"));
    }

    @Test
    void aBuildThatSucceedsPrintsNoEscapeCodes() throws Exception {
        String err = launch("0");
        // the stand-in builds no jar, so java then fails on its own: only the build's part is asserted
        assertTrue(err.contains("[WARNING] a warning"), err);
        assertFalse(err.contains("\u001b"), "no terminal codes: " + err.replace("\u001b", "ESC"));
    }
}
