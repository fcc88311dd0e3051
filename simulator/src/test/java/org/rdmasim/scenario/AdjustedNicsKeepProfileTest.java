package org.rdmasim.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rdmasim.hardware.CalibrationProfile;
import org.rdmasim.hardware.HostSpec;

/**
 * A preset host whose NICs the scenario adjusts (link layer, NIC model, line rate) keeps where its
 * inter-socket figure comes from: the Grace-Grace link of a tray still follows the host's profile.
 */
class AdjustedNicsKeepProfileTest {
    @TempDir
    Path dir;

    private HostSpec host(String line) throws IOException {
        return PresetNvlinksTest.host(dir, line);
    }

    @Test
    void aTrayWithAdjustedNicsStillTakesGraceToGraceFromItsProfile() throws IOException {
        CalibrationProfile halved = new CalibrationProfile("test", "one parameter", List.of(new CalibrationProfile.Parameter(
                "graceToGrace", 50, "GB/s", CalibrationProfile.Kind.ASSUMED, "test", "test")));
        for (String adjust : List.of("lineRate: 200 Gbps", "linkLayer: infiniband", "")) {
            HostSpec tray = host("{preset: gb200-tray, count: 2, prefix: n" + (adjust.isEmpty() ? "" : ", " + adjust) + "}");
            assertEquals(50e9, tray.interSocket(halved), adjust);
        }
    }
}
