package org.rdmasim.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.Hosts;
import org.rdmasim.hardware.TopologyNode;
import org.rdmasim.report.ReceiverSummary;
import org.rdmasim.run.VariantRunner;
import org.rdmasim.transport.Endpoint;
import org.rdmasim.transport.LaneSplit;
import org.rdmasim.transport.Operation;
import org.rdmasim.transport.TransferSpec;
import org.rdmasim.transport.backend.ProtocolTable;
import org.rdmasim.transport.ucx.HcaEstimate;
import org.rdmasim.transport.ucx.LaneDecision;
import org.rdmasim.transport.ucx.UcxLane;
import org.rdmasim.workload.TransferItem;
import org.rdmasim.workload.VariantOutcome;

/**
 * One transfer of {@code explain --json}: what the text says, as fields (schema/explain.schema.json). Rates
 * are bytes per second in fields named so, sizes bytes, times seconds.
 */
final class ExplainJson {
    private ExplainJson() {
    }

    static void transfer(ObjectNode o, TransferItem t, TransferSpec ts, boolean given, List<LaneSplit.Candidate> lanes,
            LaneDecision decision, ProtocolTable table, Hosts cluster, VariantRunner.Held held, VariantOutcome outcome) {
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
            ObjectNode d = o.putObject("decision");
            d.put("railLimitVariable", decision.railLimitName());
            d.put("railLimit", decision.railLimit());
            d.put("multiLaneMaxRatio", decision.ratio());
            candidates(d.putArray("initiatorCandidates"), decision.local());
            candidates(d.putArray("remoteCandidates"), decision.remote());
            ArrayNode storage = d.putArray("notCandidates"); // storage/management ports UCX_NET_DEVICES does not name
            cluster.host(ts.initiator().host()).listedOnlyNics().stream()
                    .filter(n -> decision.local().stream().noneMatch(e -> e.nic().equals(n))).forEach(storage::add);
            ArrayNode considered = d.putArray("lanesConsidered");
            for (UcxLane l : decision.lanes()) {
                ObjectNode x = considered.addObject();
                x.put("nic", l.nic());
                x.put("path", l.path());
                x.put("peerNic", l.peerNic());
                x.put("bandwidthBytesPerSecond", l.bandwidth());
                x.put("verdict", l.verdict().name().toLowerCase(java.util.Locale.ROOT));
                x.put("why", l.verdict().words());
                x.put("source", l.verdict().source(decision.initiatorConfig().ucxVersion()));
            }
            ArrayNode notes = d.putArray("configurationNotes");
            decision.initiatorConfig().decisions().forEach(notes::add);
            ArrayNode warnings = d.putArray("warnings");
            decision.warnings().forEach(warnings::add);
        }
        if (table != null) {
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
            ArrayNode notes = p.putArray("notes");
            table.notes().forEach(notes::add);
        }
        ObjectNode reg = o.putObject("registration");
        registration(reg.putObject("source"), cluster, ts.source(), held);
        registration(reg.putObject("sink"), cluster, ts.sink(), held);
        Host sink = cluster.host(ts.sink().host());
        Set<String> used = new LinkedHashSet<>();
        double wire = 0;
        for (LaneSplit.Candidate c : lanes) {
            if (used.add(c.sinkNic())) {
                wire += sink.nic(c.sinkNic()).nic().payloadBytesPerSecond(sink.profile());
            }
        }
        ObjectNode floor = o.putObject("lineRateFloor");
        floor.put("nics", used.size());
        floor.put("wireBytesPerSecond", wire);
        floor.put("seconds", ts.bytes() / wire);
        if (outcome.result() != null) {
            for (ReceiverSummary.Receiver r : ReceiverSummary.of(outcome.result()).receivers()) {
                if (r.id().equals(ts.sink().toString())) {
                    ObjectNode m = o.putObject("modelled");
                    m.put("pullSeconds", r.pullSeconds());
                    m.put("gbps", r.gbps());
                    m.put("limitedBy", r.bottleneck().id());
                }
            }
        } else {
            o.put("variantError", outcome.error().lines().findFirst().orElse(""));
        }
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
        }
    }

    /** The NICs of the endpoint's host that hold its buffer's registration, as the run places it. */
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
