package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A configuration warning is said once: under the variant's heading, not again under the transfer's configuration. */
class ExplainWarningOnceTest {
    @TempDir
    Path dir;

    @Test
    void aTransportListWithoutRcIsWarnedOfOnce() throws IOException {
        Path yaml = Files.writeString(dir.resolve("w.yaml"), """
                name: w
                hosts:
                  a: {preset: dgx-h100}
                  b: {preset: dgx-h100}
                transport:
                  env: |
                    export UCX_TLS=tcp
                workload:
                  transfers:
                    - {from: "a:GPU0", to: "b:GPU0", size: 1 GB}
                """);
        var r = CliTestSupport.run("explain", yaml.toString(), "-q");
        assertEquals(0, r.code(), r.err());
        assertEquals(1, r.out().split("warning: UCX_TLS='tcp'", -1).length - 1, r.out());
    }
}
