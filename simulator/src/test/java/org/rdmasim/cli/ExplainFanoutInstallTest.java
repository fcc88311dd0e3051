package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code explain} on a fan-out variant whose UCX install the scenario leaves unstated prints, as it does for a
 * transfer list, the first receiver's modelled pull, each parameter's rerun without it, and the pull under the
 * other install: a fan-out's receivers are hosts, and the first receiver's pull is found by its host.
 */
class ExplainFanoutInstallTest {
    private static final String SCENARIO = CliTestSupport.repo()
            .resolve("scenarios/fanout-256-pin-vs-stripe-vs-tree.yaml").toString();

    @Test
    void aFanoutVariantPrintsItsPullTheRerunsAndTheFigureUnderTheOtherInstall() {
        var r = CliTestSupport.run("explain", SCENARIO, "--variant", "stripe-tree-2");
        assertEquals(0, r.code(), r.err());
        List<String> lines = r.out().lines().toList();
        double own = seconds(lines.stream().filter(l -> l.startsWith("modelled:")).findFirst().orElseThrow());
        int under = lines.indexOf("under ucxInstall: prefix (ucx.conf read):");
        assertTrue(under > 0, r.out());
        String modelled = lines.get(under + 1);
        assertTrue(modelled.startsWith("    modelled:    "), r.out());
        // under prefix UCX reads the GB200 ucx.conf section and stripes over four NICs, not two: faster
        assertTrue(seconds(modelled) < own, modelled + " against " + own);
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("    without it (the 308 Gbps holds the NIC that answers")),
                r.out());
    }

    /** The figure after the label: "0.1667 s (767.9 Gbps), ...". */
    private static double seconds(String line) {
        String rest = line.substring(line.indexOf(':') + 1).trim();
        return Double.parseDouble(rest.substring(0, rest.indexOf(' ')));
    }
}
