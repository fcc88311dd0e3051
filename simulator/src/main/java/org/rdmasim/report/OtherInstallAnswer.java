package org.rdmasim.report;

import org.rdmasim.workload.VariantOutcome;

/**
 * A variant rerun under the other UCX install (the scenario did not state its install), as explain reruns it
 * ({@code org.rdmasim.run.OtherInstall}): the Answer says its figure under the headline when it moves it.
 *
 * @param variant    the variant rerun
 * @param assumed    the install the run assumed, e.g. {@code nixl-wheel}
 * @param otherWords the other install as outputs name it, e.g. {@code prefix (ucx.conf read)}
 * @param outcome    the rerun's outcome
 */
public record OtherInstallAnswer(String variant, String assumed, String otherWords, VariantOutcome outcome) {
}
