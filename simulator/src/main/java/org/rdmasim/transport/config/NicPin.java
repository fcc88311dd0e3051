package org.rdmasim.transport.config;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * {@code MX_RDMA_NIC_PIN}, as {@code _resolve_nic_pin} in ModelExpress's
 * {@code modelexpress_client/python/modelexpress/ucx_utils.py} reads it (ai-dynamo/modelexpress,
 * commit d19bcb43):
 * <ul>
 *   <li>unset, empty, {@code off}, {@code 0}, {@code false}, {@code no} (any case): no pin;</li>
 *   <li>{@code stripe}: every compute NIC, each as {@code name:1};</li>
 *   <li>a value containing a comma: an explicit list indexed by the CUDA device index, each item
 *       used verbatim;</li>
 *   <li>anything else ({@code auto}, {@code 1}, {@code yes}, ...): the topology probe, one NIC.</li>
 * </ul>
 * The {@code stripe} mode exists in that commit but not in every ModelExpress release (commit
 * 2ed12c26 has only off/list/auto); rdmasim models the newer behaviour.
 *
 * @param mode     which of the four behaviours
 * @param explicit the items of an explicit list, empty otherwise
 */
public record NicPin(Mode mode, List<String> explicit) {

    /** What ModelExpress does with the variable. */
    public enum Mode { OFF, AUTO, STRIPE, EXPLICIT_LIST }

    public static final NicPin OFF = new NicPin(Mode.OFF, List.of());

    public NicPin {
        explicit = List.copyOf(explicit);
    }

    public static NicPin parse(String raw) {
        if (raw == null) {
            return OFF;
        }
        String lower = raw.toLowerCase(Locale.ROOT);
        if (raw.isEmpty() || List.of("off", "0", "false", "no").contains(lower)) {
            return OFF;
        }
        if (lower.equals("stripe")) {
            return new NicPin(Mode.STRIPE, List.of());
        }
        if (raw.contains(",")) {
            return new NicPin(Mode.EXPLICIT_LIST, Arrays.stream(raw.split(","))
                    .map(String::strip).filter(s -> !s.isEmpty()).toList());
        }
        return new NicPin(Mode.AUTO, List.of());
    }
}
