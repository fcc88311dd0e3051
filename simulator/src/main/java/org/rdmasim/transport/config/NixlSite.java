package org.rdmasim.transport.config;

import org.rdmasim.transport.citation.Citation;

/**
 * A place in ai-dynamo/nixl's UCX backend where NIXL sets up UCX, cited at the NIXL release a scenario names.
 * The calls move between releases (and the backend moved from {@code src/utils/ucx} to {@code src/plugins/ucx}
 * in 0.10.0), so each site's lines per release are in {@code nixl-sites.tsv}, which
 * {@code tools/code-sites/generate.py --project nixl} finds in a clone of NIXL by the text of the code. A release
 * where that text is not found is cited at the nearest release where it is, and the citation says so.
 */
public enum NixlSite {
    /** {@code config.modify("RNDV_THRESH", "inf")} in {@code nixlUcxContext::nixlUcxContext}. */
    RNDV_THRESH("nixl-rndv-thresh"),
    /** {@code config.modify("MAX_RMA_RAILS", "4")}, taken on UCX >= 1.20 by NIXL 0.4 to 0.7. */
    RMA_RAILS_4("nixl-rma-rails-4"),
    /** {@code config.modify("MAX_RMA_RAILS", "2")}: on older UCX by NIXL 0.4 to 0.7, on any from 0.8. */
    RMA_RAILS_2("nixl-rma-rails-2"),
    /** {@code config.modify("IB_PCI_RELAXED_ORDERING", "try")}. */
    RELAXED_ORDERING("nixl-relaxed-ordering"),
    /** {@code config.modify("MAX_HCA_PER_GPU", "auto")}, under {@code if (ucpVersion_ >= UCP_VERSION(1, 21))}. */
    MAX_HCA_PER_GPU("nixl-max-hca-per-gpu"),
    /** {@code config.modifyAlways("NET_DEVICES", devs_str)}: the agent's device list, whatever the environment says. */
    NET_DEVICES("nixl-net-devices"),
    /** {@code config::modify}: a key whose {@code UCX_} variable is in the environment is left alone. */
    MODIFY_ENV_FIRST("nixl-modify-env-first"),
    /** {@code auditwheel repair} in {@code contrib/build-wheel.sh}: UCX's libraries copied into the wheel, no ucx.conf. */
    WHEEL_BUNDLES_UCX("nixl-wheel-bundles-ucx");

    private static final SiteTable TABLE = SiteTable.load("ai-dynamo/nixl", "/nixl-sites.tsv",
            java.util.Arrays.stream(values()).map(s -> s.id).collect(java.util.stream.Collectors.toSet()));

    private final String id;

    NixlSite(String id) {
        this.id = id;
    }

    /** {@code ai-dynamo/nixl TAG file:first-last symbol} at {@code nixl}, or at the nearest release that has the code. */
    public Citation cite(StackVersion nixl) {
        return TABLE.cite(id, nixl);
    }
}
