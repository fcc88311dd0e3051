package org.rdmasim.sweep;

/**
 * Something the user wrote about a study (an option such as {@code --shard}, a figure name, a shard
 * folder handed to {@code merge}) that cannot be used: reported with exit code 2 and this message.
 */
public final class StudyInputException extends IllegalArgumentException {
    public StudyInputException(String message) {
        super(message);
    }
}
