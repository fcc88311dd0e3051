package org.rdmasim.report;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonSerializable;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.jsontype.TypeSerializer;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.rdmasim.memory.RegistrationTotals;
import org.rdmasim.workload.Claim;
import org.rdmasim.workload.FanoutResult;
import org.rdmasim.workload.ReplicationStats;
import org.rdmasim.workload.RunResult;
import org.rdmasim.workload.VariantOutcome;

/** Writes {@code summary.json}: its field names and meanings are a contract other tools read (README, "Outputs"). */
public final class SummaryJson {
    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /** The version of summary.schema.json the files follow; it changes when a field changes name or meaning. */
    public static final int SCHEMA_VERSION = 1;

    private SummaryJson() {
    }

    public static ObjectNode build(String scenario, String description, List<VariantOutcome> outcomes,
            Provenance provenance) {
        ObjectNode root = MAPPER.createObjectNode();
        // The schema this file follows: src/main/resources/schema/summary.schema.json, urn:rdmasim:summary:1
        root.put("schemaVersion", SCHEMA_VERSION);
        root.put("scenario", scenario);
        root.put("description", description);
        ObjectNode p = root.putObject("provenance");
        p.put("rdmasimVersion", provenance.rdmasimVersion());
        p.put("scenarioSha256", provenance.scenarioSha256());
        p.put("seed", provenance.seed());
        if (!provenance.scenarioFile().isEmpty()) {
            p.put("scenarioFile", provenance.scenarioFile());
        }
        ArrayNode variants = root.putArray("variants");
        for (VariantOutcome o : outcomes) {
            ObjectNode v = variants.addObject();
            v.put("name", o.name());
            v.put("status", o.status() == VariantOutcome.Status.OK ? "ok" : "failed");
            v.put("error", o.error() == null ? "" : o.error());
            RunResult r = o.result();
            ReceiverSummary s = r == null ? new ReceiverSummary(0, 0, 0, List.of()) : ReceiverSummary.of(r);
            v.put("makespanSeconds", s.makespanSeconds());
            v.put("aggregateGbps", s.aggregateGbps());
            v.put("meanReceiverGbps", s.meanReceiverGbps());
            // The two arrays that grow with the cluster are written straight to the file when the tree is,
            // never held as nodes (at 128k receivers that is over a million nodes).
            List<ReceiverSummary.Receiver> receivers = s.receivers();
            v.putPOJO("receivers", streamedArray(gen -> {
                for (ReceiverSummary.Receiver rc : receivers) {
                    gen.writeStartObject();
                    gen.writeStringField("id", rc.id());
                    gen.writeNumberField("bytes", rc.bytes());
                    gen.writeNumberField("startSeconds", rc.startSeconds());
                    gen.writeNumberField("finishSeconds", rc.finishSeconds());
                    gen.writeNumberField("pullSeconds", rc.pullSeconds());
                    gen.writeNumberField("gbps", rc.gbps());
                    gen.writeStringField("bottleneck", rc.bottleneck().id());
                    gen.writeEndObject();
                }
            }));
            if (r != null && r.refit() != null) {
                // an empty list that says why, rather than one that looks like nothing was received
                v.put("receiversNote", ReceiverSummary.REFIT_RECEIVERS);
            }
            List<RunResult.NicTraffic> nics = r == null ? List.of() : r.nics();
            v.putPOJO("nics", streamedArray(gen -> {
                for (RunResult.NicTraffic t : nics) {
                    gen.writeStartObject();
                    gen.writeStringField("host", t.host());
                    gen.writeStringField("name", t.name());
                    gen.writeNumberField("txBytes", t.txBytes());
                    gen.writeNumberField("rxBytes", t.rxBytes());
                    gen.writeEndObject();
                }
            }));
            ObjectNode reg = v.putObject("registration");
            RegistrationTotals t = o.registration() == null ? RegistrationTotals.ZERO : o.registration();
            reg.put("mrCount", t.mrCount());
            reg.put("translationBytes", t.translationBytes());
            reg.put("pinnedHostBytes", t.pinnedHostBytes());
            reg.put("firmwareBytes", t.firmwareBytes());
            // registrationSeconds keeps its schema-version-1 meaning, the sum: the registration work over every
            // GPU's process and host. The wall is what a first pull waits for, those processes registering side
            // by side (RegistrationTotals says who waits for whom)
            reg.put("registrationSeconds", t.summedSeconds());
            reg.put("registrationWallSeconds", t.wallSeconds());
            // the same sums in two parts: ucp_mem_map's (the rkey's HCAs) and the lanes' first-use registrations
            // (explain's registeredAtFirstUse); a wall is the slowest process's and is not split
            registrationPart(reg.putObject("ucpMemMap"), o.registrationParts().byMemMap());
            registrationPart(reg.putObject("firstLaneUse"), o.registrationParts().atFirstUse());
            // What the processes run with that the scenario did not say (a layer replaced it, or the library
            // ignored it), and the NICs listed against the NICs used: nothing silent.
            var overrides = v.putArray("overrides");
            for (var ov : o.audit().overrides()) {
                ObjectNode on = overrides.addObject();
                on.put("variable", ov.variable());
                on.put("userValue", ov.userValue());
                on.put("effectiveValue", ov.effectiveValue());
                on.put("layer", ov.layerWords());
                on.put("sourceLine", ov.userOrigin());
                on.put("why", ov.why());
            }
            // what the stack would warn of (a misspelt UCX variable), never only on stderr
            var warnings = v.putArray("warnings");
            o.audit().reportedWarnings().forEach(warnings::add);
            var restsOn = v.putArray("restsOn");
            for (var a : o.audit().restsOn()) {
                ObjectNode an = restsOn.addObject();
                an.put("what", a.what());
                an.put("kind", a.kind());
                an.put("source", a.source());
            }
            if (o.audit().isWhatIf()) {
                // a variant no deployment can choose (hosts on another platform's profile): the answer ranks
                // the others and states this one apart
                ObjectNode w = v.putObject("whatIf");
                w.put("why", o.audit().whatIf().why());
                var moved = w.putArray("onOtherProfile");
                for (var m : o.audit().whatIf().moved()) {
                    ObjectNode mn = moved.addObject();
                    m.hosts().forEach(mn.putArray("hosts")::add);
                    mn.put("profile", m.profile());
                    mn.put("ownProfile", m.ownProfile());
                }
            }
            if (!o.audit().listedNics().isEmpty()) {
                ObjectNode use = v.putObject("nicUse");
                use.put("process", o.audit().process());
                var listed = use.putArray("listed");
                o.audit().listedNics().forEach(listed::add);
                var used = use.putArray("used");
                NicUse.used(o).forEach(used::add);
            }
            if (o.claim() != null) {
                Claim c = o.claim();
                ObjectNode cn = v.putObject("claim");
                cn.put("source", c.source());
                cn.put("claimedLowSeconds", c.lowSeconds());
                cn.put("claimedHighSeconds", c.highSeconds());
                cn.put("nics", c.nics());
                cn.put("lineRateFloorSeconds", c.floorSeconds());
                if (c.gpuLinkFloorSeconds() > 0) {
                    // the GPU links' floor beside the NICs': a claim is flagged below the larger
                    cn.put("gpuLinkFloorSeconds", c.gpuLinkFloorSeconds());
                    cn.put("gpuLink", c.gpuLink());
                }
                double slowest = s.receivers().stream().mapToDouble(ReceiverSummary.Receiver::pullSeconds).max().orElse(0);
                cn.put("modelledSeconds", slowest);
                cn.put("belowFloor", c.belowFloor());
                cn.put("verdict", r == null ? "variant failed" : c.verdict(slowest));
            }
            if (r != null) {
                v.put("events", r.events());
                v.put("description", o.description());
                if (r.refit() != null && !r.refit().cycles().isEmpty()) {
                    // a refit is limited by what bound its steady cycle, not by one transfer
                    var cycles = r.refit().cycles();
                    v.put("limitedBy", cycles.get(cycles.size() - 1).boundWords());
                } else {
                    Verdict.lines(List.of(o)).stream().findFirst().ifPresent(l -> {
                        v.put("limitedBy", l.limiter().words());
                        // what the answer ranks on where registration is modelled: registration wall, then pull
                        v.put("firstUseSeconds", l.firstUseSeconds());
                    });
                }
                if (r.fanout() == null) {
                    // the lanes of the transfers the page shows (a run's first, a refit's last to finish; fan-outs: none)
                    ArrayNode lanes = v.putArray("lanes");
                    for (var tr : IndexHtml.shownTransfers(r)) {
                        for (var l : tr.lanes()) {
                            ObjectNode n = lanes.addObject();
                            n.put("transfer", tr.spec().id());
                            n.put("sourceNic", l.sourceNic());
                            n.put("sinkNic", l.sinkNic());
                            n.put("path", l.path());
                            n.put("bytes", l.bytes());
                            n.put("gbps", l.gbps());
                            n.put("limitedBy", l.limiter().words());
                        }
                    }
                }
            }
            if (r != null && r.fanout() != null) {
                ArrayNode cycles = v.putArray("cycles");
                for (FanoutResult.Cycle c : r.fanout().cycles()) {
                    ObjectNode n = cycles.addObject();
                    n.put("index", c.index());
                    n.put("wallSeconds", c.wallSeconds());
                    n.put("metadataSeconds", c.metadataSeconds());
                    n.put("registrationSeconds", c.registrationSeconds());
                    n.put("pullMakespanSeconds", c.pullMakespanSeconds());
                }
                long fromReceivers = r.fanout().pulls().stream().filter(FanoutResult.ReceiverPull::fromReceiver).count();
                v.put("pullsFromReceivers", fromReceivers);
            }
            if (r != null && r.refit() != null) {
                refit(v.putObject("refit"), r.refit());
            }
            if (o.faultCost() != null) {
                faults(v.putObject("faults"), o.faultCost(), r);
            }
            if (o.replicationStats() != null) {
                ReplicationStats st = o.replicationStats();
                ObjectNode n = v.putObject("replicationStats");
                n.put("replications", st.replications());
                estimate(n.putObject("makespanSeconds"), st.makespanSeconds());
                estimate(n.putObject("meanPullSeconds"), st.meanPullSeconds());
                estimate(n.putObject("p50PullSeconds"), st.p50PullSeconds());
                estimate(n.putObject("p99PullSeconds"), st.p99PullSeconds());
                n.put("pooledP50PullSeconds", st.pooledP50PullSeconds());
                n.put("pooledP99PullSeconds", st.pooledP99PullSeconds());
            }
        }
        return root;
    }

    /**
     * A refit's answer: the time per cycle and per stage, the bytes on the wire against the minimum the
     * layouts require, what bounded each cycle, what the stage costs rest on, the plan, and the modelled
     * effect of each change tried. Also {@code explain --json}'s refit section, so the two read alike.
     */
    public static void refit(ObjectNode n, org.rdmasim.workload.RefitSummary s) {
        n.put("method", s.method());
        n.put("model", s.model());
        n.put("trainerRanks", s.trainerRanks());
        n.put("inferenceRanks", s.inferenceRanks());
        n.put("routes", s.routes());
        n.put("descriptors", s.descriptors());
        n.put("minimumBytes", s.minimumBytes());
        n.put("conserved", s.conserved());
        n.put("firstCycleSeconds", s.firstCycleSeconds());
        n.put("steadyCycleSeconds", s.steadyCycleSeconds());
        ArrayNode cycles = n.putArray("cycles");
        for (var c : s.cycles()) {
            ObjectNode cn = cycles.addObject();
            cn.put("index", c.index());
            cn.put("seconds", c.seconds());
            ObjectNode stages = cn.putObject("stageSeconds");
            c.stageSeconds().forEach(stages::put);
            cn.put("wireBytes", c.wireBytes());
            cn.put("wireOverMinimum", (double) c.wireBytes() / s.minimumBytes());
            cn.put("boundBy", c.boundBy());
            cn.put("boundWords", c.boundWords());
            ArrayNode costOf = cn.putArray("boundParameters");
            c.bound().parameters().forEach(costOf::add);
        }
        ArrayNode rests = n.putArray("restsOn");
        for (var p : s.restsOn()) {
            ObjectNode pn = rests.addObject();
            pn.put("key", p.key());
            pn.put("value", p.value());
            pn.put("kind", p.evidence().kind().word());
            pn.put("source", p.evidence().source());
        }
        ArrayNode plan = n.putArray("plan");
        s.plan().forEach(plan::add);
        ArrayNode changes = n.putArray("whatWouldHalveIt");
        for (var c : s.changes()) {
            ObjectNode cn = changes.addObject();
            cn.put("change", c.change());
            finite(cn, "firstCycleSeconds", c.firstCycleSeconds());
            finite(cn, "steadyCycleSeconds", c.steadyCycleSeconds());
            if (!Double.isNaN(c.steadyCycleSeconds())) {
                cn.put("speedup", s.steadyCycleSeconds() / c.steadyCycleSeconds());
            }
            if (!c.note().isEmpty()) {
                cn.put("note", c.note());
            }
            if (!c.parameter().isEmpty()) {
                cn.put("parameter", c.parameter());
            }
        }
    }

    /** One part of a variant's registration, with the fields of the totals that add up (no wall). */
    private static void registrationPart(ObjectNode n, RegistrationTotals t) {
        n.put("mrCount", t.mrCount());
        n.put("translationBytes", t.translationBytes());
        n.put("pinnedHostBytes", t.pinnedHostBytes());
        n.put("firmwareBytes", t.firmwareBytes());
        n.put("registrationSeconds", t.summedSeconds());
    }

    /** The faults a variant scheduled, the reaction's parameters, its timeline and what it cost. */
    private static void faults(ObjectNode n, org.rdmasim.workload.FaultCost cost, RunResult r) {
        org.rdmasim.workload.FaultPlan plan = cost.plan();
        ArrayNode scheduled = n.putArray("scheduled");
        for (org.rdmasim.workload.Fault f : plan.faults()) {
            ObjectNode e = scheduled.addObject();
            e.put("kind", f.kind());
            e.put("atSeconds", f.atSeconds());
            e.put("what", f.describe());
        }
        ObjectNode reaction = n.putObject("reaction");
        reaction.put("rcTimeoutSeconds", plan.qpRetry().timeoutSeconds());
        reaction.put("ackTimerSeconds", plan.qpRetry().tickSeconds());
        reaction.put("rcRetryCount", plan.qpRetry().retryCount());
        reaction.put("qpErrorAfterSeconds", plan.qpRetry().errorAfterSeconds());
        reaction.put("retryDelaySeconds", plan.retryDelaySeconds());
        reaction.put("retryDelayAssumed", true);
        reaction.put("repost", plan.repost());
        reaction.put("maxSourceAttempts", org.rdmasim.workload.FaultPlan.MAX_SOURCE_ATTEMPTS);
        reaction.put("transferTimeoutSeconds", plan.transferTimeoutSeconds());
        ArrayNode timeline = n.putArray("timeline");
        if (r != null) {
            for (RunResult.FaultRecord f : r.faultLog()) {
                ObjectNode e = timeline.addObject();
                e.put("atSeconds", f.atSeconds());
                e.put("what", f.what());
                e.put("scheduled", f.fault());
            }
        }
        ObjectNode c = n.putObject("cost");
        finite(c, "makespanWithSeconds", cost.makespanWith());
        finite(c, "makespanWithoutSeconds", cost.makespanWithout());
        finite(c, "meanPullWithSeconds", cost.meanPullWith());
        finite(c, "meanPullWithoutSeconds", cost.meanPullWithout());
        finite(c, "maxPullWithSeconds", cost.maxPullWith());
        finite(c, "maxPullWithoutSeconds", cost.maxPullWithout());
        c.put("failedAttempts", cost.failedAttempts());
        c.put("gaveUp", cost.gaveUp());
    }

    /** A number, or null where there is none (no successful pull): never NaN in the output. */
    private static void finite(ObjectNode n, String key, double v) {
        if (Double.isFinite(v)) {
            n.put(key, v);
        } else {
            n.putNull(key);
        }
    }

    private static void estimate(ObjectNode n, ReplicationStats.Estimate e) {
        n.put("mean", e.mean());
        n.put("ci95Low", e.ci95Low());
        n.put("ci95High", e.ci95High());
        n.put("stdDev", e.stdDev());
    }

    /** Writes an array's elements to the generator. */
    private interface Elements {
        void write(JsonGenerator gen) throws IOException;
    }

    /** A value that writes itself as a JSON array when the tree holding it is written. */
    private static JsonSerializable streamedArray(Elements elements) {
        return new JsonSerializable.Base() {
            @Override
            public void serialize(JsonGenerator gen, SerializerProvider provider) throws IOException {
                gen.writeStartArray();
                elements.write(gen);
                gen.writeEndArray();
            }

            @Override
            public void serializeWithType(JsonGenerator gen, SerializerProvider provider, TypeSerializer typeSer)
                    throws IOException {
                serialize(gen, provider);
            }
        };
    }

    /**
     * Writes a small tree of every node kind {@link #build} makes into nothing: the first summary of a
     * process otherwise pays for loading Jackson's writer and finding its serializers (some 30 ms of CPU)
     * on the report's critical path, the thread that writes the tables.
     */
    static void warmUp() throws IOException {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("text", "a").put("whole", 1L).put("number", 0.5).put("flag", true).putNull("none");
        root.putArray("list").addObject().put("text", "b");
        root.putPOJO("streamed", streamedArray(gen -> {
            gen.writeStartObject();
            gen.writeStringField("text", "c");
            gen.writeNumberField("whole", 2L);
            gen.writeNumberField("number", 0.25);
            gen.writeEndObject();
        }));
        MAPPER.writeValue(java.io.OutputStream.nullOutputStream(), root);
    }

    public static void write(Path file, ObjectNode json) throws IOException {
        MAPPER.writeValue(file.toFile(), json);
    }

    public static ObjectMapper mapper() {
        return MAPPER;
    }
}
