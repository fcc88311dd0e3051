package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** A command whose answer could not be written to standard output ({@code > /dev/full}) does not exit 0. */
class StdoutFailureTest {
    /** What {@code /dev/full} does to every write. */
    private static final class Full extends OutputStream {
        @Override
        public void write(int b) throws IOException {
            throw new IOException("No space left on device");
        }
    }

    @Test
    void aCommandWhoseOutputCannotBeWrittenSaysSoAndExitsNonZero() {
        // 'topo dgx-h100 > /dev/full' exited 0, having written nothing: PrintWriter keeps its IOException to itself
        for (String[] args : new String[][] {{"topo", "dgx-h100"}, {"parameters"}, {"topo", "--help"}}) {
            StringWriter err = new StringWriter();
            int code = Main.execute(args, new PrintWriter(new Full(), true), new PrintWriter(err, true));
            assertEquals(Main.BAD_INPUT, code, String.join(" ", args) + ": " + err);
            assertEquals("rdmasim: error: the output could not be written to standard output; what it holds is "
                    + "incomplete", err.toString().strip(), String.join(" ", args));
        }
    }

    @Test
    void theLauncherStreamSaysWhyTheWriteFailed() {
        Main.Stdout stdout = new Main.Stdout(new Full());
        StringWriter err = new StringWriter();
        int code = Main.execute(new String[] {"topo", "dgx-h100"}, new PrintWriter(stdout, true),
                new PrintWriter(err, true), stdout::failure);
        assertEquals(Main.BAD_INPUT, code, err.toString());
        assertEquals("rdmasim: error: the output could not be written to standard output (No space left on device); "
                + "what it holds is incomplete", err.toString().strip());
    }

    @Test
    void aReaderThatStopsEarlyEndsItQuietlyAsAShellToolWould() {
        // './rdmasim parameters | head': the pipe closes after ten lines; nothing is wrong with the answer
        Main.Stdout stdout = new Main.Stdout(new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                throw new IOException("Broken pipe");
            }
        });
        StringWriter err = new StringWriter();
        int code = Main.execute(new String[] {"parameters"}, new PrintWriter(stdout, true), new PrintWriter(err, true),
                stdout::failure);
        assertEquals(141, code, err.toString());
        assertEquals("", err.toString());
    }
}
