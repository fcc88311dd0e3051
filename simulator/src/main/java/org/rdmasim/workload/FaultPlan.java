package org.rdmasim.workload;

import java.util.List;
import org.rdmasim.transport.QpRetry;

/**
 * The faults a run schedules and the parameters of the stack's reaction to them.
 *
 * <p>Reactions, each from the real code where it is known:
 * <ul>
 *   <li>A lane through a port that went down stalls; its QP retries on its ACK timer and fails the
 *       transfer after {@link QpRetry#errorAfterSeconds()} unless the port answers first ({@code qpRetry},
 *       from UCX_RC_TIMEOUT and UCX_RC_RETRY_COUNT).</li>
 *   <li>A fan-out receiver whose pull failed tries the next source, at most {@link #MAX_SOURCE_ATTEMPTS}
 *       sources in all, then falls back to loading from storage, which rdmasim does not model (it is
 *       reported as fallen back) (ai-dynamo/modelexpress v0.5.1
 *       modelexpress_client/python/modelexpress/load_strategy/rdma_strategy.py L39, L143-265). Each source
 *       attempt has a receive budget ({@code transferTimeoutSeconds}, MX_TRANSFER_TIMEOUT or 300 s) after which
 *       it counts as failed.</li>
 *   <li>ASSUMPTION {@code retryDelaySeconds}: the time between the error and the next attempt (rollback,
 *       model re-initialisation, metadata fetch, a new endpoint) is not published; 0 s unless the
 *       scenario sets {@code faults.retryDelay}.</li>
 *   <li>ASSUMPTION for a list of transfers: what an application does with a failed NIXL transfer is its
 *       own; with {@code repost} rdmasim posts it again, whole, after {@code retryDelaySeconds}, on a new
 *       endpoint whose lanes avoid ports that are down (UCX only selects lanes on active ports); without
 *       it the transfer is reported failed.</li>
 *   <li>ASSUMPTION: a host that leaves is dropped from the fan-out's list of sources at once (the
 *       ModelExpress server learns of it from missed heartbeats, MX_HEARTBEAT_INTERVAL_SECS=30 by
 *       default, which rdmasim does not model).</li>
 * </ul>
 */
public record FaultPlan(List<Fault> faults, QpRetry qpRetry, double retryDelaySeconds, boolean repost,
        double transferTimeoutSeconds) {
    /** rdma_strategy.py L39 (v0.5.1): MAX_SOURCE_RETRIES = 3, the candidates a receiver tries. */
    public static final int MAX_SOURCE_ATTEMPTS = 3;

    public static final FaultPlan NONE = new FaultPlan(List.of(), QpRetry.UCX_DEFAULT, 0, false, 300);

    public FaultPlan {
        faults = List.copyOf(faults);
    }

    public boolean isEmpty() {
        return faults.isEmpty();
    }

    /** The same reaction with no faults: the run a fault's cost is measured against. */
    public FaultPlan withoutFaults() {
        return new FaultPlan(List.of(), qpRetry, retryDelaySeconds, repost, transferTimeoutSeconds);
    }

    /** True when registration of {@code host}'s buffers fails. */
    public boolean registrationFails(String host) {
        for (Fault f : faults) {
            if (f instanceof Fault.RegistrationFailure r && r.host().equals(host)) {
                return true;
            }
        }
        return false;
    }

    /** The registration failure of {@code host}, for messages. */
    public String registrationFailure(String host) {
        for (Fault f : faults) {
            if (f instanceof Fault.RegistrationFailure r && r.host().equals(host)) {
                return "NIXL_ERR_BACKEND: registration of " + host + "'s buffers failed on " + r.nic()
                        + " (ucp_mem_map fails the whole buffer when one HCA fails)";
            }
        }
        return null;
    }
}
