package org.rdmasim.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.rdmasim.hardware.CalibrationProfile;
import org.rdmasim.hardware.HostSpec;
import org.rdmasim.hardware.Presets;
import org.rdmasim.workload.WhatIf;

/**
 * A variant is a what-if when some host runs on a calibration profile other than the one its hardware matches:
 * naming the tray's own profile is no what-if, naming another (or 'generic') is; a rerun bound to the own profile
 * less one parameter is none either. Decided in one place, {@link VariantSpec#whatIf}.
 */
class WhatIfVariantTest {
    private static final String SCENARIO = """
            name: what-ifs
            hosts:
              source: {preset: gb200-tray}
              receiver: {preset: gb200-tray}
            workload:
              transfers:
                - {from: "source:GPU0", to: "receiver:GPU0", size: 1 GB}
            variants:
              - name: as-deployed
              - name: own-profile-named
                hosts:
                  source: {preset: gb200-tray, profile: gb200-roce}
                  receiver: {preset: gb200-tray, profile: gb200-roce}
              - name: uncalibrated
                hosts:
                  source: {preset: gb200-tray, profile: generic}
                  receiver: {preset: gb200-tray, profile: generic}
              - name: receiver-on-gb300
                hosts:
                  source: {preset: gb200-tray}
                  receiver: {preset: gb200-tray, profile: gb300-ib}
            """;

    private static Map<String, Optional<WhatIf>> whatIfs(String text) {
        Map<String, Optional<WhatIf>> out = new java.util.LinkedHashMap<>();
        for (VariantSpec v : ScenarioLoader.parse(text, "what-ifs.yaml").variants()) {
            out.put(v.name(), v.whatIf());
        }
        return out;
    }

    @Test
    void onlyAProfileOtherThanTheHardwaresOwnMakesAWhatIf() {
        Map<String, Optional<WhatIf>> w = whatIfs(SCENARIO);
        assertTrue(w.get("as-deployed").isEmpty());
        assertTrue(w.get("own-profile-named").isEmpty(), "the tray's own profile, named, is the deployment");
        WhatIf uncalibrated = w.get("uncalibrated").orElseThrow();
        assertEquals(List.of(new WhatIf.Moved(List.of("source", "receiver"), "generic", "gb200-roce")),
                uncalibrated.moved());
        assertEquals("hosts source and receiver run on profile generic (no calibration) in place of gb200-roce, the "
                + "profile their hardware matches: what the answer would be on those terms, not a setting a deployment "
                + "can choose", uncalibrated.why());
        WhatIf gb300 = w.get("receiver-on-gb300").orElseThrow();
        assertEquals(List.of(new WhatIf.Moved(List.of("receiver"), "gb300-ib", "gb200-roce")), gb300.moved());
        assertTrue(gb300.why().startsWith("host receiver runs on profile gb300-ib ("), gb300.why());
        assertTrue(gb300.why().contains("the profile its hardware matches"), gb300.why());
    }

    @Test
    void aCountedGroupOnAnotherProfileIsNamedShortly() {
        String text = """
                name: group
                hosts:
                  sources: {preset: gb200-tray, count: 2, prefix: s, profile: generic}
                  receivers: {preset: gb200-tray, count: 40, prefix: r, profile: generic}
                workload:
                  transfers:
                    - {from: "s0:GPU0", to: "r0:GPU0", size: 1 GB}
                """;
        WhatIf w = whatIfs(text).values().iterator().next().orElseThrow();
        assertEquals(1, w.moved().size(), "one profile and one own profile: one group");
        assertEquals(42, w.moved().get(0).hosts().size());
        assertTrue(w.why().startsWith("hosts s0, s1, r0 and 39 more run on profile generic"), w.why());
    }

    @Test
    void aRerunWithoutOneParameterOfTheOwnProfileIsNoWhatIf() {
        HostSpec tray = Presets.get("gb200-tray");
        CalibrationProfile own = CalibrationProfile.forHost(tray);
        HostSpec rerun = tray.withCalibration(own.without("nicReadRate").orElseThrow());
        assertTrue(rerun.otherProfile().isEmpty());
        assertEquals(Optional.of("generic"), tray.withProfile("generic").otherProfile());
        assertTrue(tray.withProfile("gb200-roce").otherProfile().isEmpty());
    }

    @Test
    void theShippedScenariosWhatIfIsItsUncalibratedVariantAlone() {
        Path seed = Path.of(System.getProperty("rdmasim.repo", "..")).resolve("scenarios/seed003-nic-pin-vs-stripe.yaml");
        List<String> whatIfs = ScenarioLoader.load(seed).variants().stream().filter(v -> v.whatIf().isPresent())
                .map(VariantSpec::name).toList();
        assertEquals(List.of("gb200-mx-pin-auto-uncalibrated"), whatIfs);
    }
}
