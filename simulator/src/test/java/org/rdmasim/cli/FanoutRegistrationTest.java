package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.HostSpec;
import org.rdmasim.hardware.Presets;
import org.rdmasim.hardware.Units;
import org.rdmasim.workload.FanoutResult;
import org.rdmasim.workload.VariantOutcome;

/**
 * A fan-out registers each host group once, through its first host, and every host of the group must
 * then choose lanes from what that registration holds. UCX uses no lane whose HCA is missing from the
 * buffer's rkey (openucx/ucx src/ucp/proto/proto_common.c L92-97, v1.20.0), so with NIXL 1.2 on UCX
 * 1.21 (UCX_MAX_HCA_PER_GPU=auto: one PIX HCA per GPU on an HGX H200) NIXL's 2 rails become the two
 * paths of that one HCA, for every receiver alike, and a lone pull runs at that NIC's line rate. On
 * NIXL 1.1 / UCX 1.20 the buffer is on every HCA and the second rail goes to a farther NIC (path 0 of
 * mlx5_1, weighted down by its distance), a split that ends a few percent later.
 */
class FanoutRegistrationTest {
    private static String scenario(String nixl, String ucx) {
        return """
                name: t
                seed: 3
                hosts:
                  receivers: {preset: hgx-h200, count: 3, prefix: r}
                  sources: {preset: hgx-h200, count: 1, prefix: s}
                transport: {nixl: "%s", ucx: "%s"}
                workload:
                  fanout:
                    receivers: {hosts: receivers, gpus: [GPU0]}
                    sources: {hosts: sources, gpus: [GPU0]}
                    model: 4 GB
                    arrival: {kind: waves, size: 1}
                """.formatted(nixl, ucx);
    }

    private static List<FanoutResult.ReceiverPull> pulls(String nixl, String ucx) {
        VariantOutcome o = FanoutRunTest.run(scenario(nixl, ucx));
        assertEquals(VariantOutcome.Status.OK, o.status(), o.error());
        return o.result().fanout().pulls();
    }

    @Test
    void everyReceiverOfAGroupChoosesLanesFromItsGroupsRegistration() {
        List<FanoutResult.ReceiverPull> everywhere = pulls("1.1.0", "1.20.0");
        List<FanoutResult.ReceiverPull> closest = pulls("1.2.0", "1.21.0");
        HostSpec.NicSpec nic = new Host("x", Presets.get("hgx-h200")).nic("mlx5_0").nic();
        double oneNic = 4e9 / (Units.gbpsToBytesPerSecond(nic.lineRateGbps()) * nic.linkLayer().wireEfficiency());
        assertEquals(3, closest.size());
        for (int i = 0; i < 3; i++) {
            // Alone on the fabric (one receiver per wave): r1 and r2, registered through r0, pull over
            // r0's one HCA, at its receive line rate (latencies are microseconds against 80 ms) ...
            assertEquals(oneNic, closest.get(i).pullSeconds(), oneNic * 1e-4, closest.get(i).toString());
            // ... and not as a host holding the buffer on every HCA would.
            assertTrue(everywhere.get(i).pullSeconds() > 1.03 * closest.get(i).pullSeconds(),
                    everywhere.get(i) + " vs " + closest.get(i));
        }
    }

    @Test
    void explainShowsTheFirstReceiversLanesOfAFanout(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws java.io.IOException {
        java.nio.file.Path yaml = dir.resolve("fan.yaml");
        java.nio.file.Files.writeString(yaml, scenario("1.2.0", "1.21.0"));
        var r = CliTestSupport.run("explain", yaml.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("fan-out of 3 receivers from 1 source(s)"), r.out());
        assertTrue(r.out().contains("transfer r0:GPU0: RDMA READ (pull) from s0:GPU0 into r0:GPU0"), r.out());
        // UCX_MAX_HCA_PER_GPU=auto leaves one HCA holding the buffer: its two paths carry the pull.
        assertTrue(r.out().contains("rc_mlx5/mlx5_0:1 50% on path0 and 50% on path1"), r.out());
    }
}
