package org.rdmasim.transport.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.rdmasim.transport.citation.Citation;

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
 * @param site        where in NIXL this is set, cited at the release a scenario names
 */
public record NixlOverride(String ucxVariable, String value, Optional<StackVersion> sinceNixl,
        Optional<StackVersion> beforeNixl, Optional<StackVersion> sinceUcx, Optional<StackVersion> beforeUcx,
        NixlSite site) {

    /** Where NIXL {@code nixl} sets it (tag, file, line), or the nearest release that has the call. */
    public Citation citation(StackVersion nixl) {
        return site.cite(nixl);
    }

    public boolean appliesTo(StackVersion nixl, StackVersion ucx) {
        return sinceNixl.map(nixl::atLeast).orElse(true) && beforeNixl.map(b -> !nixl.atLeast(b)).orElse(true)
                && sinceUcx.map(ucx::atLeast).orElse(true) && beforeUcx.map(b -> !ucx.atLeast(b)).orElse(true);
    }

    /** When NIXL sets it, in words: "from NIXL 1.2 on UCX >= 1.21". */
    public String when() {
        List<String> parts = new ArrayList<>();
        sinceNixl.ifPresent(v -> parts.add("from NIXL " + short2(v)));
        beforeNixl.ifPresent(v -> parts.add("before NIXL " + short2(v)));
        String ucx = ucxBound();
        if (!ucx.isEmpty()) {
            parts.add(ucx);
        }
        return String.join(" ", parts);
    }

    /** The UCX releases it needs, in words ("on UCX >= 1.21"); empty for any. */
    public String ucxBound() {
        List<String> parts = new ArrayList<>();
        sinceUcx.ifPresent(v -> parts.add(">= " + short2(v)));
        beforeUcx.ifPresent(v -> parts.add("< " + short2(v)));
        return parts.isEmpty() ? "" : "on UCX " + String.join(" and ", parts);
    }

    private static String short2(StackVersion v) {
        return v.major() + "." + v.minor();
    }
}
