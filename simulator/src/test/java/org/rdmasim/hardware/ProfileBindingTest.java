package org.rdmasim.hardware;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A preset's numbers that live in a calibration profile come from the host's profile (the one it names
 * with {@code profile:}, else the one it matches), not from a profile the preset names by itself; a
 * profile without the number leaves the preset's own.
 */
class ProfileBindingTest {
    private static CalibrationProfile profile(String key, double value, String unit) {
        return new CalibrationProfile("test", "a profile with one parameter", List.of(new CalibrationProfile.Parameter(
                key, value, unit, CalibrationProfile.Kind.ASSUMED, "test", "test")));
    }

    @Test
    void aGraceTraysInterGraceLinkIsItsProfilesGraceToGrace() {
        for (String preset : List.of("gb200-tray", "dgx-gb200-tray", "gb300-tray")) {
            HostSpec tray = Presets.get(preset);
            assertEquals(50e9, tray.interSocket(profile("graceToGrace", 50, "GB/s")), preset);
            // a profile without it (generic, connectx7) leaves the tray's own 100 GB/s
            assertEquals(100e9, tray.interSocket(CalibrationProfile.named("generic")), preset);
            assertEquals(100e9, tray.interSocket(CalibrationProfile.named("connectx7")), preset);
            // another profile's interSocket is not the Grace-Grace link
            assertEquals(100e9, tray.interSocket(profile("interSocket", 50, "GB/s")), preset);
        }
    }

    @Test
    void anAwsInstancesInterSocketLinkIsItsProfilesInterSocket() {
        HostSpec p5 = Presets.get("p5.48xlarge");
        assertEquals(32e9, p5.interSocket(profile("interSocket", 256, "Gbps")));
        assertEquals(64e9, p5.interSocket(CalibrationProfile.named("generic")));
    }

    @Test
    void aHostWhoseInterSocketLinkIsItsOwnIgnoresProfiles() {
        // DGX H100's UPI figure is a datasheet number, not a profile's
        HostSpec dgx = Presets.get("dgx-h100");
        assertEquals(dgx.interSocket(), dgx.interSocket(profile("interSocket", 1, "GB/s")));
    }
}
