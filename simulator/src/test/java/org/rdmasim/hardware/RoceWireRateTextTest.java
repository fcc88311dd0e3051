package org.rdmasim.hardware;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every text that quotes the RoCE wire (payload) rate of a 400G port as a number says the rate the model
 * delivers, 400 Gbps x 4096 / 4178 = 392.1: the profile's "without it" (printed by explain and on every report
 * page beside the rerun's 392.1 Gbps), the scenarios' expected answers (on their pages) and the validation rows'
 * notes. They said 391, UCX's own estimate (391.4, which ranks lanes and delivers nothing), so a reader checking
 * "without it a NIC delivers its RoCE wire rate (391 Gbps)" against the line under it, "0.3264 s (392.1 Gbps)",
 * found two numbers for one rate.
 */
class RoceWireRateTextTest {
    private static final Pattern QUOTED = Pattern.compile(
            "RoCE (?:wire|payload)(?: rate)?(?: after [A-Za-z/ ]{0,40}framing)?[ ,(]{1,3}~?(\\d{3})(?:\\.\\d)?\\b");

    @Test
    void everyQuotedRoceWireRateIsTheModelsPayloadRate() throws IOException {
        long modelled = Math.round(400 * LinkLayer.ROCE.wireEfficiency());
        assertEquals(392, modelled);
        Path repo = Path.of(System.getProperty("rdmasim.repo", ".."));
        List<Path> files = new ArrayList<>();
        try (Stream<Path> s = Files.walk(repo.resolve("scenarios"))) {
            s.filter(p -> p.toString().endsWith(".yaml")).forEach(files::add);
        }
        try (Stream<Path> s = Files.walk(repo.resolve("simulator/src/main"))) {
            s.filter(p -> p.toString().endsWith(".java") || p.toString().endsWith(".properties")).forEach(files::add);
        }
        files.add(repo.resolve("README.md"));
        int seen = 0;
        List<String> wrong = new ArrayList<>();
        for (Path f : files) {
            String text = Files.readString(f).replaceAll("\"\\s*\\+\\s*\"", "").replaceAll("\\s*\\n\\s*#?\\s*", " ");
            Matcher m = QUOTED.matcher(text);
            while (m.find()) {
                seen++;
                if (Long.parseLong(m.group(1)) != modelled) {
                    wrong.add(repo.relativize(f) + ": " + m.group());
                }
            }
        }
        assertTrue(seen >= 8, "the texts quoting the rate were found: " + seen);
        assertEquals(List.of(), wrong);
    }
}
