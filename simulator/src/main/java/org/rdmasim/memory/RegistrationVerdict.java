package org.rdmasim.memory;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Outcome of checking registrations against {@link RegistrationLimits}.
 *
 * @param passed              true when everything fits
 * @param limit               the limit crossed first, {@link LimitKind#NONE} on a pass
 * @param messageLines        on failure, the real stack's lines for the registration that crossed it
 * @param warnings            advisory messages (e.g. Open MPI's low-registerable-memory warning)
 * @param totals              sums over all requested registrations
 * @param firmwareBytesPerHca firmware bytes pinned per HCA up to the pass or the failure, by name
 */
public record RegistrationVerdict(boolean passed, LimitKind limit, List<String> messageLines, List<String> warnings,
        RegistrationTotals totals, Map<String, Long> firmwareBytesPerHca) {

    public enum LimitKind { NONE, FIRMWARE_PAGE_CAP, HOST_MEMORY, BAR1, MTT }

    public RegistrationVerdict {
        messageLines = List.copyOf(messageLines);
        warnings = List.copyOf(warnings);
        firmwareBytesPerHca = Collections.unmodifiableMap(new TreeMap<>(firmwareBytesPerHca));
    }

    /** The failure lines joined with newlines; empty on a pass. */
    public String message() {
        return String.join("\n", messageLines);
    }
}
