package org.rdmasim.cli;

/** A user error found by the command line itself (exit code 2). */
final class BadInputException extends RuntimeException {
    BadInputException(String message) {
        super(message);
    }
}
