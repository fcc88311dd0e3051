package org.rdmasim.validation;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Why a counted refit row misses: the stage the published time holds that the model lacks or prices otherwise,
 * what bounds the model's own answer, and whether the source states the setup rdmasim poses. Each failing
 * counted refit row's known-failure text opens with it ({@link #named}), and README's "Refit (weight sync) rows"
 * holds the same classification as a table.
 *
 * <p>The stage is an audit of the sources, not a measurement: none of them times its stages apart (that is why the
 * rows fail and nothing is fitted), so "framework overhead" means the part of the published time that no wire, copy
 * or calibrated per-call cost rdmasim has accounts for and that the source's code spends in host-side per-tensor or
 * per-call work.
 *
 * @param stage what the published time holds that the model lacks
 * @param lacks the mechanism in the real system's code the model leaves unpriced, in a few words
 * @param bound what bounds the model's answer
 * @param setup whether the source states the setup the row poses
 */
record RefitMiss(Stage stage, String lacks, String bound, Setup setup) {

    /** The stage of a refit a row's miss sits in. */
    enum Stage {
        TRANSFER("transfer"),
        REGISTRATION("registration"),
        GATHER("gather/reshard"),
        BROADCAST("NCCL broadcast"),
        FRAMEWORK("framework overhead"),
        UNKNOWN("unknown");

        final String label;

        Stage(String label) {
            this.label = label;
        }
    }

    /** How much of the setup the row poses the source states. */
    enum Setup {
        STATED("stated by the source"),
        PARTLY("partly stated (the row's setup names what is posed)"),
        POSED("mostly posed: the source leaves the setup that decides the answer unstated");

        final String label;

        Setup(String label) {
            this.label = label;
        }
    }

    /** How {@code lacks} opens for a row whose model time is longer than the published one. */
    private static final String SLOW = "the model is slow: ";

    /**
     * The known-failure text of a row, opened by its cause: for a row the model is too fast on, the stage whose
     * cost it leaves out; for one it is too slow on, the stage it prices too high.
     */
    String named(String why) {
        String cause = lacks.startsWith(SLOW)
                ? stage.label + ", priced too high (the model is slower than published: " + lacks.substring(SLOW.length()) + ")"
                : stage.label + " (" + lacks + ")";
        return "cause: " + cause + "; the model's bound: " + bound + "; setup: " + setup.label + ". " + why;
    }

    private static RefitMiss of(Stage stage, String lacks, String bound, Setup setup) {
        return new RefitMiss(stage, lacks, bound, setup);
    }

    private static Map.Entry<String, RefitMiss> row(String id, RefitMiss miss) {
        return Map.entry(id, miss);
    }

    private static Stream<Map.Entry<String, RefitMiss>> rows(List<String> ids, RefitMiss miss) {
        return ids.stream().map(id -> row(id, miss));
    }

    private static final RefitMiss VERL_MOONCAKE = of(Stage.UNKNOWN, "a cost that grows with bytes, not tensors "
            + "(~0.25 s a 2 GiB bucket where a hop takes ~108 ms, held by the reading context's slice thread, and the "
            + "sender's walk over Qwen3-8B's tensors ~15 ms); no source times a Mooncake READ of a GPU bucket", "the ring's NIC-to-NIC READs", Setup.PARTLY);
    private static final RefitMiss VERL_EFA = of(Stage.UNKNOWN, "what makes one split of the same nccl_parallel "
            + "loop slower than the others: the frame taken from the stock engine brings the 1+3 and 3+1 splits within "
            + "20% but not 2+2 (twice the rest in both passes) nor 3+1's second pass (32% over its first); "
            + "nccl_parallel's phases (walk and wire in series, ~26-78 phases by S) are not priced",
            "the frame beside each rollout GPU's PCIe link", Setup.PARTLY);
    private static final RefitMiss VERL_A800_2P2 = of(Stage.GATHER, "the TorchTitan export's per-tensor FP32 "
            + "all-gather over a FSDP group spanning both trainer hosts, ~24 s by the PR's own HSDP row (10.24 s on the "
            + "same receivers with the gather inside one host), at a host-to-host rate the source does not give; "
            + "beside it the ~10 s the 1+1 row misses as well", "the wire", Setup.PARTLY);
    private static final RefitMiss VERL_A800_1P1 = of(Stage.UNKNOWN, "~10 s no source times apart: the manager's "
            + "whole update around the broadcast and SGLang's per-bucket IPC loads, or a host-to-host rate well under "
            + "the posed NICs'", "the wire", Setup.PARTLY);
    private static final RefitMiss LMSYS_RDMA = of(Stage.FRAMEWORK, "what the replica's per-GB load cost taken from "
            + "Qwen3-30B-A3B does not hold here (its all-gathers are priced apart, on this row's host's NVLink); no "
            + "stage is timed apart", "the CPU replicas' loads at the calibrated cost per GB, after each bucket's "
            + "all-gathers and their device-to-host copies", Setup.PARTLY);
    private static final RefitMiss LMSYS_KIMI = of(Stage.FRAMEWORK, "the engines' post_load_weights re-quantisation "
            + "(~884 ms by the source) and ~4 s more no source times apart: FP8 quantisation in the trainer's HF "
            + "conversion, 139,583 tensors (its EP32 all-gather over four hosts is priced)", "the replicas' loads, "
            + "each after its bucket's all-gathers, the writes beside them", Setup.PARTLY);
    private static final RefitMiss NEMO_BF16 = of(Stage.FRAMEWORK, "what makes the source's time grow with the "
            + "inference side's replicas beyond the ring all-gather's bytes between the hosts (priced: 7/8 of each "
            + "parameter at TP2xDP8, 1/2 at TP8xDP2); not the xferdtensor walk (16 transfers a call at TP2xDP8, 64 at "
            + "TP8xDP2); of what grows with each rank's share, vLLM's post-load swap of w13's halves for FlashInfer's "
            + "MoE (if v0.20.0 gives it BF16 on H100, as its issue threads say) is 0.009-0.017 s more at HBM rate, "
            + "against the 0.034 s the row lacks to reach its band, and the merged projections' receive buffers come "
            + "from the allocator's cache; no source times either", "the xferdtensor calls' host work, one after "
            + "another", Setup.PARTLY);
    private static final RefitMiss NEMO_FP8 = of(Stage.FRAMEWORK, "as the BF16 row, plus what more than doubles "
            + "the time against BF16 beyond the block scales' loads; NeMo-RL's FP8 post-load step moves expert bytes "
            + "only if vLLM gives block FP8 FlashInfer's MoE on H100 (at most ~0.012 s at TP2 at HBM rate, against the "
            + "0.008 and 0.018 s these rows lack to reach their bands; v0.20.0's choice not read), timed by no source", "the block scales' loads, one call each", Setup.PARTLY);
    private static final RefitMiss ISEEKYAN = of(Stage.FRAMEWORK, "the engine's pause, cache flush, memory release "
            + "and resume, the trainer's barriers, and vLLM's load path", "the per-handle and per-tensor engine costs",
            Setup.PARTLY);
    private static final RefitMiss ISEEKYAN_BOUNCE = of(Stage.TRANSFER, "a synchronous .cpu() per parameter into "
            + "pageable host memory, at a rate no source gives", "pinned DMA at the PCIe link's rate", Setup.PARTLY);

    /** The classification of every counted refit row the model misses today, by row id. */
    static final Map<String, RefitMiss> BY_ROW = Stream.of(
            Stream.of(row("VERL5176-Q8B-MOONCAKE", VERL_MOONCAKE)),
            rows(List.of("VERL7262-2P2", "VERL7262-2P2-PASS2", "VERL7262-3P1-PASS2"), VERL_EFA),
            Stream.of(row("VERL7324-2P2-NCCL", VERL_A800_2P2), row("VERL7324-1P1-NCCL", VERL_A800_1P1)),
            Stream.of(row("SKYRL2090-NCCL", of(Stage.FRAMEWORK, "Megatron-Bridge's per-task export host work (a "
                    + "conversion task per parameter, each PP broadcast first all-gathering its tensor's spec as a "
                    + "Python object) and the HF conversion", "470 GB through the sender's one NIC after each "
                    + "bucket's PP, TP and EP gathers", Setup.PARTLY))),
            rows(List.of("LMSYS-MOONLIGHT-NCCL", "LMSYS-GLM47FLASH-NCCL", "LMSYS-KIMIK2-NCCL"), of(Stage.UNKNOWN,
                    "a cost that grows with bytes, not tensors: the one-head rows publish 21.5-23.9 GB/s of weights, "
                    + "GQA (Qwen3-30B-A3B, passing on its per-tensor loads) and MLA alike, Kimi-K2's eight heads 19.3 "
                    + "GB/s; not SGLang's MLA rebuild after each load_weights call, which in the copies of its code read "
                    + "reads nothing back to the host (its split of all 47 layers at every call for GLM-4.7-Flash "
                    + "priced, beside the broadcasts); no source "
                    + "times a head's broadcast apart", "the engines' lock (calls and loads) or the broadcasts at each "
                    + "head's one NIC, the two side by side", Setup.PARTLY)),
            rows(List.of("LMSYS-GLM45AIR-RDMA"), LMSYS_RDMA),
            Stream.of(row("LMSYS-KIMIK2-RDMA", LMSYS_KIMI)),
            Stream.of(row("HALO11-SGLANG-EFA", of(Stage.FRAMEWORK, "the model is slow: it charges the vLLM client's "
                    + "calibrated per-chunk cost to a client whose per-chunk work differs and is not timed apart",
                    "the wire plus 16 per-chunk costs", Setup.PARTLY))),
            Stream.of(row("PPLX-KIMI-256TO128", of(Stage.TRANSFER, "the model is slow: in the slice map's order the "
                    + "senders meet on the same receiving NICs; the source's schedule order is not published",
                    "one receiving NIC", Setup.POSED))),
            rows(List.of("NEMO2971-EP8PP2-TP2DP8"), NEMO_BF16),
            rows(List.of("NEMO2971-EP8PP2-TP2DP8-FP8", "NEMO2971-EP4TP2PP2-TP2DP8-FP8"), NEMO_FP8),
            rows(List.of("ISEEKYAN85-GPU-RESIDENT", "ISEEKYAN85-DIST-OPT", "ISEEKYAN85-MBRIDGE"), ISEEKYAN),
            rows(List.of("ISEEKYAN85-HOST-BOUNCE", "ISEEKYAN85-BOUNCE-COST"), ISEEKYAN_BOUNCE),
            Stream.of(row("NIXL1498-PER-TENSOR", of(Stage.REGISTRATION, "how a registration's cost grows with its "
                    + "tensor's size, and the HCAs each tensor is registered on", "the per-call and per-byte terms "
                    + "fitted on ModelExpress PRs #267 and #450", Setup.PARTLY)),
                    row("NIXL1498-RANGE-CACHE", of(Stage.REGISTRATION, "the model is slow: a per-byte cost for "
                    + "VMM ranges (the PR's 51 GB range in 8 ms, 47x below MX-BENCH-ARENA's per GB)", "the per-byte "
                    + "terms fitted on per-tensor cudaMalloc registrations", Setup.PARTLY))))
            .flatMap(s -> s).collect(Collectors.toUnmodifiableMap(Map.Entry::getKey, Map.Entry::getValue));

    /** A counted refit row the model misses today opens its known-failure text with its cause. */
    static ValidationRow named(ValidationRow r) {
        RefitMiss miss = BY_ROW.get(r.id());
        if (miss == null || r.knownFailure().isEmpty()) {
            return r;
        }
        return new ValidationRow(r.id(), r.source(), r.what(), r.setup(), r.low(), r.high(), r.unit(), r.tolerance(),
                r.evidence(), r.scenario(), r.dependsOn(), r.calibration(), miss.named(r.knownFailure()), r.model(),
                r.nics(), r.uncounted());
    }
}
