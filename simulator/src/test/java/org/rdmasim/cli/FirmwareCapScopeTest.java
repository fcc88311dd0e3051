package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One firmware page cap means the same through a scenario and through {@code memory register}: 'vf' is
 * the per-HCA scope (the firmware's pages are per PCI function, and a VF is one), 'host' one budget for
 * all of the host's HCAs. Eight GPUs each register a 40 GB buffer on all eight HCAs of an HGX H200 with
 * NIXL 1.1.0's two MRs per HCA: 1.16 GiB of translation per HCA, 9.31 GiB per host, against a 2 GiB cap.
 */
class FirmwareCapScopeTest {
    @TempDir
    Path dir;

    private int scenario(String scope) throws Exception {
        Path f = dir.resolve(scope + ".yaml");
        StringBuilder transfers = new StringBuilder();
        for (int g = 0; g < 8; g++) {
            transfers.append("    - {from: \"a:GPU").append(g).append("\", to: \"b:GPU").append(g).append("\", size: 40 GB}\n");
        }
        Files.writeString(f, """
                name: cap-%s
                hosts:
                  a: {preset: hgx-h200}
                  b: {preset: hgx-h200}
                registration:
                  firmwarePageCap: 2 GiB
                  capScope: %s
                transport:
                  operation: write
                  nixl: "1.1.0"
                  ucx: "1.20.0"
                workload:
                  transfers:
                %s""".formatted(scope, scope, transfers));
        return CliTestSupport.run("run", f.toString(), "--out", dir.resolve("out-" + scope).toString(), "-q").code();
    }

    private String register(String scope, int expectedCode) {
        var r = CliTestSupport.run("memory", "register", "--host", "hgx-h200", "--buffer", "40GB", "--nixl", "1.1.0",
                "--fw-page-cap", "2GiB", "--fw-cap-scope", scope);
        assertEquals(expectedCode, r.code(), scope + ": " + r.out() + r.err());
        return r.out();
    }

    @Test
    void vfIsPerHcaAndHostIsOneBudgetAlikeInAScenarioAndOnTheCommandLine() throws Exception {
        for (String perHca : new String[] {"vf", "hca"}) {
            assertEquals(0, scenario(perHca), perHca + ": 1.16 GiB per HCA fits a 2 GiB cap per function");
            String out = register(perHca, 0);
            assertTrue(out.contains("firmware page cap 2.00 GiB per HCA"), out);
            assertTrue(!out.contains("NIXL_ERR_BACKEND"), out);
        }
        for (String perHost : new String[] {"host", "vm"}) {
            assertEquals(1, scenario(perHost), perHost + ": 9.31 GiB on the host is over one 2 GiB budget");
            String out = register(perHost, 1);
            assertTrue(out.contains("NIXL_ERR_BACKEND"), out);
        }
    }

    @Test
    void anUnknownScopeIsBadInputInBothPlacesWithTheSameWords() throws Exception {
        var cli = CliTestSupport.run("memory", "register", "--host", "hgx-h200", "--buffer", "40GB", "--fw-page-cap",
                "2GiB", "--fw-cap-scope", "planet");
        assertEquals(2, cli.code());
        assertTrue(cli.err().contains("expected hca (or vf"), cli.err());
        assertEquals(2, scenario("planet"));
    }
}
