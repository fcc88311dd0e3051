package org.rdmasim.workload;

/**
 * Something that goes wrong in the simulated cluster at a scheduled time. What the stack does about
 * it is the stack's own mechanism, not part of the fault: see {@link FaultPlan}.
 */
public sealed interface Fault {
    /** When the fault happens, simulated seconds from the start of the run. */
    double atSeconds();

    /** One line for reports: what and where. */
    String describe();

    /** Scenario key of this kind of fault. */
    String kind();

    /**
     * A NIC port stops passing traffic at {@code at} and, when {@code until} is finite, passes it again
     * then (a cable pulled and put back, a switch port flapping).
     */
    record PortDown(String host, String nic, double atSeconds, double untilSeconds) implements Fault {
        @Override
        public String describe() {
            return host + ":" + nic + " port down" + (Double.isFinite(untilSeconds) ? " until " + fmt(untilSeconds) : "");
        }

        @Override
        public String kind() {
            return "nic-down";
        }
    }

    /**
     * A NIC port (both directions) or one named resource runs at {@code fraction} of its rate from
     * {@code at} until {@code until} (a link that trained down to fewer lanes, a degraded cable).
     * {@code nic} is null when a resource is named instead.
     */
    record Degraded(String host, String nic, String resource, double fraction, double atSeconds, double untilSeconds)
            implements Fault {
        @Override
        public String describe() {
            String what = nic != null ? host + ":" + nic : resource;
            return what + " at " + Math.round(fraction * 1000) / 10.0 + "% of its rate"
                    + (Double.isFinite(untilSeconds) ? " until " + fmt(untilSeconds) : "");
        }

        @Override
        public String kind() {
            return "degraded";
        }
    }

    /** A host serving the model leaves mid-fan-out (its process or node is gone): every port of it stops. */
    record SourceLoss(String host, double atSeconds) implements Fault {
        @Override
        public String describe() {
            return host + " leaves";
        }

        @Override
        public String kind() {
            return "source-loss";
        }
    }

    /**
     * Registering a host's buffers fails on one HCA (a firmware page cap, an exhausted MTT). UCX's
     * {@code ucp_mem_map} then fails the whole buffer, not just that HCA (openucx/ucx
     * src/ucp/core/ucp_mm.c L652-664, v1.20.0: without UCT_MD_MEM_FLAG_HIDE_ERRORS, which ucp_mem_map
     * never sets, one memory domain's failure deregisters the others and returns the error), so NIXL's
     * registerMem fails and the host cannot take part in RDMA. Happens at registration, before any pull.
     */
    record RegistrationFailure(String host, String nic) implements Fault {
        @Override
        public double atSeconds() {
            return 0;
        }

        @Override
        public String describe() {
            return host + ":" + nic + " registration fails";
        }

        @Override
        public String kind() {
            return "registration-failure";
        }
    }

    private static String fmt(double seconds) {
        return org.rdmasim.hardware.Units.number(seconds) + " s";
    }
}
