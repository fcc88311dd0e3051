package org.rdmasim.report;

import java.util.List;
import org.rdmasim.workload.RunResult;
import org.rdmasim.workload.VariantOutcome;

/** The NICs a variant lists for its first initiating process, against the NICs that carried its bytes. */
final class NicUse {
    private NicUse() {
    }

    /** NICs of the first initiator's host that sent or received a byte, in the run's NIC order. */
    static List<String> used(VariantOutcome o) {
        RunResult r = o.result();
        if (r == null) {
            return List.of();
        }
        String host = o.audit().host();
        return r.nics().stream().filter(t -> t.host().equals(host) && t.txBytes() + t.rxBytes() > 0)
                .map(RunResult.NicTraffic::name).toList();
    }

    /** A sentence when the variant uses fewer NICs than it lists, else empty. */
    static String shortfall(VariantOutcome o) {
        List<String> listed = o.audit().listedNics();
        if (listed.isEmpty() || o.result() == null) {
            return "";
        }
        List<String> used = used(o);
        if (used.size() >= listed.size()) {
            return "";
        }
        String why = o.audit().unusedWhy();
        return o.name() + " lists " + listed.size() + " NICs (" + String.join(", ", listed) + ") for "
                + o.audit().process() + " and uses " + used.size() + " (" + String.join(", ", used) + ")"
                + (why.isEmpty() ? "" : ": " + why);
    }
}
