package org.rdmasim.scenario;

import java.nio.file.Path;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Runs each test as the launcher runs rdmasim: {@code rdmasim.home} names the repository, so what rdmasim ships
 * (scenarios/models/) is found by bare name; the property's previous value is put back after the test.
 */
public final class RepositoryHome implements BeforeEachCallback, AfterEachCallback {
    private static final String HOME = "rdmasim.home";
    private static final ExtensionContext.Namespace SAVED = ExtensionContext.Namespace.create(RepositoryHome.class);

    @Override
    public void beforeEach(ExtensionContext context) {
        String previous = System.getProperty(HOME);
        context.getStore(SAVED).put(HOME, previous == null ? "" : previous);
        System.setProperty(HOME, Path.of(System.getProperty("rdmasim.repo", "..")).toAbsolutePath().toString());
    }

    @Override
    public void afterEach(ExtensionContext context) {
        String previous = context.getStore(SAVED).remove(HOME, String.class);
        if (previous == null || previous.isEmpty()) {
            System.clearProperty(HOME);
        } else {
            System.setProperty(HOME, previous);
        }
    }
}
