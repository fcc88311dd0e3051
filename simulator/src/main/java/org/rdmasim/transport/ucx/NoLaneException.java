package org.rdmasim.transport.ucx;

/**
 * UCX's lane choice leaves a transfer no lane rdmasim models: every lane the configuration wires is dropped
 * or reaches no HCA the remote buffer is registered on. At load this is the scenario's configuration, refused
 * with its message (exit 2); a caller that meets it later, after the load checked the same choice, has a bug.
 */
public final class NoLaneException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public NoLaneException(String message) {
        super(message);
    }
}
