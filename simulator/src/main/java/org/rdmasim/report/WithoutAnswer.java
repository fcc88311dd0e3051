package org.rdmasim.report;

import org.rdmasim.workload.VariantOutcome;

/**
 * A variant rerun without one calibrated or assumed parameter of one profile (its hosts bound to the profile's
 * copy that lacks it), shown under that parameter in the page's "rests on".
 *
 * @param variant the variant rerun
 * @param profile the profile, e.g. {@code gb200-roce}
 * @param key     the parameter, e.g. {@code nicReadRate}
 * @param means   what "without it" is, in a few words (the profile file's {@code KEY.withoutMeans})
 * @param outcome the rerun's outcome
 */
public record WithoutAnswer(String variant, String profile, String key, String means, VariantOutcome outcome) {
}
