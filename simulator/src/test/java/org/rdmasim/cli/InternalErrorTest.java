package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** An exception nobody expected never reaches the terminal as a trace. */
class InternalErrorTest {
    @Test
    void anUnexpectedExceptionIsOneLineExitThreeAndItsTraceIsInAFile() throws Exception {
        StringWriter err = new StringWriter();
        int code = Main.unexpected(new IllegalStateException("boom\nsecond line"), new PrintWriter(err, true));
        assertEquals(Main.INTERNAL_ERROR, code);
        String line = err.toString().strip();
        assertEquals(1, line.lines().count(), line);
        assertTrue(line.startsWith("rdmasim: internal error (rdmasim ") && line.contains("IllegalStateException: boom;"),
                line);
        assertTrue(!line.contains("\tat "), "no trace on the terminal");
        Path file = Path.of(line.replaceAll(".*the trace is in (\\S+);.*", "$1"));
        String trace = Files.readString(file);
        assertTrue(trace.contains("java.lang.IllegalStateException: boom") && trace.contains("\tat "), trace);
        Files.delete(file);
    }

    @Test
    void runningOutOfHeapSaysSoWithWhatToChange() {
        StringWriter err = new StringWriter();
        int code = Main.unexpected(new OutOfMemoryError("Java heap space"), new PrintWriter(err, true));
        assertEquals(Main.BAD_INPUT, code);
        assertTrue(err.toString().contains("more memory than the Java heap has") && err.toString().contains("-Xmx"),
                err.toString());
    }

    @Test
    void aBrokenInvariantIsNotBlamedOnTheUser() {
        // a plain IllegalArgumentException is a check inside rdmasim failing: exit 3, not "bad input"
        assertTrue(!Main.isInputError(new IllegalArgumentException("a replication index is at least 0, got -1")));
        assertTrue(Main.isInputError(new org.rdmasim.sweep.StudyInputException("expected --shard I/N, got 'x'")));
        assertTrue(Main.isInputError(new org.rdmasim.memory.MemoryInputException("GiB value must be >= 0")));
    }

    @Test
    void aMisspelledGpuModelIsBadInputNamingTheOption() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.execute(new String[] {"memory", "va", "--gpu", "h999", "--communicators", "4"}, new PrintWriter(out, true),
                new PrintWriter(err, true));
        assertEquals(Main.BAD_INPUT, code, err.toString());
        assertTrue(err.toString().contains("--gpu") && err.toString().contains("h999"), err.toString());
    }
}
