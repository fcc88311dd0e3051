package org.rdmasim.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.rdmasim.refit.model.DType;
import org.rdmasim.refit.layout.InferenceLayout;
import org.rdmasim.refit.layout.InferenceShares;
import org.rdmasim.refit.layout.RankShare;
import org.rdmasim.refit.model.ModelInventory;
import org.rdmasim.refit.model.PipelineStage;
import org.rdmasim.scenario.ShippedModels;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code rdmasim model CONFIG.json [--tp N --dp N --ep N --redundant-experts N --pp N --mtp] [--json]}. */
@Command(name = "model", mixinStandardHelpOptions = true,
        description = {
                "A model's weights tensor by tensor, and the bytes each inference rank holds.",
                "",
                "Reads a HuggingFace config.json (Llama, Mistral, Qwen2/3, Qwen2/3-MoE, DeepSeek-V2/V3, Kimi-K2, "
                        + "GLM-4.5, GLM-4.7-Flash) or an explicit tensor list, and prints parameters, bytes by "
                        + "dtype (FP8 block scales included), and the bytes each inference rank holds under "
                        + "vLLM's layout: TP cuts attention and dense MLPs (KV heads replicated when TP exceeds "
                        + "them; vocabulary padded to a multiple of 64), MoE layers are TP-cut over all TP x DP "
                        + "ranks, or with --ep placed whole on them (remainder to the first ranks).",
                "--pp adds the trainer's pipeline stages (Megatron even split: embedding on the first stage, "
                        + "final norm and lm_head on the last).",
                "Multi-token-prediction layers (num_nextn_predict_layers) are left out of the counts, as "
                        + "published sizes leave them out; --mtp counts them in.",
                "Exit codes: 0 done, 2 bad input (the message names the file and field), " + Main.INTERNAL_ERROR_WORDS + "."},
        footer = {"", "Example: rdmasim model scenarios/models/deepseek-v3.json --tp 8 --ep 16"})
public final class ModelCommand implements Callable<Integer> {
    /** Most ranks a layout may have: each rank's share is summed over every tensor. */
    static final int MAX_RANKS = 1024;

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "CONFIG.json", description = "a HuggingFace config.json, a JSON "
            + "object with a \"tensors\" list, or a shipped model's name (qwen3-4b: scenarios/models/qwen3-4b.json)")
    Path file;

    @Option(names = "--tp", paramLabel = "N", description = "inference tensor-parallel size (default 1)")
    int tp = 1;

    @Option(names = "--dp", paramLabel = "N", description = "inference data-parallel replicas (default 1, or "
            + "EP / TP with --ep)")
    Integer dp;

    @Option(names = "--ep", paramLabel = "N", description = "expert parallelism over N = TP x DP ranks (vLLM "
            + "--enable-expert-parallel); 1 (default) leaves experts tensor-parallel")
    int ep = 1;

    @Option(names = "--redundant-experts", paramLabel = "N", description = "EPLB redundant experts per MoE layer "
            + "(needs --ep; default 0)")
    int redundant;

    @Option(names = "--pp", paramLabel = "N", description = "trainer pipeline stages to show (default 1: none)")
    int pp = 1;

    @Option(names = "--mtp", description = "count the multi-token-prediction layers as part of the model")
    boolean mtp;

    @picocli.CommandLine.Mixin
    JsonOutput output = new JsonOutput();

    @Override
    public Integer call() throws IOException {
        InferenceLayout layout = layout();
        if (pp < 1) {
            throw new BadInputException("--pp must be at least 1, got " + pp);
        }
        String written = file.toString();
        if (!java.nio.file.Files.exists(file) && written.matches("[A-Za-z0-9._-]+") && !written.endsWith(".json")) {
            // a bare name, as a scenario's model: names one (qwen3-4b)
            List<String> names = ShippedModels.names();
            file = ShippedModels.find(written).orElseThrow(() -> new BadInputException("'" + written + "' is neither "
                    + "a file nor a model rdmasim ships" + (names.isEmpty() ? "" : " (" + String.join(", ", names) + ")")
                    + org.rdmasim.scenario.YamlTree.suggestion(written, names)));
        }
        ModelInventory read = ModelInventory.read(file);
        ModelInventory m = mtp ? read.withMtp() : read;
        if (m.routedExperts() == 0 && (ep > 1 || redundant > 0)) {
            throw new BadInputException(file + " has no routed experts: --ep and --redundant-experts do not apply");
        }
        List<RankShare> ranks;
        try {
            ranks = InferenceShares.of(m, layout);
        } catch (IllegalArgumentException e) {
            // the layout does not divide the model as vLLM needs (heads, padded vocabulary, FP8 blocks)
            throw new BadInputException(file + ": " + e.getMessage());
        }
        List<PipelineStage> stages;
        try {
            stages = pp > 1 ? PipelineStage.split(m, pp) : List.of();
        } catch (IllegalArgumentException e) {
            throw new BadInputException(file + ": --pp " + pp + ": " + e.getMessage());
        }
        PrintWriter out = spec.commandLine().getOut();
        if (output.json) {
            JsonOutput.print(out, json(read, m, layout, ranks, stages));
        } else {
            out.print(text(read, m, layout, ranks, stages));
            out.flush();
        }
        return Main.OK;
    }

    private InferenceLayout layout() {
        if (tp < 1) {
            throw new BadInputException("--tp must be at least 1, got " + tp);
        }
        if (ep < 1) {
            throw new BadInputException("--ep must be at least 1, got " + ep);
        }
        if (dp != null && dp < 1) {
            throw new BadInputException("--dp must be at least 1, got " + dp);
        }
        if (redundant < 0) {
            throw new BadInputException("--redundant-experts must be >= 0, got " + redundant);
        }
        int replicas = dp != null ? dp : (ep > 1 && ep % tp == 0 ? ep / tp : 1);
        if ((long) tp * replicas > MAX_RANKS) {
            throw new BadInputException("TP x DP = " + (long) tp * replicas + " ranks; at most " + MAX_RANKS);
        }
        if (ep > 1 && ep != tp * replicas) {
            throw new BadInputException("--ep " + ep + ": vLLM's expert-parallel group is all TP x DP ranks ("
                    + tp + " x " + replicas + " = " + tp * replicas + "); give --ep " + tp * replicas + " or set "
                    + "--dp to EP / TP");
        }
        if (redundant > 0 && ep == 1) {
            throw new BadInputException("--redundant-experts needs --ep (vLLM's EPLB runs with expert parallelism)");
        }
        return new InferenceLayout(tp, replicas, ep > 1, redundant);
    }

    static String text(ModelInventory read, ModelInventory m, InferenceLayout layout, List<RankShare> ranks,
            List<PipelineStage> stages) {
        StringBuilder b = new StringBuilder();
        b.append("model       ").append(m.name()).append('\n');
        b.append("parameters  ").append(grouped(m.parameters())).append(" (").append(billions(m.parameters()))
                .append(")");
        if (m.routedExperts() > 0) {
            b.append("; activated per token ").append(billions(m.activatedParameters())).append(" (")
                    .append(m.expertsPerToken()).append(" of ").append(m.routedExperts()).append(" routed experts)");
        }
        b.append('\n');
        if (!read.mtp().isEmpty()) {
            b.append(m == read ? "MTP layers  " + billions(read.mtpParameters()) + " more parameters not counted "
                    + "(--mtp counts them)\n" : "MTP layers  counted: " + billions(read.mtpParameters()) + "\n");
        }
        b.append("bytes       ").append(grouped(m.bytes())).append(" (").append(gigabytes(m.bytes())).append(")\n");
        for (Map.Entry<DType, Long> e : m.bytesByDtype().entrySet()) {
            b.append(String.format(Locale.ROOT, "  %-9s %,20d (%s)%n", e.getKey().name().toLowerCase(Locale.ROOT),
                    e.getValue(), gigabytes(e.getValue())));
        }
        b.append(String.format(Locale.ROOT, "inference   TP %d x DP %d = %d ranks, experts %s%n", layout.tp(),
                layout.dp(), layout.worldSize(), m.routedExperts() == 0 ? "none"
                        : layout.expertParallel() ? "expert-parallel over " + layout.worldSize() + " ranks"
                                + (layout.redundantExperts() > 0 ? " (+" + layout.redundantExperts() + " redundant)" : "")
                                : "tensor-parallel over " + layout.worldSize() + " ranks"));
        b.append(String.format(Locale.ROOT, "  %5s %3s %3s %20s %10s %14s %8s%n", "rank", "tp", "dp", "bytes", "GB",
                "vocab padding", "experts"));
        long sum = 0;
        for (RankShare r : ranks) {
            sum += r.bytes();
            b.append(String.format(Locale.ROOT, "  %5d %3d %3d %,20d %10s %14s %8s%n", r.rank(), r.tpRank(),
                    r.dpRank(), r.bytes(), String.format(Locale.ROOT, "%.3f", r.bytes() / 1e9),
                    grouped(r.paddingBytes()), m.routedExperts() == 0 ? "-" : r.experts()
                            + (layout.expertParallel() ? "" : " cut")));
        }
        // EPLB's redundant experts are copies too: with --redundant-experts they were in the sum but not in the list
        b.append(String.format(Locale.ROOT, "  sum %,d: the model once + %,d held by more than one rank (DP "
                + "replicas, replicated norms and routers, KV heads when TP exceeds them%s)%n", sum, sum - m.bytes(),
                layout.redundantExperts() > 0 ? ", EPLB's " + layout.redundantExperts() + " redundant experts a layer"
                        : ""));
        if (!stages.isEmpty()) {
            b.append("trainer     PP ").append(stages.size()).append(" (Megatron even split; bytes per stage, "
                    + "before TP/EP)\n");
            for (PipelineStage s : stages) {
                b.append(String.format(Locale.ROOT, "  stage %3d layers %3d-%-3d %,20d (%s)%n", s.stage(),
                        s.firstLayer(), s.endLayer() - 1, s.bytes(), gigabytes(s.bytes())));
            }
        }
        return b.toString();
    }

    static ObjectNode json(ModelInventory read, ModelInventory m, InferenceLayout layout, List<RankShare> ranks,
            List<PipelineStage> stages) {
        ObjectNode o = JsonOutput.start("model");
        o.put("model", m.name());
        o.put("parameters", m.parameters());
        o.put("activatedParameters", m.activatedParameters());
        o.put("mtpParameters", read.mtpParameters());
        o.put("mtpCounted", m != read);
        o.put("tensors", m.tensors().size());
        o.put("bytes", m.bytes());
        ObjectNode byDtype = o.putObject("bytesByDtype");
        m.bytesByDtype().forEach((k, v) -> byDtype.put(k.name().toLowerCase(Locale.ROOT), v));
        ObjectNode l = o.putObject("layout");
        l.put("tp", layout.tp());
        l.put("dp", layout.dp());
        l.put("expertParallel", layout.expertParallel());
        l.put("redundantExperts", layout.redundantExperts());
        ArrayNode a = o.putArray("ranks");
        for (RankShare r : ranks) {
            ObjectNode n = a.addObject();
            n.put("rank", r.rank());
            n.put("tpRank", r.tpRank());
            n.put("dpRank", r.dpRank());
            n.put("bytes", r.bytes());
            n.put("paddingBytes", r.paddingBytes());
            n.put("experts", r.experts());
        }
        ArrayNode s = o.putArray("stages");
        for (PipelineStage p : stages) {
            ObjectNode n = s.addObject();
            n.put("stage", p.stage());
            n.put("firstLayer", p.firstLayer());
            n.put("endLayer", p.endLayer());
            n.put("bytes", p.bytes());
        }
        return o;
    }

    private static String grouped(long v) {
        return String.format(Locale.ROOT, "%,d", v);
    }

    private static String billions(long params) {
        return String.format(Locale.ROOT, "%.2f B", params / 1e9);
    }

    private static String gigabytes(long bytes) {
        return String.format(Locale.ROOT, "%.2f GB", bytes / 1e9);
    }
}
