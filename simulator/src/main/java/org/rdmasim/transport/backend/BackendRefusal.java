package org.rdmasim.transport.backend;

import java.util.Optional;

/**
 * A backend declines what a scenario asks of it (a buffer it cannot register, a transfer with no lane,
 * faults whose reaction it does not model). The message is for the user; the scenario reader adds
 * the file and line, at the host the refusal names when it is about a host's hardware.
 */
public final class BackendRefusal extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    /** The host whose hardware the backend cannot drive; null when the refusal is not about one host. */
    private final String host;

    public BackendRefusal(String message) {
        this(message, null);
    }

    /** A refusal caused by {@code host}'s hardware. */
    public BackendRefusal(String message, String host) {
        super(message);
        this.host = host;
    }

    /** The host whose hardware the backend cannot drive, when the refusal is about one. */
    public Optional<String> host() {
        return Optional.ofNullable(host);
    }
}
