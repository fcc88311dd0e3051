package org.rdmasim.transport.config;

import java.util.ArrayList;
import java.util.List;

/**
 * Environments for transport tests, written as {@code NAME=VALUE} lines (an optional {@code export}
 * in front), each entry located at its line of {@code label}. The real readers of shell and
 * Kubernetes blocks live in importers.env, a layer above.
 */
public final class TestEnv {
    private TestEnv() {
    }

    public static List<EnvEntry> parse(String text, String label) {
        List<EnvEntry> out = new ArrayList<>();
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String l = lines[i].strip();
            if (l.isEmpty() || l.startsWith("#")) {
                continue;
            }
            if (l.startsWith("export ")) {
                l = l.substring("export ".length()).strip();
            }
            int eq = l.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException(label + ":" + (i + 1) + ": expected NAME=VALUE, got '" + l + "'");
            }
            out.add(new EnvEntry(l.substring(0, eq), l.substring(eq + 1), label, i + 1));
        }
        return out;
    }
}
