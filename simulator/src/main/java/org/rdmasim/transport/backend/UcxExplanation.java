package org.rdmasim.transport.backend;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.Hosts;
import org.rdmasim.hardware.LinkSpec;
import org.rdmasim.hardware.PathType;
import org.rdmasim.hardware.TopologyNode;
import org.rdmasim.hardware.Units;
import org.rdmasim.transport.DataPath;
import org.rdmasim.transport.LaneSplit;
import org.rdmasim.transport.Operation;
import org.rdmasim.transport.RmaEmulation;
import org.rdmasim.transport.TransferSpec;
import org.rdmasim.transport.WriteOrdering;
import org.rdmasim.transport.citation.CitedNote;
import org.rdmasim.transport.config.EffectiveConfig;
import org.rdmasim.transport.config.NcclGdr;
import org.rdmasim.transport.config.StackVersion;
import org.rdmasim.transport.config.UcxSite;
import org.rdmasim.transport.ucx.BwLanePairing;
import org.rdmasim.transport.ucx.HcaEstimate;
import org.rdmasim.transport.ucx.LaneDecision;
import org.rdmasim.transport.ucx.LaneVerdict;
import org.rdmasim.transport.ucx.StackProfile;
import org.rdmasim.transport.ucx.UcxLane;
import org.rdmasim.transport.ucx.UcxLaneSelection;
import org.rdmasim.transport.ucx.WireupFastLanes;

/** {@code explain}'s lines for a transfer carried by NIXL's UCX backend, in UCX's terms. */
final class UcxExplanation {
    private UcxExplanation() {
    }

    /** The initiator's effective configuration, every candidate HCA and every lane UCX considered. */
    static List<String> choice(TransferSpec ts, LaneDecision d, java.util.Collection<String> storageLeftOut) {
        List<String> out = new ArrayList<>();
        out.add("");
        out.add(String.format("effective configuration of the initiating process (%s):", ts.initiator()));
        for (String l : d.initiatorConfig().describe().split("\n")) {
            out.add("  " + l);
        }
        for (String s : d.initiatorConfig().decisions()) {
            out.add("  note: " + s);
        }
        for (String w : d.warnings()) {
            out.add("  warning: " + w);
        }
        out.add("");
        out.add(String.format(Locale.ROOT, "candidate HCAs (rail limit %s=%d, UCX_MULTI_LANE_MAX_RATIO=%s):",
                d.railLimitName(), d.railLimit(), trim(d.ratio())));
        candidates(out, "initiator " + ts.initiator(), d.local());
        candidates(out, "remote " + (ts.operation() == Operation.READ ? ts.source() : ts.sink()), d.remote());
        if (!storageLeftOut.isEmpty()) {
            out.add("  not candidates: storage/management port(s) " + String.join(", ", storageLeftOut)
                    + " (on the storage network, not the compute fabric; a lane only where UCX_NET_DEVICES names one)");
        }
        StackVersion ucx = d.initiatorConfig().ucxVersion();
        out.add("  distance: " + org.rdmasim.transport.ucx.UcxTopoDistance.source(ucx) + " (UCX_DISTANCE_BW replaces it)");
        // the two steps see one distance at two precisions: a reader comparing this table with the wireup line
        // below (1.8 Gbps where the table shows 4.3 for a SYS NIC) must be told which is which
        out.add("  distance, distance bw, UCX estimate: as the lanes' protocol sees them, each distance packed to UCX's "
                + "8-bit float and unpacked, as ucp_proto_common_get_lane_distance does (a bandwidth"
                + " under 512 MiB/s reads 512 MiB/s, 4.3 Gbps); "
                + "wireup's fast-lane filter below rates the unpacked figures");
        out.add("  paths, path ratio: " + org.rdmasim.transport.ucx.UcxPaths.source(ucx));
        laneTable(out, d);
        return out;
    }

    private static void candidates(List<String> out, String side, List<HcaEstimate> list) {
        out.add(String.format("  %s", side));
        // rates in Gbps as everywhere in rdmasim; UCX's own estimate also in GB/s, the unit its source and logs use
        out.add(String.format(Locale.ROOT, "    %-9s %-8s %12s %13s %10s %10s %26s %6s %11s", "HCA", "relation", "distance",
                "distance bw", "UCX wire", "PCIe", "UCX estimate", "paths", "path ratio"));
        for (HcaEstimate e : list) {
            String bw = Double.isInfinite(e.distance().bandwidthBytesPerSecond()) ? "no limit"
                    : gbps(e.distance().bandwidthBytesPerSecond());
            out.add(String.format(Locale.ROOT, "    %-9s %-8s %9.0f ns %13s %10s %10s %14s (%6.2f GB/s) %6d %11.3f",
                    e.nic(), e.relation() == null ? "host" : e.relation(), e.distance().latencySeconds() * 1e9, bw,
                    gbps(e.wireBytesPerSecond()), gbps(e.pcieBytesPerSecond()), gbps(e.estimate()), e.estimate() / 1e9,
                    e.paths(), e.pathRatio()));
        }
    }

    /** Every (device, path) lane UCX considered, in lane order, with what selection made of it. */
    private static void laneTable(List<String> out, LaneDecision d) {
        out.add("");
        out.add("  lanes (device, path), in lane order; estimates rank and weight lanes, they never cap them");
        out.add(String.format(Locale.ROOT, "    %-9s %-5s %-9s %14s %17s  %s", "HCA", "path", "peer", "lane bw",
                "avail_bw at pick", "verdict"));
        for (UcxLane l : d.lanes()) {
            String avail = l.verdict() == LaneVerdict.PICKED ? gbps(l.availBw()) : "-";
            out.add(String.format(Locale.ROOT, "    %-9s %-5s %-9s %14s %17s  %s", l.nic(), "path" + l.path(),
                    l.peerNic(), gbps(l.bandwidth()), avail, l.verdict().words()));
        }
        // each verdict's code, once, in the order the table first shows it
        d.lanes().stream().map(UcxLane::verdict).distinct().forEach(v ->
                out.add("    " + v.words() + ": " + v.source(d.initiatorConfig().ucxVersion())));
        StackVersion ucx = d.initiatorConfig().ucxVersion();
        out.add("    " + wireupFilter(d.wireupFilter()) + "; source: "
                + org.rdmasim.transport.citation.Citation.join(WireupFastLanes.sources(ucx)));
        out.add("    peer: " + UcxLaneSelection.PEER_PAIRING + "; source: "
                + org.rdmasim.transport.citation.Citation.join(BwLanePairing.sources(ucx)));
        out.add("    peer, ASSUMED: " + String.join("; ", UcxLaneSelection.PEER_PAIRING_ASSUMPTIONS) + "; source: "
                + org.rdmasim.transport.citation.Citation.join(BwLanePairing.assumptionSources(ucx)));
        if (!d.registeredAtFirstUse().isEmpty()) {
            out.add("    the initiator's buffer is not registered on " + String.join(", ", d.registeredAtFirstUse())
                    + ": UCX registers it there when the first get or put on that lane is posted; rdmasim adds that "
                    + "registration (time, MRs, firmware memory) to the registration the pull waits for, not to the "
                    + "pull itself; source: " + UcxSite.MEMH_REGISTER_AT_USE.cite(ucx).text());
        }
    }

    /**
     * What wireup's fast-lane filter did: the bandwidth it compares, the best wired lane, and the lanes it dropped
     * (or that it kept them all), each as "mlx5_2 path0 -> mlx5_2 1.8 Gbps".
     */
    static String wireupFilter(WireupFastLanes f) {
        String head = "wireup's fast-lane filter (endpoint creation, before any buffer; UCX_MULTI_LANE_MAX_RATIO="
                + trim(f.ratio()) + ")";
        if (!f.inForce()) {
            return head + ": not in this release (UCX adds it in v1.14.1), every wired lane is added";
        }
        String rule = head + ": each wired lane rated the lesser of its two HCAs' bandwidths (interface capped by the "
                + "distance to the GPU, none for host memory, the remote one as its worker address carries it; no "
                + "path share, no 8-bit packing); best wired lane " + gbps(f.best()) + ", so a lane under " + gbps(f.threshold())
                + " is not wired";
        List<WireupFastLanes.Rated> dropped = f.dropped();
        if (dropped.isEmpty()) {
            return rule + ": keeps all " + f.wired().size() + " wired lanes";
        }
        List<String> lanes = new ArrayList<>();
        for (WireupFastLanes.Rated r : dropped) {
            lanes.add(r.wire().localNic() + " path" + r.wire().localPath() + " -> " + r.wire().remoteNic() + " "
                    + gbps(r.bandwidth()));
        }
        return rule + ": drops " + String.join(", ", lanes);
    }

    /** A rate in bytes per second as rdmasim shows rates: Gbps (1e9 bit/s). */
    private static String gbps(double bytesPerSecond) {
        return String.format(Locale.ROOT, "%.1f Gbps", Units.bytesPerSecondToGbps(bytesPerSecond));
    }

    /**
     * The lanes in the table UCX prints with UCX_PROTO_INFO=y (openucx/ucx v1.20.0): the header names the
     * endpoint configuration ({@code ucp_ep_config_name}, ucp_ep.c L2014-2033) and the operation
     * ({@code ucp_proto_select_info_str}: "remote memory read by ucp_get*" from proto.c L109-110, the local
     * buffer as {@code ucp_proto_debug_mem_info_str} names it: "cuda/GPU0", as cuda_md.c L121 names a GPU's
     * system device, or "host memory"; the remote key's memory type as {@code ucp_rkey_config_dump_brief}
     * writes it, without its system-device index, which rdmasim does not know). The lanes column follows
     * {@code ucp_proto_multi_query_config} (proto_multi.c L537-592): one device is named once, before the
     * shares; several devices each get "N% on rc_mlx5/DEV:1", with "/pathK" where the device has more than one
     * path ({@code ucp_proto_common_lane_priv_str}, proto_common.c L111-137); shares are each lane's weight
     * out of 65536 scaled to 100 rounding up, the last taking what remains; "A, B and C".
     *
     * @param pathsPerDevice paths per port of each initiator device (UCX's {@code dev_num_paths})
     */
    static ProtocolTable protoInfo(TransferSpec ts, List<LaneSplit.Candidate> planned,
            java.util.function.ToIntFunction<String> pathsPerDevice) {
        List<LaneSplit.Candidate> lanes = RmaEmulation.lanes(ts, planned);
        double total = lanes.stream().mapToDouble(LaneSplit.Candidate::weight).sum();
        List<String> nics = new ArrayList<>();
        for (LaneSplit.Candidate c : lanes) {
            nics.add(ts.operation() == Operation.READ ? c.sinkNic() : c.sourceNic());
        }
        boolean sameDevice = nics.stream().distinct().count() == 1;
        boolean samePath = lanes.stream().map(LaneSplit.Candidate::path).distinct().count() == 1;
        StringBuilder config = new StringBuilder();
        if (sameDevice) {
            config.append(laneName(nics.get(0), lanes.get(0).path(), true, samePath, pathsPerDevice)).append(' ');
        }
        long remaining = 100;
        for (int i = 0; i < lanes.size(); i++) {
            long weight = Math.min(65536L, (long) Math.ceil(lanes.get(i).weight() * 65536.0 / total));
            long percent = Math.min(remaining, (weight * 100 + 65535) >> 16);
            remaining -= percent;
            if (percent != 100) {
                config.append(percent).append("% on ");
            }
            config.append(laneName(nics.get(i), lanes.get(i).path(), !sameDevice, !(sameDevice && samePath),
                    pathsPerDevice));
            if (i != lanes.size() - 1) {
                config.append(i == lanes.size() - 2 ? " and " : ", ");
            }
        }
        String local = ts.initiator().device().startsWith("CPU") ? "host memory" : "cuda/" + ts.initiator().device();
        String remote = (ts.operation() == Operation.READ ? ts.source() : ts.sink()).device().startsWith("CPU") ? "host"
                : "cuda";
        String operation = ts.operation() == Operation.READ
                ? "remote memory read by ucp_get* into " + local + " from " + remote
                : "remote memory write by ucp_put* from " + local + " to " + remote;
        // the descriptions UCX v1.20.0 gives: proto_common.h L25 (zero-copy), rma.h L17 (software emulation),
        // rndv_ppln.c L199 ("pipeline" and the fragment protocol's own)
        String protocol = RmaEmulation.applies(ts) ? "software emulation"
                : staged(ts) ? "pipeline through host memory" : "zero-copy";
        List<CitedNote> notes = new ArrayList<>();
        if (!ts.initiator().device().startsWith("CPU")) {
            notes.add(CitedNote.uncited("one range: for cuda memory get/put offer no copy protocol UCX would pick at "
                    + "small sizes"));
        } else {
            notes.add(CitedNote.uncited("one range shown: the protocol at this transfer's size; below UCX's own "
                    + "threshold host memory goes by copy-out/copy-in (bcopy), which rdmasim does not model"));
        }
        notes.addAll(withoutGpuDirect(ts, planned.size()));
        return new ProtocolTable("inter-node cfg#0", operation,
                List.of(new ProtocolTable.Row("0..inf", protocol, config.toString().strip())), notes);
    }

    private static String laneName(String nic, int path, boolean showDevice, boolean showPath,
            java.util.function.ToIntFunction<String> pathsPerDevice) {
        StringBuilder b = new StringBuilder();
        if (showDevice) {
            b.append("rc_mlx5/").append(nic).append(":1");
        }
        if (showPath && pathsPerDevice.applyAsInt(nic) > 1) {
            b.append(showDevice ? "/" : "").append("path").append(path);
        }
        return b.toString();
    }

    private static boolean staged(TransferSpec ts) {
        return ts.sourcePath() == DataPath.STAGED || ts.sinkPath() == DataPath.STAGED;
    }

    /** What UCX does instead of GPUDirect RDMA, when a buffer is GPU memory no NIC could register. */
    private static List<CitedNote> withoutGpuDirect(TransferSpec ts, int plannedLanes) {
        boolean read = ts.operation() == Operation.READ;
        if (RmaEmulation.applies(ts)) {
            List<CitedNote> out = new ArrayList<>();
            out.add(CitedNote.cited(String.format(Locale.ROOT, "protocol %s (\"software emulation\"): without "
                    + "GPUDirect RDMA no NIC holds a registration of the cuda memory, so the offload protocols (%s) "
                    + "have no lane", RmaEmulation.protocol(ts.operation()),
                    read ? "get/zcopy, get/bcopy" : "put/offload/zcopy, put/offload/bcopy"),
                    RmaEmulation.protocolSource(ts.operation())));
            out.add(new CitedNote(String.format(Locale.ROOT, "  one lane (max_lanes 1%s), %d-byte active messages; "
                    + "per fragment a synchronous cuda_copy %s (UCX's own estimate): at most %.1f Gbps (%.2f GB/s)",
                    // the lanes above are the bandwidth lanes UCX selects; the emulation drives one AM lane, which
                    // rdmasim takes as the first of them (RmaEmulation.lanes)
                    plannedLanes > 1 ? "; the AM lane, taken as the first of the " + plannedLanes + " lanes picked above" : "",
                    RmaEmulation.fragmentBytes(ts.operation()),
                    copies(ts), Units.bytesPerSecondToGbps(RmaEmulation.laneRate(ts)), RmaEmulation.laneRate(ts) / 1e9),
                    RmaEmulation.copyEstimateSources()));
            return out;
        }
        if (staged(ts)) {
            return List.of(CitedNote.uncited(String.format(Locale.ROOT, "protocol %s: without GPUDirect RDMA the "
                    + "rendezvous pipeline stages fragments through host bounce buffers registered on the NIC "
                    + "(UCX_RNDV_FRAG_SIZE host:512K)", read ? "rndv/get/mtype" : "rndv/put/mtype")));
        }
        return List.of();
    }

    private static String copies(TransferSpec ts) {
        List<String> parts = new ArrayList<>();
        if (RmaEmulation.sourceSeconds(ts) > 0) {
            parts.add(String.format(Locale.ROOT, "device-to-host on %s %.2f us", ts.source(),
                    RmaEmulation.sourceSeconds(ts) * 1e6));
        }
        if (RmaEmulation.sinkSeconds(ts) > 0) {
            parts.add(String.format(Locale.ROOT, "host-to-device on %s %.2f us", ts.sink(),
                    RmaEmulation.sinkSeconds(ts) * 1e6));
        }
        return String.join(", ", parts);
    }

    /**
     * How each sink NIC writes into the sink buffer: relaxed or strict PCIe order (from the buffer's
     * registration), and what strict order costs on this platform.
     */
    static List<NicWriteOrder> writeOrdering(Hosts cluster, TransferSpec ts, List<LaneSplit.Candidate> lanes,
            WriteOrdering ordering, StackVersion ucx) {
        List<NicWriteOrder> out = new ArrayList<>();
        Host sink = cluster.host(ts.sink().host());
        var route = sink.profile().strictOrderGpuWriteRate();
        Set<String> nics = new LinkedHashSet<>();
        RmaEmulation.lanes(ts, lanes).forEach(l -> nics.add(l.sinkNic()));
        for (String nic : nics) {
            String writer = ts.sink().host() + ":" + nic;
            if (ts.sinkPath().bouncesThroughHost()) {
                // no GPUDirect RDMA: the NIC writes host bounce buffers, cuda_copy moves the bytes into the GPU
                out.add(new NicWriteOrder(writer, ts.sink().toString(), NicWriteOrder.Order.HOST_MEMORY, "",
                        Optional.empty()));
                continue;
            }
            boolean strict = ordering.strict(ts.sink().host(), ts.sink().device(), nic);
            boolean gpu = sink.find(ts.sink().device()).map(d -> d.kind() == TopologyNode.Kind.GPU).orElse(false);
            String cost = !strict ? ""
                    : route.isPresent() && gpu ? ", which on this platform runs at " + route.get().describe()
                            + " [profile " + sink.profile().name() + "]"
                    : "; no slower route is known on this platform";
            out.add(new NicWriteOrder(writer, ts.sink().toString(), strict ? NicWriteOrder.Order.STRICT
                    : NicWriteOrder.Order.RELAXED, cost, Optional.of(NicWriteOrder.mrFlags(ucx))));
        }
        return out;
    }

    /**
     * What NCCL at the scenario's release would decide about GPUDirect RDMA from the initiating GPU to each
     * NIC of its host, in the words of NCCL's INFO line; beside, not part of, the NIXL/UCX transfer.
     */
    static Optional<NcclGdrTable> ncclGdr(StackProfile stack, Hosts cluster, TransferSpec ts) {
        Host host = cluster.host(ts.initiator().host());
        TopologyNode gpu = host.find(ts.initiator().device()).orElse(null);
        if (gpu == null || gpu.kind() != TopologyNode.Kind.GPU) {
            return Optional.empty();
        }
        StackVersion release = stack.ncclRelease();
        EffectiveConfig config = stack.configFor(host, gpu);
        boolean c2c = gpu.uplink() != null && gpu.uplink().type() == LinkSpec.LinkType.C2C;
        List<NcclGdrTable.Row> rows = new ArrayList<>();
        boolean renamed = false;
        for (TopologyNode nic : host.nics()) {
            var relation = host.relation(gpu, nic);
            renamed |= relation == PathType.NODE;
            rows.add(new NcclGdrTable.Row(nic.name(), relation, config.ncclGdr(release, relation, c2c)));
        }
        // nvidia-smi's NODE (through the socket's PCIe root complex) has no path type of its own in NCCL:
        // v2.28.9-1 src/graph/topo.h L85-86 counts any path through a host bridge as PATH_PHB
        return Optional.of(new NcclGdrTable(release, stack.nccl().isPresent(), ts.initiator().toString(), rows,
                NcclGdr.ruleSource(release), renamed ? Optional.of(NcclGdr.PATH_PHB) : Optional.empty()));
    }

    private static String pad(String s, int w) {
        return s.length() >= w ? s : s + " ".repeat(w - s.length());
    }

    private static String trim(double v) {
        return v == Math.rint(v) ? String.valueOf((long) v) : String.valueOf(v);
    }
}
