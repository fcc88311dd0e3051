package org.rdmasim.memory;

/**
 * One buffer's registration on one HCA.
 *
 * @param hca                 the HCA
 * @param mrCount             1, or 2 when relaxed ordering adds the strict-order companion MR
 * @param relaxedOrdering     whether the default MR carries {@code IBV_ACCESS_RELAXED_ORDERING}
 * @param translationEntries  translation entries per MR
 * @param translationBytes    translation bytes over all MRs on this HCA
 * @param firmwareBytes       host memory the firmware pins for them (translation + mkey contexts)
 * @param registeredBytes     sum of MR lengths (counts against an MTT limit)
 * @param registrationSeconds time to register all MRs on this HCA
 */
public record HcaRegistration(HcaCandidate hca, int mrCount, boolean relaxedOrdering, long translationEntries,
        long translationBytes, long firmwareBytes, long registeredBytes, double registrationSeconds) {

    /** Firmware bytes of a single MR (every MR of a buffer maps the same range). */
    public long firmwareBytesPerMr() {
        return firmwareBytes / mrCount;
    }
}
