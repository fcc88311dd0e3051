package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rdmasim.transport.ucx.UcxTopoDistance;

/**
 * A variant that uses fewer NICs than it lists says why, from UCX's lane decision for its first transfer: on a
 * GB200 tray (two ConnectX-7 per Grace) the UCX in NIXL's wheel reads no ucx.conf, rates the other Grace's NICs
 * (SYS) at its built-in cross-node distance, and its ratio filter drops them; with the ratio opened, the rail
 * limit leaves them out instead (both paths of the near NICs rank first); a UCX that reads ucx.conf's
 * [Grace Hopper] section keeps all four, and nothing is said.
 */
class ListedNicsLeftOutReportTest {
    @TempDir
    Path dir;

    @Test
    void theAnswerSaysWhyListedNicsCarriedNothing() throws IOException {
        Path f = dir.resolve("grace.yaml");
        Files.writeString(f, """
                # four NICs listed on a GB200 tray: how many carry bytes, and why not the others?
                name: grace-four-nics
                seed: 1
                hosts:
                  source: {preset: gb200-tray}
                  receiver: {preset: gb200-tray}
                transport:
                  operation: read
                  nixl: "1.1.0"
                  ucx: "1.20.0"
                workload:
                  transfers:
                    - {from: "source:GPU0", to: "receiver:GPU0", size: 4 GB}
                variants:
                  - name: wheel
                    transport:
                      env: |
                        export UCX_NET_DEVICES=mlx5_0:1,mlx5_1:1,mlx5_2:1,mlx5_3:1
                        export UCX_MAX_RMA_RAILS=4
                  - name: ratio-opened
                    transport:
                      env: |
                        export UCX_NET_DEVICES=mlx5_0:1,mlx5_1:1,mlx5_2:1,mlx5_3:1
                        export UCX_MAX_RMA_RAILS=4
                        export UCX_MULTI_LANE_MAX_RATIO=1000
                  - name: prefix
                    transport:
                      ucxInstall: prefix
                      env: |
                        export UCX_NET_DEVICES=mlx5_0:1,mlx5_1:1,mlx5_2:1,mlx5_3:1
                        export UCX_MAX_RMA_RAILS=4
                """);
        Path out = dir.resolve("out");
        var r = CliTestSupport.run("run", f.toString(), "-o", out.toString());
        assertEquals(0, r.code(), r.err());
        String page = Files.readString(out.resolve("index.html")).replace("&#39;", "'");
        String lists = " lists 4 NICs (mlx5_0, mlx5_1, mlx5_2, mlx5_3) for receiver:GPU0 and uses 2 (mlx5_0, mlx5_1): ";
        // UCX's sysfs rule for two devices on different NUMA nodes: 220 MB/s (UCX's MB); wireup's fast-lane filter
        // compares it unpacked (1.845 Gbps) with the best wired lane, NODE's 17000 MB/s (142.6 Gbps): under a quarter,
        // so those lanes are never wired
        assertEquals(220, UcxTopoDistance.OTHER_NUMA_NODE.bandwidthBytesPerSecond() / UcxTopoDistance.UCS_MBYTE, 1e-9);
        assertTrue(page.contains("wheel" + lists + "UCX_MULTI_LANE_MAX_RATIO=4 drops mlx5_2, mlx5_3 at wireup (SYS "
                + "from receiver:GPU0, a distance UCX rates 220 MB/s with UCX_DISTANCE_BW=auto (UCX's default: no "
                + "ucx.conf sets it), so their lanes' 1.845 Gbps is under 1/4 of the best wired lane's 142.6 Gbps)"), page);
        assertTrue(page.contains("ratio-opened" + lists + "the rail limit UCX_MAX_RMA_RAILS=4 leaves out mlx5_2, mlx5_3"),
                page);
        assertFalse(page.contains("prefix lists 4 NICs"), "a UCX reading ucx.conf uses all four: nothing to say");
    }

    @Test
    void nicsOfAnotherRelationGetTheirOwnReasonAndPickedIdleNicsAreNotCalledCut() throws IOException {
        Path f = dir.resolve("small.yaml");
        Files.writeString(f, """
                # five NICs listed for one small READ: UCX picks four lanes, the message is too short to split
                name: small-read
                seed: 1
                hosts:
                  source: {preset: dgx-h100}
                  receiver: {preset: dgx-h100}
                transport:
                  operation: read
                  nixl: "1.1.0"
                  ucx: "1.20.0"
                  env: |
                    export UCX_NET_DEVICES=mlx5_0:1,mlx5_3:1,mlx5_4:1,mlx5_5:1,mlx5_6:1
                    export UCX_MAX_RMA_RAILS=4
                workload:
                  transfers:
                    - {from: "source:GPU0", to: "receiver:GPU0", size: 4 KiB}
                """);
        Path out = dir.resolve("small");
        var r = CliTestSupport.run("run", f.toString(), "-o", out.toString());
        assertEquals(0, r.code(), r.err());
        String page = Files.readString(out.resolve("index.html")).replace("&#39;", "'");
        assertFalse(page.contains("the rail limit UCX_MAX_RMA_RAILS=4 leaves out mlx5_3"),
                "picked lanes are not said to be over the rail limit: " + page);
        assertTrue(page.contains("picked but given no bytes"), page);
    }

    @Test
    void theGb300AnswerGivesEachRelationItsOwnDistance() throws IOException {
        Path scenarios = CliTestSupport.repo().resolve("scenarios");
        Path out = dir.resolve("gb300");
        var r = CliTestSupport.run("run", scenarios.resolve("gb300-rails.yaml").toString(), "-q", "-o", out.toString());
        assertEquals(0, r.code(), r.err());
        String page = Files.readString(out.resolve("index.html")).replace("&#39;", "'");
        // mlx5_1 is NODE (17000 MB/s), mlx5_2 and mlx5_3 SYS (220 MB/s): one reason each, not the first's for all
        assertTrue(page.contains("drops mlx5_1 at wireup (NODE from receiver:GPU0, a distance UCX rates 17000 MB/s "
                + "with"), page);
        assertTrue(page.contains(" and mlx5_2, mlx5_3 at wireup (SYS from receiver:GPU0, a distance UCX rates 220 MB/s"),
                page);
    }
}
