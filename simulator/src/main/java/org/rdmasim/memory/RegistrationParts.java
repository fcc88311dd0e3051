package org.rdmasim.memory;

/**
 * A variant's registration in the two steps UCX makes it: {@code ucp_mem_map}'s, on the HCAs its policy
 * chooses (the rkey the peers are given names them), and the registrations lanes make when they first use an
 * HCA the initiator's buffer lacks ({@code ucp_datatype_iter_mem_reg_single} calls {@code ucp_memh_register},
 * openucx/ucx v1.20.0 src/ucp/dt/datatype_iter.inl L276-282). Each is summed as the variant's totals are, so
 * their MRs, bytes and summed seconds add up to the totals' (the seconds to rounding in the last bits, summed
 * in another order); a wall is the slowest process's and is not split.
 *
 * @param byMemMap   what {@code ucp_mem_map} registered, with each buffer's once-per-buffer cost and pinned pages
 * @param atFirstUse what lanes registered at first use ({@link #ZERO}'s when none did)
 */
public record RegistrationParts(RegistrationTotals byMemMap, RegistrationTotals atFirstUse) {
    public static final RegistrationParts ZERO = new RegistrationParts(RegistrationTotals.ZERO, RegistrationTotals.ZERO);

    /** Registrations without first use: {@code ucp_mem_map} made them all. */
    public static RegistrationParts allByMemMap(RegistrationTotals totals) {
        return new RegistrationParts(totals, RegistrationTotals.ZERO);
    }

    /** With another host's (or group's) parts, as {@link RegistrationTotals#plus}. */
    public RegistrationParts plus(RegistrationParts other) {
        return new RegistrationParts(byMemMap.plus(other.byMemMap), atFirstUse.plus(other.atFirstUse));
    }

    /** {@code count} identical hosts, as {@link RegistrationTotals#times}. */
    public RegistrationParts times(long count) {
        return new RegistrationParts(byMemMap.times(count), atFirstUse.times(count));
    }

    /** One host's parts, over its plans. */
    public static RegistrationParts of(java.util.Collection<RegistrationPlan> plans) {
        return new RegistrationParts(RegistrationTotals.of(plans, RegistrationPlan::totalsByMemMap),
                RegistrationTotals.of(plans, RegistrationPlan::totalsAtFirstUse));
    }
}
