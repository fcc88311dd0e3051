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
 * @param beforeNixl  the first NIXL release that no longer sets it this way, empty for none
 * @param sinceUcx    the UCX release NIXL requires before setting it, empty for any
 * @param beforeUcx   the UCX release from which NIXL no longer sets it this way, empty for none
 * @param citation    where in NIXL this comes from (tag, file, line)
 */
public record NixlOverride(String ucxVariable, String value, Optional<StackVersion> sinceNixl,
        Optional<StackVersion> beforeNixl, Optional<StackVersion> sinceUcx, Optional<StackVersion> beforeUcx,
        String citation) {

    public boolean appliesTo(StackVersion nixl, StackVersion ucx) {
        return sinceNixl.map(nixl::atLeast).orElse(true) && beforeNixl.map(b -> !nixl.atLeast(b)).orElse(true)
                && sinceUcx.map(ucx::atLeast).orElse(true) && beforeUcx.map(b -> !ucx.atLeast(b)).orElse(true);
    }
}
