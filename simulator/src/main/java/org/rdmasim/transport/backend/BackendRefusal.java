package org.rdmasim.transport.backend;

/**
 * A backend declines what a scenario asks of it (a buffer it cannot register, a transfer with no lane,
 * faults whose reaction it does not model). The message is for the user; the scenario reader adds
 * the file and line.
 */
public final class BackendRefusal extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public BackendRefusal(String message) {
        super(message);
    }
}
