package org.rdmasim.transport.config;

import java.util.Optional;

/**
 * One UCX setting NIXL's UCX backend applies to its context, through {@code config.modify(KEY,
 * VALUE)} in {@code nixlUcxContext::nixlUcxContext} (ai-dynamo/nixl
 * {@code src/plugins/ucx/ucx_utils.cpp}). {@code config::modify} ({@code src/plugins/ucx/config.cpp})
 * looks up {@code UCX_<KEY>} with getenv and does nothing when it is set; otherwise it calls
 * {@code ucp_config_modify}.
 *
 * @param ucxVariable the environment variable name, {@code UCX_<KEY>}
 * @param value       the value NIXL sets
 * @param sinceNixl   the first NIXL release that sets it, empty for every release modelled
 * @param sinceUcx    the UCX release NIXL requires before setting it, empty for any
 * @param citation    where in NIXL this comes from
 */
public record NixlOverride(String ucxVariable, String value, Optional<StackVersion> sinceNixl,
        Optional<StackVersion> sinceUcx, String citation) {

    public boolean appliesTo(StackVersion nixl, StackVersion ucx) {
        return sinceNixl.map(nixl::atLeast).orElse(true) && sinceUcx.map(ucx::atLeast).orElse(true);
    }
}
