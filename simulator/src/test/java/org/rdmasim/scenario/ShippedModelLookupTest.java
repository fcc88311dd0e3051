package org.rdmasim.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A refit scenario in a folder of the user's own (no models/ above it) names a shipped model by its bare
 * name: it is found among the installation's scenarios/models; a name that is not there is refused listing
 * the shipped ones.
 */
@ExtendWith(RepositoryHome.class)
class ShippedModelLookupTest {
    @TempDir
    Path dir;

    private Path scenario(String model) throws IOException {
        Path f = dir.resolve("mine.yaml");
        Files.writeString(f, "name: mine\nseed: 1\nhosts:\n"
                + "  trainers: {preset: dgx-h100, count: 1, prefix: t}\n"
                + "  inference: {preset: dgx-h100, count: 1, prefix: i}\n"
                + "workload:\n  refit:\n    model: " + model + "\n"
                + "    trainer: {hosts: trainers, tp: 1, dp: 8}\n"
                + "    inference: {hosts: inference, tp: 8, dp: 1}\n"
                + "    method: rdma-pull\n");
        return f;
    }

    @Test
    void aBareNameFindsTheShippedModel() throws IOException {
        Scenario s = ScenarioLoader.load(scenario("qwen3-4b"));
        assertEquals(1, s.variants().size());
    }

    @Test
    void aNameNotShippedIsRefusedListingTheShippedOnes() throws IOException {
        Path f = scenario("qwen3-4bb");
        ScenarioException e = assertThrows(ScenarioException.class, () -> ScenarioLoader.load(f));
        assertTrue(e.getMessage().contains("mine.yaml:8:12: "), e.getMessage());
        assertTrue(e.getMessage().contains("no model named 'qwen3-4bb'"), e.getMessage());
        assertTrue(e.getMessage().contains("qwen3-4b, qwen3-8b"), e.getMessage());
        assertTrue(e.getMessage().contains("did you mean 'qwen3-4b'?"), e.getMessage());
    }
}
