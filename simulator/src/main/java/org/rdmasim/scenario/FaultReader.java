package org.rdmasim.scenario;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.TopologyNode;
import org.rdmasim.transport.QpRetry;
import org.rdmasim.workload.Fault;
import org.rdmasim.workload.FanoutPlan;
import org.rdmasim.workload.FaultPlan;

/**
 * Reads a scenario's {@code faults} section:
 *
 * <pre>
 * faults:
 *   retryDelay: 0 s        # between an error and the next attempt (assumed; not published)
 *   repost: true           # a list of transfers: post a failed transfer again
 *   events:
 *     - {kind: nic-down, host: receiver, nic: mlx5_1, at: 40 ms, until: 1.5 s}
 *     - {kind: degraded, host: source, nic: mlx5_0, fraction: 0.5, at: 10 ms}
 *     - {kind: degraded, resource: "source:mlx5_0 tx", fraction: 0.5, at: 10 ms}
 *     - {kind: source-loss, host: source-2, at: 200 ms}
 *     - {kind: registration-failure, host: receiver-0003, nic: mlx5_0}
 * </pre>
 *
 * The QP retry timing and the fan-out's receive budget come from the environment the process sees
 * (UCX_RC_TIMEOUT, UCX_RC_RETRY_COUNT, MX_TRANSFER_TIMEOUT), not from this section.
 */
final class FaultReader {
    private static final Set<String> KINDS = Set.of("nic-down", "degraded", "source-loss", "registration-failure");
    /** More scheduled faults than this is not a fault study but a different run: refuse it. */
    private static final int MAX_EVENTS = 10_000;

    private FaultReader() {
    }

    static FaultPlan read(YamlTree v, HostTable hosts, FanoutPlan fanout, QpRetry qp, double mxTransferTimeoutSeconds) {
        v.onlyFields(Set.of("retryDelay", "repost", "events"));
        double retryDelay = v.has("retryDelay") ? Quantities.seconds(v.get("retryDelay")) : 0.0;
        boolean repost = v.has("repost") && v.get("repost").bool();
        if (repost && fanout != null) {
            throw v.get("repost").error("repost is for a list of transfers; a fan-out's receivers retry other "
                    + "sources as ModelExpress does");
        }
        List<Fault> faults = new ArrayList<>();
        if (!v.has("events")) {
            throw v.error("faults needs a list of events (kind: nic-down, degraded, source-loss or registration-failure)");
        }
        List<YamlTree> events = v.get("events").items();
        if (events.size() > MAX_EVENTS) {
            throw v.get("events").error("at most " + MAX_EVENTS + " fault events, got " + events.size());
        }
        for (YamlTree e : events) {
            faults.add(event(e, hosts, fanout));
        }
        if (faults.isEmpty()) {
            throw v.get("events").error("the list of fault events is empty");
        }
        return new FaultPlan(faults, qp, retryDelay, repost, mxTransferTimeoutSeconds);
    }

    private static Fault event(YamlTree e, HostTable hosts, FanoutPlan fanout) {
        if (!e.has("kind")) {
            throw e.error("a fault needs a kind: " + String.join(", ", KINDS.stream().sorted().toList()));
        }
        String kind = e.get("kind").text();
        switch (kind) {
            case "nic-down" -> {
                e.onlyFields(Set.of("kind", "host", "nic", "at", "until"));
                String host = host(e, hosts);
                String nic = nic(e, hosts, host);
                double at = Quantities.seconds(e.get("at"));
                double until = until(e, at);
                return new Fault.PortDown(host, nic, at, until);
            }
            case "degraded" -> {
                e.onlyFields(Set.of("kind", "host", "nic", "resource", "fraction", "at", "until"));
                double fraction = Parameters.DEGRADED_FRACTION.fromYaml(e.get("fraction"));
                double at = Quantities.seconds(e.get("at"));
                double until = until(e, at);
                if (e.has("resource")) {
                    if (e.has("host") || e.has("nic")) {
                        throw e.get("resource").error("name either a resource or a host and nic, not both");
                    }
                    return new Fault.Degraded(null, null, e.get("resource").text(), fraction, at, until);
                }
                String host = host(e, hosts);
                return new Fault.Degraded(host, nic(e, hosts, host), null, fraction, at, until);
            }
            case "source-loss" -> {
                e.onlyFields(Set.of("kind", "host", "at"));
                String host = host(e, hosts);
                if (fanout != null && fanout.sources().stream().noneMatch(s -> s.host().equals(host))) {
                    throw e.get("host").error("'" + host + "' is not a source of the fan-out (sources: "
                            + fanout.sources().stream().map(FanoutPlan.Member::host).collect(Collectors.joining(", ")) + ")");
                }
                return new Fault.SourceLoss(host, Quantities.seconds(e.get("at")));
            }
            case "registration-failure" -> {
                e.onlyFields(Set.of("kind", "host", "nic"));
                String host = host(e, hosts);
                return new Fault.RegistrationFailure(host, nic(e, hosts, host));
            }
            default -> throw e.get("kind").error("unknown fault kind '" + kind + "' (expected one of "
                    + String.join(", ", KINDS.stream().sorted().toList()) + ")" + YamlTree.suggestion(kind.trim(), KINDS));
        }
    }

    private static double until(YamlTree e, double at) {
        if (!e.has("until")) {
            return Double.POSITIVE_INFINITY;
        }
        double until = Quantities.seconds(e.get("until"));
        if (!(until > at)) {
            throw e.get("until").error("until must come after at");
        }
        return until;
    }

    private static String host(YamlTree e, HostTable hosts) {
        String host = e.get("host").text();
        if (!hosts.has(host)) {
            throw e.get("host").error("no host named '" + host + "' (hosts: " + hosts.describe() + ")");
        }
        return host;
    }

    private static String nic(YamlTree e, HostTable hosts, String host) {
        String nic = e.get("nic").text();
        Host h = hosts.representative(host);
        if (h.nics().stream().noneMatch(n -> n.name().equals(nic))) {
            throw e.get("nic").error("host '" + host + "' has no NIC named '" + nic + "' (NICs: "
                    + h.nics().stream().map(TopologyNode::name).collect(Collectors.joining(", ")) + ")");
        }
        return nic;
    }
}
