package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * Options written before the command they belong to: refused (exit 2, nothing run, nothing written) with the
 * line they meant, the options moved after the command, where the refusal listed the commands or, for
 * {@code -q}, asked "did you mean '-h'?".
 */
class OptionBeforeCommandTest {
    @Test
    void anOptionBeforeTheCommandIsShownAfterIt() {
        var o = CliTestSupport.run("--out", "my reports", "run", "s.yaml");
        assertEquals(2, o.code(), o.err());
        assertEquals("", o.out());
        assertTrue(o.err().contains("rdmasim: options go after the command they belong to: rdmasim run s.yaml --out "
                + "'my reports'"), o.err());
        assertFalse(o.err().contains("Exception"), o.err());
    }

    @Test
    void quietBeforeTheCommandIsNotTakenForHelp() {
        var o = CliTestSupport.run("-q", "validate", "--row", "MX-449-PIN");
        assertEquals(2, o.code(), o.err());
        assertTrue(o.err().contains("rdmasim validate --row MX-449-PIN -q"), o.err());
        assertFalse(o.err().contains("did you mean '-h'"), o.err());
    }

    @Test
    void aSubcommandsOptionsMoveAfterItsWholeName() {
        var o = CliTestSupport.run("--json", "memory", "va", "--gpu", "h100", "--communicators", "4");
        assertEquals(2, o.code(), o.err());
        assertTrue(o.err().contains("rdmasim memory va --gpu h100 --communicators 4 --json"), o.err());
    }

    @Test
    void anUnknownOptionWithNoCommandStillListsTheCommands() {
        var o = CliTestSupport.run("--bogus");
        assertEquals(2, o.code(), o.err());
        assertFalse(o.err().contains("options go after"), o.err());
        assertTrue(o.err().contains("commands: run, size"), o.err());
    }
}
