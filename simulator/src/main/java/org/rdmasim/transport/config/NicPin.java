package org.rdmasim.transport.config;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.rdmasim.transport.citation.Citation;

/**
 * {@code MX_RDMA_NIC_PIN}, as {@code _resolve_nic_pin} in ModelExpress's
 * {@code modelexpress_client/python/modelexpress/ucx_utils.py} reads it (ai-dynamo/modelexpress,
 * commit 2c6fd8ac, the tip of {@code kavink/multi-nic-stripe-mode}):
 * <ul>
 *   <li>unset, empty, {@code off}, {@code 0}, {@code false}, {@code no} (any case): no pin;</li>
 *   <li>{@code stripe} or {@code all} (any case, L422): every compute NIC, each as {@code name:1};</li>
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

    /** The words ModelExpress's docstring names for the probe ("any other truthy value (e.g. ...)"). */
    private static final List<String> AUTO_WORDS = List.of("auto", "1", "true", "yes", "on");
    private static final List<String> OFF_WORDS = List.of("off", "0", "false", "no");
    /** The modes a misspelt value is compared with for "did you mean". */
    private static final List<String> MODES = List.of("off", "auto", "stripe");
    /** The words of the stripe mode ({@code raw.lower() in ("stripe", "all")}, ucx_utils.py L422 at 2c6fd8ac). */
    private static final List<String> STRIPE_WORDS = List.of("stripe", "all");

    /** Where {@code _resolve_nic_pin} ends in the topology probe, at the stripe build and at the release. */
    private static final List<Citation> FALLS_THROUGH = List.of(
            Citation.parse("ai-dynamo/modelexpress 2c6fd8ac "
                    + "modelexpress_client/python/modelexpress/ucx_utils.py:450 _resolve_nic_pin"),
            Citation.parse("ai-dynamo/modelexpress v0.5.1 "
                    + "modelexpress_client/python/modelexpress/ucx_utils.py:425 _resolve_nic_pin"));

    /**
     * A note when ModelExpress reads {@code raw} otherwise than it seems to say: a value that is none of
     * the words it names nor a list falls through to its topology probe without a message
     * ({@code return probe_nic_pin_for_device(...)} at the end of {@code _resolve_nic_pin}, ucx_utils.py
     * line 450 at commit 2c6fd8ac, line 425 at tag v0.5.1), so "strip" or "sometimes" pins one NIC.
     */
    public static java.util.Optional<String> note(String raw) {
        if (raw == null) {
            return java.util.Optional.empty();
        }
        String lower = raw.toLowerCase(Locale.ROOT);
        if (raw.isEmpty() || OFF_WORDS.contains(lower) || AUTO_WORDS.contains(lower) || STRIPE_WORDS.contains(lower)
                || raw.contains(",")) {
            return java.util.Optional.empty();
        }
        String near = null;
        int best = Integer.MAX_VALUE;
        for (String m : MODES) {
            int d = KnownVariables.editDistance(lower, m);
            if (d < best) {
                best = d;
                near = m;
            }
        }
        String guess = best <= Math.max(2, lower.length() / 5) ? "; did you mean '" + near + "'?" : "";
        return java.util.Optional.of("MX_RDMA_NIC_PIN='" + raw + "' is not a value ModelExpress names (off, auto, "
                + "stripe (or all) or a comma list of NICs; also 0/false/no and 1/true/yes/on): it runs its auto probe for "
                + "any other value and pins one NIC, as auto (" + Citation.join(FALLS_THROUGH) + ")" + guess);
    }

    public static NicPin parse(String raw) {
        if (raw == null) {
            return OFF;
        }
        String lower = raw.toLowerCase(Locale.ROOT);
        if (raw.isEmpty() || List.of("off", "0", "false", "no").contains(lower)) {
            return OFF;
        }
        if (STRIPE_WORDS.contains(lower)) {
            return new NicPin(Mode.STRIPE, List.of());
        }
        if (raw.contains(",")) {
            return new NicPin(Mode.EXPLICIT_LIST, Arrays.stream(raw.split(","))
                    .map(String::strip).filter(s -> !s.isEmpty()).toList());
        }
        return new NicPin(Mode.AUTO, List.of());
    }
}
