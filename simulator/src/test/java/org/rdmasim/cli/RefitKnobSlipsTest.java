package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two refit fields that ran as written though they could not mean anything: a bucket on a method whose plan reads
 * none (rdma-pull reads each rank's runs: the size changed nothing) and more registration HCAs than the host has
 * (each buffer was charged a registration on 99 HCAs of a 4-NIC tray). Each is refused at its line and field, exit 2.
 */
class RefitKnobSlipsTest {
    @TempDir
    Path dir;

    private static final String BASE = """
            name: refit-slips
            seed: 1
            hosts:
              trainers: {preset: gb200-tray, count: 1, prefix: train}
              inference: {preset: gb200-tray, count: 1, prefix: infer}
            transport:
              nixl: "1.1.0"
              ucx: "1.20.0"
            workload:
              refit:
                model: models/qwen3-4b.json
                trainer: {hosts: trainers, dp: 4, fsdp: true}
                inference: {hosts: inference, tp: 1, dp: 4}
                method: rdma-pull
                KNOB
            """;

    private CliTestSupport.Outcome explain(String knob) throws IOException {
        if (!Files.exists(dir.resolve("models/qwen3-4b.json"))) {
            CliTestSupport.shippedModel(dir, "qwen3-4b");
        }
        Path f = dir.resolve("s.yaml");
        Files.writeString(f, BASE.replace("KNOB", knob));
        return CliTestSupport.run("explain", f.toString(), "-q");
    }

    @Test
    void aBucketOnAPullIsRefused() throws IOException {
        CliTestSupport.Outcome o = explain("bucket: 1 GiB");
        assertEquals(2, o.code(), o.err());
        assertTrue(o.err().startsWith("rdmasim: error: " + dir.resolve("s.yaml") + ":15:13: workload.refit.bucket: "
                + "bucket applies to write-schedule, nccl-broadcast,"), o.err());
        assertTrue(o.err().contains("rdma-pull's source: host-replica (method is rdma-pull, which reads each rank's runs, "
                + "not buckets)"), o.err());
        // rdma-pull's host replica gathers in buckets: there it is read
        assertEquals(0, explain("source: host-replica\n    bucket: 1 GiB").code());
        // a bucket in a base that bucketed variants share is laid over a pull variant too: said, not refused
        Path f = dir.resolve("shared.yaml");
        Files.writeString(f, BASE.replace("method: rdma-pull", "method: nccl-broadcast").replace("KNOB", "bucket: 1 GiB")
                + "variants:\n  - name: broadcast\n  - name: pull\n    workload: {refit: {method: rdma-pull}}\n");
        CliTestSupport.Outcome shared = CliTestSupport.run("explain", f.toString(), "--variant", "pull", "-q");
        assertEquals(0, shared.code(), shared.err());
        assertTrue(shared.out().contains("warning: " + f + ":15:13: workload.refit.bucket: bucket applies to")
                && shared.out().contains("variant runs without it"), shared.out());
    }

    @Test
    void moreRegistrationHcasThanTheHostHasIsRefused() throws IOException {
        CliTestSupport.Outcome o = explain("registrationHcas: 99");
        assertEquals(2, o.code(), o.err());
        assertTrue(o.err().startsWith("rdmasim: error: " + dir.resolve("s.yaml") + ":15:23: workload.refit."
                + "registrationHcas: registrationHcas 99 is more than the 4 RDMA device(s) of host train0"), o.err());
        assertEquals(0, explain("registrationHcas: 4").code());
    }
}
