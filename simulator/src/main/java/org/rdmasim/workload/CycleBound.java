package org.rdmasim.workload;

import java.util.List;

/**
 * What bounded one refit cycle: the limit busy longest during its method's stages, or the limits tied for it.
 *
 * @param limit      its id as resources.csv names it, or a GPU stage's ({@code GPU0@t0 bucket calls}); a tie's
 *                   ids joined; {@code none} when nothing was busy
 * @param words      the same in words
 * @param parameters the stage parameters the limit's time is a cost of (a per-call cost such as
 *                   {@code refit.bucketSeconds}), in the order the limits name them; empty for a bandwidth (the
 *                   wire, PCIe, NVLink, HBM), which no stage parameter sets
 * @param profileParameters the calibration-profile parameters the limit's number is (a NIC's calibrated READ rate,
 *                   {@link org.rdmasim.hardware.Bottleneck#parameters}), each of a tie's; empty for a mechanism
 */
public record CycleBound(String limit, String words, List<String> parameters,
        List<org.rdmasim.hardware.ProfileParameter> profileParameters) {
    /** A cycle whose method stages kept nothing busy. */
    public static final CycleBound NONE = new CycleBound("none", "nothing", List.of());

    public CycleBound {
        parameters = List.copyOf(parameters);
        profileParameters = List.copyOf(profileParameters);
    }

    /** A bound no profile parameter sets (a GPU's work, a stage's cost, a derived bandwidth). */
    public CycleBound(String limit, String words, List<String> parameters) {
        this(limit, words, parameters, List.of());
    }
}
