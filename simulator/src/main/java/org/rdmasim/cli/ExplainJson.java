package org.rdmasim.cli;

import java.util.List;
import java.util.Locale;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.Hosts;
import org.rdmasim.hardware.TopologyNode;
import org.rdmasim.run.VariantRunner;
import org.rdmasim.transport.Endpoint;
import org.rdmasim.transport.LaneSplit;
import org.rdmasim.transport.Operation;
import org.rdmasim.transport.TransferSpec;
import org.rdmasim.transport.backend.NcclGdrTable;
import org.rdmasim.transport.backend.NicWriteOrder;
import org.rdmasim.transport.backend.PathExplanation;
import org.rdmasim.transport.backend.ProtocolTable;
import org.rdmasim.transport.citation.Citation;
import org.rdmasim.transport.citation.CitedNote;
import org.rdmasim.transport.config.EffectiveValue;
import org.rdmasim.transport.config.UcxSite;
import org.rdmasim.transport.ucx.BwLanePairing;
import org.rdmasim.transport.ucx.HcaEstimate;
import org.rdmasim.transport.ucx.LaneDecision;
import org.rdmasim.transport.ucx.LaneVerdict;
import org.rdmasim.transport.ucx.UcxLane;
import org.rdmasim.transport.ucx.UcxLaneSelection;
import org.rdmasim.transport.ucx.UcxPaths;
import org.rdmasim.transport.ucx.UcxTopoDistance;
import org.rdmasim.transport.ucx.WireupFastLanes;
import org.rdmasim.workload.TransferItem;

/**
 * One transfer of {@code explain --json}: what the text says, as fields (schema/explain.schema.json), built from the
 * records the text is printed from. Rates are bytes per second in fields named so, sizes bytes, times seconds; every
 * citation of code is one object ({@link #citation}).
 */
final class ExplainJson {
    private ExplainJson() {
    }

    static void transfer(ObjectNode o, TransferItem t, TransferSpec ts, boolean given, List<LaneSplit.Candidate> lanes,
            LaneDecision decision, PathExplanation path, List<CitedNote> backendNotes, Hosts cluster,
            VariantRunner.Held held) {
        o.put("id", t.id());
        o.put("operation", ts.operation() == Operation.READ ? "read" : "write");
        o.put("from", ts.source().toString());
        o.put("to", ts.sink().toString());
        o.put("initiator", ts.initiator().toString());
        o.put("bytes", ts.bytes());
        o.put("lanesGiven", given);
        ArrayNode picked = o.putArray("lanes");
        for (LaneSplit.Candidate c : lanes) {
            ObjectNode l = picked.addObject();
            l.put("sourceNic", c.sourceNic());
            l.put("sinkNic", c.sinkNic());
            l.put("path", c.path());
            l.put("weight", c.weight());
        }
        if (decision != null) {
            decision(o.putObject("decision"), ts, decision, cluster);
        }
        if (!backendNotes.isEmpty()) {
            // a backend other than UCX's says what it chose in notes, each with the code it follows
            notes(o.putArray("backendNotes"), backendNotes);
        }
        path.protocol().ifPresent(table -> {
            ObjectNode p = o.putObject("protocol");
            p.put("endpoint", table.endpoint());
            p.put("operation", table.operation());
            ArrayNode rows = p.putArray("ranges");
            for (ProtocolTable.Row r : table.rows()) {
                ObjectNode x = rows.addObject();
                x.put("range", r.range());
                x.put("protocol", r.protocol());
                x.put("lanes", r.lanes());
            }
            notes(p.putArray("notes"), table.notes());
        });
        ArrayNode orders = o.putArray("writeOrder");
        for (NicWriteOrder w : path.writeOrders()) {
            ObjectNode x = orders.addObject();
            x.put("nic", w.nic());
            x.put("into", w.into());
            x.put("order", w.order().jsonName());
            x.put("cost", w.cost());
            x.put("text", w.line());
            w.source().ifPresent(c -> citation(x.putObject("source"), c));
        }
        path.nccl().ifPresent(n -> ncclGdr(o.putObject("ncclGdr"), n));
        ObjectNode reg = o.putObject("registration");
        registration(reg.putObject("source"), cluster, ts.source(), held);
        registration(reg.putObject("sink"), cluster, ts.sink(), held);
    }

    /** Wireup's fast-lane filter: whether the release has it, the best wired lane, every wired lane and what it made of it. */
    private static void wireupFilter(ObjectNode f, LaneDecision decision) {
        WireupFastLanes w = decision.wireupFilter();
        f.put("inForce", w.inForce());
        f.put("ratio", w.ratio());
        f.put("bestBandwidthBytesPerSecond", w.best());
        f.put("thresholdBytesPerSecond", w.threshold());
        ArrayNode lanes = f.putArray("wired");
        List<WireupFastLanes.Rated> dropped = w.dropped();
        for (WireupFastLanes.Rated r : w.wired()) {
            ObjectNode x = lanes.addObject();
            x.put("nic", r.wire().localNic());
            x.put("path", r.wire().localPath());
            x.put("peerNic", r.wire().remoteNic());
            x.put("bandwidthBytesPerSecond", r.bandwidth());
            x.put("kept", !dropped.contains(r));
        }
        ArrayNode sources = f.putArray("sources");
        WireupFastLanes.sources(decision.initiatorConfig().ucxVersion()).forEach(c -> citation(sources.addObject(), c));
    }

    /** UCX's choice: the initiator's configuration and its notes, the candidates on both sides, every lane. */
    private static void decision(ObjectNode d, TransferSpec ts, LaneDecision decision, Hosts cluster) {
        d.put("railLimitVariable", decision.railLimitName());
        d.put("railLimit", decision.railLimit());
        d.put("multiLaneMaxRatio", decision.ratio());
        candidates(d.putArray("initiatorCandidates"), decision.local());
        candidates(d.putArray("remoteCandidates"), decision.remote());
        ArrayNode storage = d.putArray("notCandidates"); // storage/management ports UCX_NET_DEVICES does not name
        decision.notCandidates(cluster.host(ts.initiator().host())).forEach(storage::add);
        citation(d.putObject("distanceSource"), UcxTopoDistance.source(decision.initiatorConfig().ucxVersion()));
        ArrayNode paths = d.putArray("pathsSources");
        UcxPaths.sources(decision.initiatorConfig().ucxVersion()).forEach(c -> citation(paths.addObject(), c));
        ArrayNode considered = d.putArray("lanesConsidered");
        for (UcxLane l : decision.lanes()) {
            ObjectNode x = considered.addObject();
            x.put("nic", l.nic());
            x.put("path", l.path());
            x.put("peerNic", l.peerNic());
            x.put("bandwidthBytesPerSecond", l.bandwidth());
            if (l.verdict() == LaneVerdict.PICKED) {
                x.put("availBwAtPickBytesPerSecond", l.availBw());
            } else {
                x.putNull("availBwAtPickBytesPerSecond");
            }
            x.put("verdict", l.verdict().name().toLowerCase(Locale.ROOT));
            x.put("why", l.verdict().words());
            x.put("source", l.verdict().source(decision.initiatorConfig().ucxVersion()));
            citation(x.putObject("citation"), l.verdict().citation(decision.initiatorConfig().ucxVersion()));
        }
        wireupFilter(d.putObject("wireupFastLanes"), decision);
        ObjectNode pairing = d.putObject("peerPairing"); // UCX's wireup rule, modelled; what it takes as given, named
        pairing.put("modelled", UcxLaneSelection.PEER_PAIRING);
        ArrayNode ruleSources = pairing.putArray("sources");
        BwLanePairing.sources(decision.initiatorConfig().ucxVersion()).forEach(c -> citation(ruleSources.addObject(), c));
        ArrayNode assumed = pairing.putArray("assumptions");
        UcxLaneSelection.PEER_PAIRING_ASSUMPTIONS.forEach(assumed::add);
        ArrayNode assumedSources = pairing.putArray("assumptionSources");
        BwLanePairing.assumptionSources(decision.initiatorConfig().ucxVersion())
                .forEach(c -> citation(assumedSources.addObject(), c));
        ObjectNode firstUse = d.putObject("registeredAtFirstUse"); // initiator HCAs UCX registers on when a lane first uses them
        ArrayNode late = firstUse.putArray("nics");
        decision.registeredAtFirstUse().forEach(late::add);
        citation(firstUse.putObject("source"), UcxSite.MEMH_REGISTER_AT_USE.cite(decision.initiatorConfig().ucxVersion()));
        ArrayNode notes = d.putArray("configurationNotes");
        decision.initiatorConfig().decisions().forEach(notes::add);
        ObjectNode config = d.putObject("configuration");
        ArrayNode values = config.putArray("values");
        for (EffectiveValue v : decision.initiatorConfig().values()) {
            ObjectNode x = values.addObject();
            x.put("name", v.name());
            x.put("value", v.rawValue());
            x.put("layer", v.layer().name());
        }
        notes(config.putArray("notes"), decision.initiatorConfig().notes());
        ArrayNode warnings = d.putArray("warnings");
        decision.warnings().forEach(warnings::add);
    }

    /** Each note's words, its line as the text prints it, and its sources as citation objects. */
    private static void notes(ArrayNode a, List<CitedNote> notes) {
        for (CitedNote n : notes) {
            ObjectNode x = a.addObject();
            x.put("words", n.words());
            x.put("text", n.text());
            ArrayNode sources = x.putArray("sources");
            n.sources().forEach(c -> citation(sources.addObject(), c));
        }
    }

    /** NCCL's GPUDirect decision per NIC of the initiating GPU's host: the text's NCCL table. */
    private static void ncclGdr(ObjectNode o, NcclGdrTable n) {
        o.put("release", n.release().toString());
        o.put("releaseStated", n.releaseStated());
        o.put("initiator", n.initiator());
        citation(o.putObject("source"), n.source());
        ArrayNode rows = o.putArray("nics");
        for (NcclGdrTable.Row r : n.rows()) {
            ObjectNode x = rows.addObject();
            x.put("nic", r.nic());
            x.put("topo", r.topo().name());
            x.put("ncclPath", r.decision().path().name());
            x.put("comparedAs", r.decision().distance().name());
            x.put("level", r.decision().level().name());
            x.put("levelFromUser", r.decision().userLevel());
            x.put("gpuDirect", r.decision().gpuDirect());
            x.put("words", r.decision().words());
        }
        n.phbNote().ifPresent(c -> {
            ObjectNode x = o.putObject("noNode");
            x.put("words", NcclGdrTable.PHB_WORDS);
            citation(x.putObject("source"), c);
        });
    }

    /**
     * A place in a public repository's code, as fields: repo, tag, file, line, lastLine (equal to line when one),
     * symbol (when the text names one) and text (the citation as the text prints it).
     */
    static void citation(ObjectNode o, Citation c) {
        o.put("repo", c.repo());
        o.put("tag", c.tag());
        o.put("file", c.file());
        o.put("line", c.line());
        o.put("lastLine", c.lastLine());
        if (!c.symbol().isEmpty()) {
            o.put("symbol", c.symbol());
        }
        if (!c.note().isEmpty()) {
            o.put("note", c.note());
        }
        o.put("text", c.text());
    }

    /** A profile parameter the answer rests on: the text's "rests on (profile P): ..." line, as fields. */
    static void restsOn(ObjectNode o, String profile, org.rdmasim.hardware.CalibrationProfile.Parameter p) {
        o.put("profile", profile);
        o.put("key", p.key());
        o.put("value", p.value());
        o.put("unit", p.unit());
        o.put("kind", p.kind().name().toLowerCase(java.util.Locale.ROOT));
        o.put("source", p.source());
        o.put("assumption", p.assumption());
        o.put("text", p.describe());
    }

    private static void candidates(ArrayNode a, List<HcaEstimate> list) {
        for (HcaEstimate e : list) {
            ObjectNode x = a.addObject();
            x.put("nic", e.nic());
            x.put("relation", e.relation() == null ? "host" : e.relation().name());
            x.put("distanceLatencySeconds", e.distance().latencySeconds());
            double bw = e.distance().bandwidthBytesPerSecond();
            if (Double.isInfinite(bw)) {
                x.putNull("distanceBytesPerSecond");
            } else {
                x.put("distanceBytesPerSecond", bw);
            }
            x.put("wireBytesPerSecond", e.wireBytesPerSecond());
            x.put("pcieBytesPerSecond", e.pcieBytesPerSecond());
            x.put("estimateBytesPerSecond", e.estimate());
            x.put("paths", e.paths());
            x.put("pathRatio", e.pathRatio());
        }
    }

    /**
     * The NICs of the endpoint's host that hold its buffer's registration as {@code ucp_mem_map} placed it (what
     * its rkey names); first-use registrations are the decision's {@code registeredAtFirstUse}.
     */
    private static void registration(ObjectNode o, Hosts cluster, Endpoint end, VariantRunner.Held held) {
        o.put("endpoint", end.toString());
        ArrayNode nics = o.putArray("nics");
        Host h = cluster.host(end.host());
        for (TopologyNode n : h.nics()) {
            if (held.lanes().holds(end.host(), end.device(), n.name())) {
                nics.add(n.name());
            }
        }
    }
}
