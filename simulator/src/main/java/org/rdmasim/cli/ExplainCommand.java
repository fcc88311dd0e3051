package org.rdmasim.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import org.rdmasim.hardware.Units;
import java.util.Set;
import java.util.concurrent.Callable;
import org.rdmasim.hardware.Hosts;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.LinkSpec;
import org.rdmasim.hardware.TopologyNode;
import org.rdmasim.report.ReceiverSummary;
import org.rdmasim.scenario.Scenario;
import org.rdmasim.scenario.ScenarioLoader;
import org.rdmasim.run.VariantRunner;
import org.rdmasim.scenario.VariantSpec;
import org.rdmasim.transport.DataPath;
import org.rdmasim.transport.LaneSplit;
import org.rdmasim.transport.Operation;
import org.rdmasim.transport.TransferSpec;
import org.rdmasim.transport.config.EffectiveConfig;
import org.rdmasim.transport.config.StackVersion;
import org.rdmasim.transport.ucx.HcaEstimate;
import org.rdmasim.transport.ucx.LaneDecision;
import org.rdmasim.transport.ucx.LaneVerdict;
import org.rdmasim.transport.ucx.UcxLane;
import org.rdmasim.transport.ucx.UcxLaneSelection;
import org.rdmasim.workload.TransferItem;
import org.rdmasim.workload.VariantOutcome;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code rdmasim explain SCENARIO [--variant NAME]}: the lanes UCX would pick, and why. */
@Command(name = "explain", mixinStandardHelpOptions = true,
        description = {"Show the lanes UCX would pick for a scenario's transfers, and why.", "",
                "For each transfer of a scenario: the effective UCX/NIXL/ModelExpress configuration with the",
                "layer that set each value, every candidate HCA with UCX's bandwidth estimate and distance, the lanes",
                "picked and their weights (in the shape of UCX_PROTO_INFO=y), and the line-rate floor next to the",
                "modelled pull time."})
public final class ExplainCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "SCENARIO.yaml")
    java.nio.file.Path scenarioFile;

    @Option(names = "--variant", paramLabel = "NAME", description = "only this variant (default: all)")
    String variant;

    @Option(names = "--transfers", defaultValue = "1",
            description = "distinct transfers to explain per variant (default ${DEFAULT-VALUE})")
    int maxTransfers;

    @Option(names = "--allow-outside", description = "read files the scenario names (envFile, nvidia-smi, nccl-topo) "
            + "even when they are outside the scenario's folder")
    boolean allowOutside;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        Scenario scenario = ScenarioLoader.load(scenarioFile, allowOutside);
        List<VariantSpec> chosen = new ArrayList<>();
        for (VariantSpec v : scenario.variants()) {
            if (variant == null || v.name().equals(variant)) {
                chosen.add(v);
            }
        }
        if (chosen.isEmpty()) {
            throw new BadInputException("no variant named '" + variant + "' in " + scenarioFile + " (variants: "
                    + String.join(", ", scenario.variants().stream().map(VariantSpec::name).toList()) + ")");
        }
        for (VariantSpec v : chosen) {
            explain(out, scenario, v);
        }
        out.flush();
        return Main.OK;
    }

    private void explain(PrintWriter out, Scenario scenario, VariantSpec v) {
        out.println("=".repeat(100));
        out.println("variant " + v.name() + (v.description().isEmpty() ? "" : ": " + v.description()));
        List<Host> hosts = new ArrayList<>();
        v.hosts().forEach((n, s) -> hosts.add(new Host(n, s)));
        Hosts cluster = Hosts.of(hosts);
        VariantOutcome outcome = VariantRunner.run(v, scenario.seed());
        // Lanes as the run chose them: only HCAs holding the buffer's registration (its rkey) carry a lane.
        VariantRunner.Held held = VariantRunner.registrationsOf(v);
        Set<String> seen = new HashSet<>();
        int shown = 0;
        List<TransferItem> items = v.transfers();
        if (v.isFanout()) {
            var plan = v.fanoutPlan();
            items = plan.firstPull();
            out.printf(Locale.ROOT, "%nfan-out of %d receivers from %d source(s): the first receiver's %s shown (every "
                    + "receiver of the same host shape chooses the same lanes)%n", plan.receivers().size(),
                    plan.sources().size(), plan.operation() == Operation.READ ? "pull from the first source is"
                            : "push from the first source is");
        }
        for (TransferItem t : items) {
            if (shown >= maxTransfers || !seen.add(t.from() + ">" + t.to())) {
                continue;
            }
            shown++;
            TransferSpec ts = new TransferSpec(t.id(), t.from(), t.to(), t.bytes(), t.operation(), t.descriptors(),
                    DataPath.GPUDIRECT, DataPath.GPUDIRECT, false, 0);
            out.printf(Locale.ROOT, "%ntransfer %s: %s from %s into %s, %s%n", t.id(),
                    t.operation() == Operation.READ ? "RDMA READ (pull)" : "RDMA WRITE (push)", t.from(), t.to(), bytes(t.bytes()));
            List<LaneSplit.Candidate> lanes;
            if (!v.transport().lanes().isEmpty()) {
                out.println("lanes are given explicitly by the scenario: UCX's own choice is bypassed");
                lanes = v.transport().lanes();
            } else if (v.transport().backend().backend() == org.rdmasim.transport.NixlBackend.LIBFABRIC) {
                var d = new org.rdmasim.transport.libfabric.LibfabricRails(v.transport().backend().visibleDevices(),
                        v.transport().stack().nixl()).decide(cluster, ts);
                out.println();
                d.describe(ts.initiator().toString(), (t.operation() == Operation.READ ? t.from() : t.to()).toString())
                        .forEach(out::println);
                lanes = d.lanes();
                floor(out, cluster, ts, lanes, outcome);
                continue;
            } else {
                LaneDecision d = new UcxLaneSelection(v.transport().stack(), v.transport().api(), held.lanes())
                        .decide(cluster, ts);
                out.printf("%neffective configuration of the initiating process (%s):%n", ts.initiator());
                out.print(indent(d.initiatorConfig().describe()));
                for (String s : d.initiatorConfig().decisions()) {
                    out.println("  note: " + s);
                }
                for (String w : d.warnings()) {
                    out.println("  warning: " + w);
                }
                out.printf(Locale.ROOT, "%ncandidate HCAs (rail limit %s=%d, UCX_MULTI_LANE_MAX_RATIO=%s):%n",
                        d.railLimitName(), d.railLimit(), trim(d.ratio()));
                candidates(out, "initiator " + ts.initiator(), d.local());
                candidates(out, "remote " + (t.operation() == Operation.READ ? t.from() : t.to()), d.remote());
                laneTable(out, d);
                lanes = d.picked();
            }
            protoInfo(out, ts, lanes);
            writeOrdering(out, cluster, ts, lanes, held.ordering());
            ncclGdr(out, cluster, v, ts);
            floor(out, cluster, ts, lanes, outcome);
        }
        faults(out, v, outcome);
    }

    /** The variant's faults, how the stack reacts to them (with the parameters it reads), and their cost. */
    private static void faults(PrintWriter out, VariantSpec v, VariantOutcome outcome) {
        var plan = v.faults();
        if (plan.isEmpty()) {
            return;
        }
        var qp = plan.qpRetry();
        out.printf(Locale.ROOT, "%nfaults scheduled:%n");
        for (var f : plan.faults()) {
            out.printf(Locale.ROOT, "  at %s s: %s%n", Units.number(f.atSeconds()), f.describe());
        }
        out.printf(Locale.ROOT, "reaction (the real stack's, with the values this process reads):%n");
        out.printf(Locale.ROOT, "  a lane through a port that is down stalls; UCX does not move a posted operation to "
                + "another lane%n");
        out.printf(Locale.ROOT, "  QP ACK timer: UCX_RC_TIMEOUT=%s s -> 4.096 us x 2^%d = %s s; UCX_RC_RETRY_COUNT=%d: the QP "
                + "fails %s s after the stall (UCS_ERR_ENDPOINT_TIMEOUT -> NIXL_ERR_REMOTE_DISCONNECT)%n",
                Units.number(qp.timeoutSeconds()), qp.exponent(), Units.number(qp.tickSeconds()), qp.retryCount(),
                Units.number(qp.errorAfterSeconds()));
        out.printf(Locale.ROOT, "  a port back before that: the lane resumes at its QP's next retransmission%n");
        if (v.isFanout()) {
            out.printf(Locale.ROOT, "  a receiver whose pull failed tries another source, %d in all, each within a receive "
                    + "budget of %s s (MX_TRANSFER_TIMEOUT), then falls back to storage (not modelled)%n",
                    org.rdmasim.workload.FaultPlan.MAX_SOURCE_ATTEMPTS, Units.number(plan.transferTimeoutSeconds()));
        } else {
            out.printf(Locale.ROOT, "  a failed transfer is %s%n", plan.repost()
                    ? "posted again, whole, on the same lanes (ASSUMED: the application re-posts)"
                    : "reported failed (the application's reaction is its own; set faults.repost to re-post)");
        }
        out.printf(Locale.ROOT, "  ASSUMED: %s s between an error and the next attempt (faults.retryDelay)%n",
                Units.number(plan.retryDelaySeconds()));
        var c = outcome.faultCost();
        if (c != null) {
            out.printf(Locale.ROOT, "cost: makespan %s s (%s s without the faults), %d attempt(s) failed, %d gave up%n",
                    Units.number(c.makespanWith()), Units.number(c.makespanWithout()), c.failedAttempts(), c.gaveUp());
        }
    }

    private static void candidates(PrintWriter out, String side, List<HcaEstimate> list) {
        out.printf("  %s%n", side);
        out.printf(Locale.ROOT, "    %-9s %-8s %12s %16s %10s %10s %14s %6s %11s%n", "HCA", "relation", "distance",
                "distance bw", "wire", "PCIe", "UCX estimate", "paths", "path ratio");
        for (HcaEstimate e : list) {
            String bw = Double.isInfinite(e.distance().bandwidthBytesPerSecond()) ? "no limit"
                    : String.format(Locale.ROOT, "%.2f GB/s", e.distance().bandwidthBytesPerSecond() / 1e9);
            out.printf(Locale.ROOT, "    %-9s %-8s %9.0f ns %16s %5.1f GB/s %5.1f GB/s %9.2f GB/s %6d %11.3f%n", e.nic(),
                    e.relation() == null ? "host" : e.relation(), e.distance().latencySeconds() * 1e9, bw,
                    e.wireBytesPerSecond() / 1e9, e.pcieBytesPerSecond() / 1e9, e.estimate() / 1e9, e.paths(),
                    e.pathRatio());
        }
    }

    /** Every (device, path) lane UCX considered, in lane order, with what selection made of it. */
    private static void laneTable(PrintWriter out, LaneDecision d) {
        out.printf(Locale.ROOT, "%n  lanes (device, path), in lane order; estimates rank and weight lanes, they never cap them%n");
        out.printf(Locale.ROOT, "    %-9s %-5s %-9s %14s %17s  %s%n", "HCA", "path", "peer", "lane bw",
                "avail_bw at pick", "verdict");
        for (UcxLane l : d.lanes()) {
            String avail = l.verdict() == LaneVerdict.PICKED ? String.format(Locale.ROOT, "%9.2f GB/s", l.availBw() / 1e9) : "-";
            out.printf(Locale.ROOT, "    %-9s %-5s %-9s %9.2f GB/s %17s  %s%n", l.nic(), "path" + l.path(), l.peerNic(),
                    l.bandwidth() / 1e9, avail, l.verdict().words());
        }
    }

    /** The lanes in the table shape UCX prints with UCX_PROTO_INFO=y. */
    private static void protoInfo(PrintWriter out, TransferSpec ts, List<LaneSplit.Candidate> lanes) {
        double total = lanes.stream().mapToDouble(LaneSplit.Candidate::weight).sum();
        // UCX_PROTO_INFO groups a device's paths: "rc_mlx5/mlx5_0:1 50% on path0 and 50% on path1"
        java.util.Map<String, List<String>> byDevice = new java.util.LinkedHashMap<>();
        for (LaneSplit.Candidate c : lanes) {
            String nic = ts.operation() == Operation.READ ? c.sinkNic() : c.sourceNic();
            long weight = Math.min(65536L, (long) Math.ceil(c.weight() * 65536.0 / total));
            byDevice.computeIfAbsent(nic, k -> new java.util.ArrayList<>()).add(String.format(Locale.ROOT,
                    "%.0f%% on path%d", 100.0 * weight / 65536.0, c.path()));
        }
        StringBuilder lanesText = new StringBuilder();
        for (var e : byDevice.entrySet()) {
            if (lanesText.length() > 0) {
                lanesText.append(", ");
            }
            List<String> parts = e.getValue();
            lanesText.append("rc_mlx5/").append(e.getKey()).append(":1 ");
            for (int i = 0; i < parts.size(); i++) {
                lanesText.append(i == 0 ? "" : i == parts.size() - 1 ? " and " : ", ").append(parts.get(i));
            }
        }
        // the initiator's buffer names the memory type UCX_PROTO_INFO prints: host for a CPU socket
        String memory = ts.initiator().device().startsWith("CPU") ? "host memory" : "cuda memory";
        String title = ts.operation() == Operation.READ ? "remote memory read by ucp_get_nbx* into " + memory
                : "remote memory write by ucp_put_nbx* from " + memory;
        String head = " rdmasim " + ts.initiator() + " ";
        String row1 = String.format(Locale.ROOT, " %14s ", "0..inf");
        String proto = lanes.size() > 1 ? " multi-rail zero-copy " : " zero-copy ";
        int w1 = Math.max(head.length(), row1.length());
        int w2 = Math.max(title.length() + 2, proto.length() + lanesText.length() + 3);
        String line = "+" + "-".repeat(w1) + "+" + "-".repeat(w2) + "+";
        out.println();
        out.println(line);
        out.println("|" + pad(head, w1) + "|" + pad(" " + title + " ", w2) + "|");
        out.println(line);
        out.println("|" + pad(row1, w1) + "|" + pad(proto + "| " + lanesText + " ", w2) + "|");
        out.println(line);
    }

    /**
     * What NCCL at the scenario's release would decide about GPUDirect RDMA from the initiating GPU to each
     * NIC of its host, in the words of NCCL's INFO line; beside, not part of, the NIXL/UCX transfer.
     */
    /**
     * How each sink NIC writes into the sink buffer: relaxed or strict PCIe order (from the buffer's
     * registration), and what strict order costs on this platform.
     */
    private static void writeOrdering(PrintWriter out, Hosts cluster, TransferSpec ts, List<LaneSplit.Candidate> lanes,
            org.rdmasim.transport.WriteOrdering ordering) {
        Host sink = cluster.host(ts.sink().host());
        var route = sink.profile().strictOrderGpuWriteRate();
        Set<String> nics = new java.util.LinkedHashSet<>();
        lanes.forEach(l -> nics.add(l.sinkNic()));
        for (String nic : nics) {
            boolean strict = ordering.strict(ts.sink().host(), ts.sink().device(), nic);
            out.printf(Locale.ROOT, "writes by %s:%s into %s: %s%n", ts.sink().host(), nic, ts.sink(), !strict
                    ? "relaxed PCIe order (the buffer's MR there carries IBV_ACCESS_RELAXED_ORDERING)"
                    : "strict PCIe order (no relaxed-ordering MR: UCX_IB_PCI_RELAXED_ORDERING and the UCX release's CPU "
                            + "list)" + (route.isPresent() && sink.find(ts.sink().device()).map(d -> d.kind()
                                    == org.rdmasim.hardware.TopologyNode.Kind.GPU).orElse(false)
                                            ? ", which on this platform runs at " + route.get().describe() + " [profile "
                                                    + sink.profile().name() + "]"
                                            : "; no slower route is known on this platform"));
        }
    }

    private static void ncclGdr(PrintWriter out, Hosts cluster, VariantSpec v, TransferSpec ts) {
        Host host = cluster.host(ts.initiator().host());
        TopologyNode gpu = host.find(ts.initiator().device()).orElse(null);
        if (gpu == null || gpu.kind() != TopologyNode.Kind.GPU) {
            return;
        }
        var stack = v.transport().stack();
        StackVersion release = stack.ncclRelease();
        EffectiveConfig config = stack.configFor(host, gpu);
        boolean c2c = gpu.uplink() != null && gpu.uplink().type() == LinkSpec.LinkType.C2C;
        out.printf(Locale.ROOT, "%nNCCL %s GPUDirect RDMA from %s (%s; src/graph/paths.cc ncclTopoCheckGdr): "
                + "NCCL's rule, not read by NIXL/UCX transfers%n", release,
                ts.initiator(), stack.nccl().isPresent() ? "transport.nccl" : "release assumed, set transport.nccl");
        out.printf(Locale.ROOT, "    %-9s %-8s %s%n", "HCA", "relation", "NCCL decision");
        for (TopologyNode nic : host.nics()) {
            var relation = host.relation(gpu, nic);
            out.printf(Locale.ROOT, "    %-9s %-8s %s%n", nic.name(), relation,
                    config.ncclGdr(release, relation, c2c).words());
        }
    }

    private static void floor(PrintWriter out, Hosts cluster, TransferSpec ts, List<LaneSplit.Candidate> lanes,
            VariantOutcome outcome) {
        Host sink = cluster.host(ts.sink().host());
        double wire = 0;
        Set<String> used = new HashSet<>();
        for (LaneSplit.Candidate c : lanes) {
            if (used.add(c.sinkNic())) {
                TopologyNode n = sink.nic(c.sinkNic());
                wire += n.nic().payloadBytesPerSecond();
            }
        }
        double floor = ts.bytes() / wire;
        out.printf(Locale.ROOT, "line-rate floor: %s over %d NIC(s) at wire rate (%.0f Gbps) takes at least %.4f s%n",
                bytes(ts.bytes()), used.size(), wire * 8 / 1e9, floor);
        // Every lane also leaves its GPU through one link: that cut can be narrower than the NICs.
        for (var end : List.of(ts.source(), ts.sink())) {
            TopologyNode d = cluster.host(end.host()).find(end.device()).orElse(null);
            if (d != null && d.uplink() != null && d.uplink().bytesPerSecond() < wire) {
                out.printf(Locale.ROOT, "GPU link floor:  %s through %s's %s (%.0f Gbps) takes at least %.4f s%n",
                        bytes(ts.bytes()), end, d.uplink().describe(), d.uplink().bytesPerSecond() * 8 / 1e9,
                        ts.bytes() / d.uplink().bytesPerSecond());
            }
        }
        Set<String> profiles = new HashSet<>();
        for (var end : List.of(ts.source(), ts.sink())) {
            var profile = cluster.host(end.host()).profile();
            if (!profiles.add(profile.name())) {
                continue;
            }
            for (var p : profile.assumptions()) {
                out.printf(Locale.ROOT, "rests on (profile %s): %s%n", profile.name(), p.describe());
                if (!p.assumption().isEmpty()) {
                    out.printf(Locale.ROOT, "    %s%n", p.assumption());
                }
            }
        }
        if (outcome.result() != null) {
            for (ReceiverSummary.Receiver r : ReceiverSummary.of(outcome.result()).receivers()) {
                if (r.id().equals(ts.sink().toString())) {
                    out.printf(Locale.ROOT, "modelled:        %.4f s (%.1f Gbps), limited by %s%n", r.pullSeconds(), r.gbps(),
                            r.bottleneck().id());
                }
            }
        } else {
            out.println("modelled:        variant failed: " + outcome.error().lines().findFirst().orElse(""));
        }
    }

    private static String pad(String s, int w) {
        return s.length() >= w ? s : s + " ".repeat(w - s.length());
    }

    private static String indent(String s) {
        StringBuilder b = new StringBuilder();
        for (String l : s.split("\n")) {
            b.append("  ").append(l).append('\n');
        }
        return b.toString();
    }

    private static String trim(double v) {
        return v == Math.rint(v) ? String.valueOf((long) v) : String.valueOf(v);
    }

    private static String bytes(long b) {
        return b % 1_000_000_000L == 0 ? (b / 1_000_000_000L) + " GB" : b + " B";
    }
}
