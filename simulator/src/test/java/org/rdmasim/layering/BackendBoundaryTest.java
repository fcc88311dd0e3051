package org.rdmasim.layering;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.rdmasim.transport.backend.TransferBackend;

/**
 * One branch point for the transfer backend: only the backends themselves (package
 * {@code transport.backend}) and the scenario reader that names one ({@code scenario.BackendReader})
 * refer to a concrete backend; every other class talks to {@link TransferBackend}. Read from the
 * compiled classes: a class that names a type carries its binary name in its constant pool.
 */
class BackendBoundaryTest {
    private static final String BACKENDS = "org/rdmasim/transport/backend/";
    private static final String BRANCH_POINT = "org/rdmasim/scenario/BackendReader";

    @Test
    void onlyTheBackendsAndTheScenarioReaderNameAConcreteBackend() throws IOException {
        Class<?>[] concrete = TransferBackend.class.getPermittedSubclasses();
        assertTrue(concrete.length >= 2, "UCX and libfabric at least");
        List<String> names = new ArrayList<>();
        for (Class<?> c : concrete) {
            names.add(c.getName().replace('.', '/'));
        }
        Path classes = Path.of("target/classes");
        assertTrue(Files.isDirectory(classes), "compiled classes are needed");
        Set<String> offenders = new TreeSet<>();
        Set<String> named = new TreeSet<>();
        try (Stream<Path> files = Files.walk(classes)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".class")).toList()) {
                String cls = classes.relativize(f).toString().replace('\\', '/').replaceAll("\\.class$", "");
                // ISO-8859-1 keeps every byte, so the constant pool's modified UTF-8 names read as written
                String bytes = new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1);
                for (String n : names) {
                    if (cls.equals(n) || cls.startsWith(n + "$") || !refersTo(bytes, n)) {
                        continue;
                    }
                    if (cls.startsWith(BRANCH_POINT)) {
                        named.add(n);
                    } else if (!cls.startsWith(BACKENDS)) {
                        offenders.add(cls + " -> " + n);
                    }
                }
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        assertEquals(Set.of(), offenders, "classes outside the backends and BackendReader that name a concrete backend");
        assertEquals(new TreeSet<>(names), named, "BackendReader builds every backend");
    }

    /** Whether the class names {@code binaryName} itself (not a longer name that starts with it). */
    private static boolean refersTo(String classBytes, String binaryName) {
        int from = 0;
        while (true) {
            int i = classBytes.indexOf(binaryName, from);
            if (i < 0) {
                return false;
            }
            int end = i + binaryName.length();
            char next = end < classBytes.length() ? classBytes.charAt(end) : ';';
            if (!Character.isJavaIdentifierPart(next) || next == '$') {
                return true;
            }
            from = end;
        }
    }
}
