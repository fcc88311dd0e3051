package org.rdmasim.validation;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.rdmasim.refit.method.RefitCalibration;
import org.rdmasim.validation.ValidationRow.Modelled;
import org.rdmasim.workload.RefitSummary;
import org.rdmasim.hardware.ProfileKey;

/**
 * Published refit (weight sync) times, each against a refit workload posed from its setup
 * (scenarios/validation/refit-*.yaml; each file opens with the source, the setup as published and what it
 * assumes for what the source leaves unstated). A time is the steady cycle of a two-cycle run (the second
 * update: registration and warm-up behind it), as the sources time an update after the first.
 *
 * <p>No refit parameter is fitted here: every stage is a mechanism (wire, PCIe, NVLink, HBM) or a named
 * default of {@link org.rdmasim.refit.method.RefitCalibration}, whose pause, resume and barrier are 0 until
 * a measurement isolates them. A row the model misses says which mechanism it lacks. The calibration rows
 * are shown and not counted: dynamo PR #10901, the measurement the registration terms were fitted to,
 * halo PR #11's 1 and 8 GiB chunk points (with its 0.31 s sync, the 1 GiB configuration), from which the
 * per-bucket fixed cost of broadcast methods is taken, checkpoint-engine's GLM-4.5-Air broadcast update
 * (CKPT-GLM45AIR-8H800), from which the end of every checkpoint-engine update is taken, and verl's NCCL
 * checkpoint-engine benchmark (VERLCE-Q30B-NCCL), from which the sender's walk over an FSDP trainer's tensors is
 * taken.
 */
final class RefitRows {
    private static final double TOL = 0.20;
    private static final String CKPT_H800 = "validation/refit-ckpt-engine-h800.yaml";
    private static final String CKPT_H20 = "validation/refit-ckpt-engine-h20.yaml";
    private static final String VERL_CE = "validation/refit-verl-ckpt-h100.yaml";
    /** verl at the commit that added the checkpoint engines and their benchmark (PR #4775). */
    private static final String VERL_CE_AT = "verl-project/verl 6f33c553b ";
    /** verl at the commit that added the Mooncake engine (PR #5176). */
    private static final String VERL_MC_AT = "verl-project/verl 01dc76da7 ";
    /** verl at the README the Mooncake row's figure is read from. */
    private static final String VERL_README_AT = "verl-project/verl 1dda039b ";
    /** The trainer of verl's checkpoint-engine benchmark, from its code at the commit that added the README table. */
    private static final String VERL_CE_TRAINER = "The trainer is FSDPEngineConfig(forward_only=True, "
            + "fsdp_size=resource_pool.world_size, strategy=\"fsdp\"), the world size 2 here (" + VERL_CE_AT
            + "tests/checkpoint_engine/test_utils.py:87): FP32 weights (model_dtype \"fp32\" by default, " + VERL_CE_AT
            + "verl/workers/config/engine.py:171) under FSDP1 with CPUOffload(offload_params=True) when forward_only ("
            + VERL_CE_AT + "verl/workers/engine/fsdp/transformer_impl.py:322-323), so every update's state_dict() "
            + "(:656) copies each rank's pinned FP32 shard to its GPU, all-gathers and clones it before the first "
            + "tensor is sent, and each tensor is all-gathered in FP32 and cast to BF16 before it is packed; the time "
            + "is the receivers' log, whose clock starts with the trainer's update (" + VERL_CE_AT
            + "tests/checkpoint_engine/test_nccl_checkpoint_engine.py:87, " + VERL_CE_AT
            + "tests/checkpoint_engine/test_nixl_checkpoint_engine.py:100). The engines say so too: \"model "
            + "parameters are in fp32 full precision\" (" + VERL_CE_AT
            + "verl/checkpoint_engine/nixl_checkpoint_engine.py:364).";
    private static final String VERL_PAR = "validation/refit-verl-nccl-parallel-efa.yaml";
    private static final String Q235 = "validation/refit-qwen3-235b-h100.yaml";
    private static final String LMSYS = "validation/refit-lmsys-p2p-h100.yaml";
    private static final String HALO = "validation/refit-halo-efa-chunks.yaml";
    private static final String VERL_A800 = "validation/refit-verl-delta-a800.yaml";
    private static final String DYN = "validation/refit-dynamo-rereg-gb200.yaml";
    private static final String PPLX = "validation/refit-perplexity-kimi.yaml";
    private static final String COLOC = "validation/refit-colocated-ipc.yaml";
    private static final String NEMO = "validation/refit-nemo-reshard-h100.yaml";
    private static final String NEMO_SET = "validation/refit-nemo-xfer-set.yaml";

    /** The two calibrated per-call costs, as the rows' texts quote them. */
    private static final String BUCKET_MS = String.format(Locale.ROOT, "%.2f ms",
            RefitCalibration.defaults().value(RefitCalibration.BUCKET) * 1e3);
    private static final String TENSOR_MS = String.format(Locale.ROOT, "%.3f ms",
            RefitCalibration.defaults().value(RefitCalibration.LOAD_TENSOR) * 1e3);
    /** What a broadcast's engine rests on when it loads what it receives. */
    private static final String LOAD_COST = "refit.loadTensorSeconds (calibrated: vime #175 with halo PR #11)";
    /** The per-bucket fixed cost every broadcast bucket pays, and where it comes from. */
    private static final String BUCKET_COST = "refit.bucketSeconds (calibrated: whitecircle/halo PR #11 chunk curve)";
    /** What a broadcast refit rests on: NCCL's pipeline step, the per-bucket cost, the GPUs' datasheet rates, the NICs' line rates. */
    private static final List<String> BCAST = List.of("refit.ncclStepBytes (derived: NCCL DEFAULT_BUFFSIZE / NCCL_STEPS)",
            BUCKET_COST, LOAD_COST, "GPU HBM and NVLink rates (derived: NVIDIA datasheets)", "NIC line rate and link-layer efficiency");
    /** The end of every checkpoint-engine update, and the row it is taken from. */
    private static final String UPDATE_END_COST = RefitCalibration.CKPT_UPDATE_END
            + " (calibrated: CKPT-GLM45AIR-8H800)";
    /** checkpoint-engine's broadcast update: a broadcast's terms and the update's end. */
    private static final List<String> BCAST_CKPT = java.util.stream.Stream.concat(BCAST.stream(),
            java.util.stream.Stream.of(UPDATE_END_COST)).toList();
    /**
     * checkpoint-engine's P2P update: a broadcast's terms, the update's end, the READ from the owners' host memory,
     * and the registration of its h2d buffer at every update.
     */
    private static final List<String> P2P_CKPT = java.util.stream.Stream.concat(java.util.stream.Stream.of(
            "refit.ncclStepBytes (derived: NCCL DEFAULT_BUFFSIZE / NCCL_STEPS)", BUCKET_COST, LOAD_COST,
            UPDATE_END_COST, "GPU HBM and NVLink rates (derived: NVIDIA datasheets)",
            "NIC line rate and link-layer efficiency", ProfileKey.QP_READ_RATE.in("connectx7")),
            ValidationCatalog.REG_TERMS.stream()).toList();
    /** A broadcast to receivers that load nothing (verl's checkpoint-engine benchmark). */
    private static final List<String> BCAST_RECEIVE_ONLY = List.of("refit.ncclStepBytes (derived: NCCL "
            + "DEFAULT_BUFFSIZE / NCCL_STEPS)", BUCKET_COST, "GPU HBM and NVLink rates (derived: NVIDIA datasheets)",
            "NIC line rate and link-layer efficiency");
    private static final List<String> BCAST_EFA = List.of("refit.ncclStepBytes (derived: NCCL DEFAULT_BUFFSIZE / "
            + "NCCL_STEPS)", BUCKET_COST, LOAD_COST, "GPU HBM and NVLink rates (derived: NVIDIA datasheets)",
            ProfileKey.EFA_WIRE_EFFICIENCY.in("aws-efa") + " (assumed)");
    /** verl's frame around its engine, once per update, and the row it is taken from. */
    private static final String VERL_FRAME_COST = RefitCalibration.VERL_UPDATE_FRAME + " (calibrated: VERL7263-STOCK)";
    private static final String VERL_FRAME_S = String.format(Locale.ROOT, "%.2f s",
            RefitCalibration.defaults().value(RefitCalibration.VERL_UPDATE_FRAME));
    /** What a NIXL ring rests on: the per-bucket cost at its sender, READ and NVLink rates, the NICs' line rates. */
    private static final List<String> NIXL_RING = List.of(BUCKET_COST, ProfileKey.QP_READ_RATE.in("connectx7"),
            "GPU HBM and NVLink rates (derived: NVIDIA datasheets)", "NIC line rate and link-layer efficiency");
    /**
     * What a Mooncake chain rests on: the per-bucket cost at its sender, NIC-to-NIC READs at two QPs an HCA pair
     * (each QP's READ rate, above half the wire, does not bind), the NICs' line rates.
     */
    private static final List<String> MOONCAKE_RING = List.of(BUCKET_COST, ProfileKey.QP_READ_RATE.in("connectx7"),
            "GPU HBM and NVLink rates (derived: NVIDIA datasheets)", "NIC line rate and link-layer efficiency");
    /** The sender's walk over an FSDP trainer's tensors in verl's engines, and the row it is taken from. */
    private static final String PACK_COST = RefitCalibration.PACK_TENSOR + " (calibrated: VERLCE-Q30B-NCCL)";
    private static final String PACK_MS = String.format(Locale.ROOT, "%.3f ms",
            RefitCalibration.defaults().value(RefitCalibration.PACK_TENSOR) * 1e3);
    /** verl's engines over an FSDP trainer: the method's own terms and the sender's walk over its tensors. */
    private static List<String> walked(List<String> terms) {
        return java.util.stream.Stream.concat(terms.stream(), java.util.stream.Stream.of(PACK_COST)).toList();
    }

    /** A verl engine timed by verl's trainer through its manager: the walked engine's terms and the frame. */
    private static List<String> managed(List<String> terms) {
        return java.util.stream.Stream.concat(walked(terms).stream(), java.util.stream.Stream.of(VERL_FRAME_COST))
                .toList();
    }

    /** What a pull refit's steady cycle rests on (registration is paid in the first cycle only). */
    /**
     * miles' P2P update through a CPU replica: each load a device-to-host copy (the GPU's PCIe link, the socket's
     * DDR5), each write from host memory at the NICs' line rate.
     */
    private static final List<String> REPLICA = List.of("GPU PCIe link and host memory rates (derived: PCIe "
            + "generation and width, DDR5 channels)", RefitCalibration.REPLICA_LOAD + " (calibrated: LMSYS-Q30B-RDMA)",
            "NIC line rate and link-layer efficiency");
    /** The replica's load beyond its copy, as the rows' texts quote it. */
    private static final String REPLICA_S_GB = String.format(Locale.ROOT, "%.3f s",
            RefitCalibration.defaults().value(RefitCalibration.REPLICA_LOAD));
    private static final List<String> PULL = List.of(ProfileKey.QP_READ_RATE.in("connectx7"),
            "GPU HBM and NVLink rates (derived: NVIDIA datasheets)", "NIC line rate and link-layer efficiency");

    /** Why the one isolated install time found is not priced: it contradicts halo's sync. */
    private static final String PRIME_REPLAY = "the one install time published apart (PrimeIntellect-ai/prime-rl PR "
            + "#3341: replay of 82.501 GB per H200 in 1.954 s, 42 GB/s) is not taken as every engine's rate: halo PR "
            + "#11's B300 sync, one chunk at a time, would take ~0.69 s at it against its published 0.31 s, where the "
            + "model without it already gives 0.30 s";
    private static final String NCCL_CHANNELS = "rdmasim runs an NCCL broadcast over one channel per NIC beside the "
            + "communicator's GPUs on a host (the fewest over its hosts), each carrying its part of the bucket through "
            + "its own NIC; that the search settles on those NICs is assumed";
    /**
     * The framework-overhead gap of a verl engine over an FSDP trainer, whose sender's walk over the tensors is
     * priced: the walk's seconds ({@code walk}) and the model's answer without the per-bucket cost ({@code without}).
     */
    private static final String WALKED_FMT = "rdmasim prices the wire, PCIe, NVLink gather, HBM copies, a fixed "
            + BUCKET_MS + " a bucket, " + TENSOR_MS + " a tensor through the engine's load_weights (calibrated on "
            + "halo PR #11's chunk curve and vime #175; without the bucket cost the model gives %s s) and the "
            + "sender's walk over the tensors, " + PACK_MS + " a tensor (calibrated on VERLCE-Q30B-NCCL: %s tensors, "
            + "%s s, under the wire here); the engine's post-processing, the senders' phase barriers and "
            + "synchronisation are not modelled: no source isolates them for these frameworks (" + PRIME_REPLAY + ")";

    private static String walkedOverhead(String without, String tensors, String walk) {
        return String.format(Locale.ROOT, WALKED_FMT, without, tensors, walk);
    }

    /** The same, for receivers that load nothing (a receive-only benchmark). */
    private static final String RECEIVE_ONLY_FMT = "rdmasim prices the wire, PCIe, NVLink gather, HBM copies, a "
            + "fixed " + BUCKET_MS + " a bucket (calibrated on halo PR #11's chunk curve; without it the model gives "
            + "%s s) and the sender's walk over the tensors (" + PACK_MS + " a tensor, calibrated on VERLCE-Q30B-NCCL); "
            + "synchronisation is not modelled: no source isolates it for these frameworks";

    /** A pull pays no per-bucket cost: what it lacks is per-call and per-tensor work on both sides. */
    /** What vLLM's sharded RDT rows rest on: the pull's READ rate and the engine's two per-call costs. */
    private static final List<String> RDT = List.of(ProfileKey.QP_READ_RATE.in("connectx7"),
            "refit.rdtScatterSeconds (calibrated: vLLM sharded_rdt.md)", "refit.rdtPackSeconds (calibrated: vLLM "
            + "sharded_rdt.md)", "GPU HBM and NVLink rates (derived: NVIDIA datasheets)",
            "NIC line rate and link-layer efficiency");

    private RefitRows() {
    }

    /** The gap of a receive-only benchmark, with the model's answer without the per-bucket cost. */
    private static String receiveOnly(String without) {
        return String.format(Locale.ROOT, RECEIVE_ONLY_FMT, without);
    }

    static List<ValidationRow> rows() {
        List<ValidationRow> r = new ArrayList<>();
        checkpointEngine(r);
        verl(r);
        qwen235(r);
        lmsys(r);
        halo(r);
        perplexity(r);
        nemo(r);
        registration(r);
        colocated(r);
        expectations(r);
        // each row the model misses opens its text with its cause (RefitMiss: the audit of issue 25's rows)
        return new ArrayList<>(r.stream().map(RefitMiss::named).toList());
    }

    /** checkpoint-engine at the README the rows' figures are read from. */
    private static final String CKPT_AT = "MoonshotAI/checkpoint-engine 415c3205 ";
    /** The commit the update's end is read at (its lines moved after 415c3205). */
    private static final String CKPT_END_AT = "MoonshotAI/checkpoint-engine 59a3c4f ";

    private static void checkpointEngine(List<ValidationRow> r) {
        String src = "MoonshotAI/checkpoint-engine README.md @415c3205, Benchmark [ckpt-engine-readme]";
        String h800 = "8 x H800, one vLLM v0.10.2rc1 instance of TP8; weights in host memory; per bucket H2D, NCCL "
                + "broadcast, reload through CUDA IPC. Not stated: one host (posed), its PCIe and NICs (posed as a DGX "
                + "H100 with H800's 8 NVLinks a GPU, 400 GB/s), owners (posed: all 8 ranks, equal bytes each, "
                + "where " + CKPT_AT + "examples/update.py:55-62 gives each an equal count of tensors)";
        String h800Ends = "; each update ends in refit.checkpointEngineUpdateEndSeconds (buffers freed, gc, vLLM's "
                + "process_weights_after_loading, the closing barriers, the process group destroyed: " + CKPT_END_AT
                + "checkpoint_engine/ps.py:576, " + CKPT_END_AT + "checkpoint_engine/ps.py:583-587, " + CKPT_END_AT
                + "checkpoint_engine/ps.py:860-883, " + CKPT_END_AT + "checkpoint_engine/worker.py:84-100, "
                + CKPT_END_AT + "checkpoint_engine/worker.py:200-201), taken from this row";
        // GLM-4.5-Air's broadcast update is the measurement the update's end is taken from: shown, not counted
        r.add(ValidationRow.measured("CKPT-GLM45AIR-8H800", src)
                .what("Update (Broadcast), GLM-4.5-Air BF16, bucket 3.02 GiB")
                .setup(h800 + h800Ends)
                .published(3.47, "s").tolerance(TOL).scenario(CKPT_H800 + "#glm-4.5-air").dependsOn(BCAST_CKPT)
                .calibration(true)
                .model(runs -> steadyOf(runs, CKPT_H800, "glm-4.5-air", "")).onNics(0));
        r.add(steady("CKPT-Q235-8H800", src, "Update (Broadcast), Qwen3-235B-A22B-Instruct-2507 BF16, bucket 2.67 GiB",
                h800, 6.22, CKPT_H800, "qwen3-235b", BCAST_CKPT, "", 0));
        String h20 = "H20 hosts, vLLM v0.10.2rc1 instances of TP16 (16 GPUs: one instance; 256 GPUs: 16 instances), "
                + "FP8; per bucket H2D, NCCL broadcast to every rank, reload. Not stated: NICs and fabric (posed as "
                + "DGX H100 hosts, 8 x 400G InfiniBand), owners (posed: every rank, equal bytes each), DeepSeek-V3.1 as "
                + "DeepSeek-V3's architecture";
        r.add(steady("CKPT-DSV31-16H20", src, "Update (Broadcast), DeepSeek-V3.1 FP8, 16 GPUs, bucket 5.39 GiB", h20,
                10.19, CKPT_H20, "dsv31-16", BCAST_CKPT, "", 16));
        r.add(steady("CKPT-KIMI-16H20", src, "Update (Broadcast), Kimi-K2-Instruct FP8, 16 GPUs, bucket 5.89 GiB", h20,
                14.36, CKPT_H20, "kimi-16", BCAST_CKPT, "", 16));
        r.add(steady("CKPT-DSV31-256H20", src, "Update (Broadcast), DeepSeek-V3.1 FP8, 256 GPUs, bucket 8 GiB", h20,
                11.33, CKPT_H20, "dsv31-256", BCAST_CKPT, "", 16));
        r.add(steady("CKPT-KIMI-256H20", src, "Update (Broadcast), Kimi-K2-Instruct FP8, 256 GPUs, bucket 8 GiB", h20,
                16.04, CKPT_H20, "kimi-256", BCAST_CKPT, "", 16));
        checkpointEngineP2p(r, src);
    }

    /**
     * The same table's "Update (P2P)" column: {@code ParameterServer.update(ranks=range(0, N))}, the README's
     * "tested for updating no more than two nodes (16 GPUs) ... out of the entire cluster". Posed as the broadcast
     * rows' setups with the P2P update of the first 8 (H800) or 16 (H20) ranks.
     */
    private static void checkpointEngineP2p(List<ValidationRow> r, String src) {
        String p2p = "; P2P update of ranks 0-%d (update(ranks=range(0, %d))): each reads buckets from the owners' "
                + "pinned host memory with Mooncake's Transfer Engine (one RDMA device per rank), broadcasts them among "
                + "the updated ranks only, their engines reload. Not stated: as the broadcast rows; every owner's share "
                + "of the checkpoint posed equal in bytes";
        String h800 = "8 x H800, one vLLM v0.10.2rc1 instance of TP8, weights in host memory of the 8 ranks"
                + String.format(Locale.ROOT, p2p, 7, 8) + "; one host (posed as a DGX H100), so every read loops "
                + "through the host's NICs";
        String h20 = "H20 hosts, TP16 instances, FP8, weights in host memory of every rank (16 or 256)"
                + String.format(Locale.ROOT, p2p, 15, 16) + "; NICs and fabric posed as DGX H100 hosts";
        // the update's end is the broadcast update's, applied unchanged; what the P2P update adds to it is not priced
        String ends = "; each update ends in refit.checkpointEngineUpdateEndSeconds, taken from the broadcast update "
                + "(CKPT-GLM45AIR-8H800); building the process group the P2P update re-creates for its ranks inside "
                + "the timed update (" + CKPT_END_AT + "checkpoint_engine/ps.py:571-574: the world group its previous "
                + "update destroyed, then dist.new_group(ranks)) is not priced apart: no source measures it";
        r.add(steady("CKPT-P2P-GLM45AIR-8H800", src, "Update (P2P), GLM-4.5-Air BF16, bucket 3.02 GiB", h800 + ends,
                4.12, CKPT_H800, "glm-4.5-air-p2p", P2P_CKPT, "", 0));
        r.add(steady("CKPT-P2P-Q235-8H800", src, "Update (P2P), Qwen3-235B-A22B-Instruct-2507 BF16, bucket 2.68 GiB",
                h800 + ends, 7.10, CKPT_H800, "qwen3-235b-p2p", P2P_CKPT, "", 0));
        r.add(steady("CKPT-P2P-DSV31-16H20", src, "Update (P2P), DeepSeek-V3.1 FP8, 16 GPUs, bucket 5.41 GiB",
                h20 + ends, 11.80, CKPT_H20, "dsv31-16-p2p", P2P_CKPT, "", 16));
        r.add(steady("CKPT-P2P-KIMI-16H20", src, "Update (P2P), Kimi-K2-Instruct FP8, 16 GPUs, bucket 5.91 GiB",
                h20 + ends, 17.49, CKPT_H20, "kimi-16-p2p", P2P_CKPT, "", 16));
        r.add(steady("CKPT-P2P-DSV31-256H20", src, "Update (P2P), DeepSeek-V3.1 FP8, 16 of 256 GPUs, bucket 8 GiB",
                h20 + ends, 11.81, CKPT_H20, "dsv31-256-p2p", P2P_CKPT, "", 16));
        r.add(steady("CKPT-P2P-KIMI-256H20", src, "Update (P2P), Kimi-K2-Instruct FP8, 16 of 256 GPUs, bucket 8 GiB",
                h20 + ends, 16.75, CKPT_H20, "kimi-256-p2p", P2P_CKPT, "", 16));
    }

    private static void verl(List<ValidationRow> r) {
        String ncclLoop = VERL_CE_AT + "verl/checkpoint_engine/nccl_checkpoint_engine.py:225-262";
        // the sender's walk over the tensors is taken from the NCCL benchmark: shown, not counted
        r.add(ValidationRow.measured("VERLCE-Q30B-NCCL", "verl-project/verl verl/checkpoint_engine/README.md "
                        + "@00548f90, Benchmark [verl-ce-readme]")
                .what("NCCL checkpoint engine update, ~7 s (8.25 GB/s)")
                .setup("Qwen3-30B-A3B-Base, FSDP world size 2, 30 receive-only rollouts, 4 x 8 H100 with ConnectX-7 "
                        + "400G InfiniBand; bucket 2 GiB from the benchmark script (" + VERL_CE_AT
                        + "tests/checkpoint_engine/test_nccl_checkpoint_engine.py:52). " + VERL_CE_TRAINER + " Not "
                        + "stated: NICs per host (posed 8), rollout TP (posed 1), where the trainer sits (posed on its "
                        + "own host). The sender's walk over the tensors (" + RefitCalibration.PACK_TENSOR + ") is "
                        + "taken from this row: trainer rank 0's loop takes each tensor from the generator (a DTensor "
                        + "full_tensor(), an all-gather both FSDP ranks call in lockstep), casts it to BF16 and copies "
                        + "it into the bucket (" + ncclLoop + "), while the previous bucket's broadcast runs in its "
                        + "own thread; ~7 s less what the model gives beside the walk (1.32 s: the ~1.3 s unshard of "
                        + "the offloaded FP32 shards before the first tensor, then the last bucket's call, broadcast "
                        + "and clone) over the 18,867 tensors is " + PACK_MS + " a tensor. The walk then bounds the "
                        + "send: a 2 GiB bucket's ~650 tensors take ~0.2 s to pack where its broadcast at the sender's "
                        + "one nearest NIC takes ~45 ms (the rollouts load nothing, and the scenario sets the engine's "
                        + "per-tensor load to 0)")
                .published(7.0, "s").tolerance(TOL).scenario(VERL_CE + "#nccl").dependsOn(walked(BCAST_RECEIVE_ONLY))
                .calibration(true)
                .model(runs -> steadyOf(runs, VERL_CE, "nccl", "")).onNics(8));
        r.add(steady("VERLCE-Q30B-NIXL", "verl-project/verl verl/checkpoint_engine/README.md @00548f90, Benchmark "
                + "[verl-ce-readme]; the engine and its benchmark script [verl-nixl-engine]", "NIXL checkpoint engine update (ring p2p), ~7 s (8.25 GB/s)",
                "Qwen3-30B-A3B-Base, FSDP world size 2, 30 receive-only rollouts, 4 x 8 H100 with ConnectX-7 400G "
                        + "InfiniBand; bucket 2 GiB and UCX_TLS rc,ud,cuda from the benchmark script ("
                        + VERL_CE_AT + "tests/checkpoint_engine/test_nixl_checkpoint_engine.py:61, :44). " + VERL_CE_TRAINER
                        + " Not stated: NICs per host (posed 8), rollout TP (posed 1), where the trainer sits (posed "
                        + "on its own host), NIXL/UCX releases (posed 1.1.0 / 1.20.0). The sender's loop is the NCCL "
                        + "engine's line for line (a full_tensor(), a cast to BF16 and a copy into the bucket per "
                        + "tensor, " + VERL_CE_AT + "verl/checkpoint_engine/nixl_checkpoint_engine.py:363-400), priced "
                        + "at the per-tensor walk taken from VERLCE-Q30B-NCCL; after the trainer's unshard of its "
                        + "offloaded FP32 shards (~1.3 s, inside the receivers' clock, :426) the walk bounds the ring "
                        + "as it bounds the broadcast: the chain's 58 store-and-forward steps (29 buckets of 2 GiB "
                        + "through 30 hops, ~1.7 s of READs at one QP a rail) run under it, so the two engines' equal "
                        + "published times over different wires are what the model gives",
                7.0, VERL_CE, "nixl", walked(NIXL_RING), "", 8));
        String mcSource = "verl-project/verl verl/checkpoint_engine/README.md @1dda039b L74, Benchmark, and the engine "
                + "[verl-mooncake-engine]";
        String mcEngine = VERL_README_AT + "verl/checkpoint_engine/mooncake_checkpoint_engine.py";
        String mcTimed = "The time is trainer rank 0's send_weights, whose log gives the published bandwidth: the bytes "
                + "of every bucket but the last over the time (" + mcEngine + ":184, :229-230), so it ends when ring "
                + "rank 1 has flagged the last bucket (:227), and the model's time is taken there. It starts after "
                + "get_per_tensor_param has built the state dict (:171; " + VERL_MC_AT + "tests/checkpoint_engine/"
                + "test_utils.py:44-45), so the trainer's unshard of its CPU-offloaded FP32 shards (the same FSDP1 "
                + "engine, " + VERL_MC_AT + "tests/checkpoint_engine/test_utils.py:125) is outside it and the "
                + "variant leaves it out; inside it each tensor is still all-gathered in FP32 and cast to BF16 "
                + "(model_dtype \"fp32\" by default), in the NCCL engine's loop (" + mcEngine + ":180-216), priced at "
                + "the per-tensor walk taken from VERLCE-Q30B-NCCL. ";
        String mcPosed = "NICs per host (posed 8, one per GPU, DGX H100), rollout TP (posed 1), the trainer's host "
                + "(posed its own: every Mooncake hop crosses the NICs wherever it sits), the engine's device (posed "
                + "cuda, its default) and device filter (posed none: each GPU's nearest HCA), Mooncake's release "
                + "(posed with num_qp_per_ep 2, as from v0.3.6 to 3b5a59413)";
        r.add(sender("VERLCE-Q30B-MOONCAKE", mcSource, "Mooncake checkpoint engine update (ring p2p), 5.93 s "
                + "(9.44 GB/s)", "Qwen3-30B-A3B-Base, FSDP world size 2, receive-only rollouts, 2 x 8 H100 with "
                + "ConnectX-7 400G InfiniBand, bucket 2 GiB (verl PR #5176: bucket_size=2GB, which verl reads in MiB: "
                + "update_weights_bucket_megabytes << 20). " + mcTimed + "Not stated: how the 16 GPUs split (posed "
                + "2 trainer ranks + 14 rollouts), " + mcPosed + ". The walk sets the pace: a 2 GiB bucket's ~650 "
                + "tensors take ~0.2 s to pack, where a hop as rdmasim runs it (a NIC-to-NIC READ, two QPs an HCA "
                + "pair, held by the reading engine's context thread: transport.sliceThread, calibrated on "
                + "MC-VLLM-KV-MARGIN) moves the bucket in ~108 ms", 5.93, "mooncake-q30b", walked(MOONCAKE_RING), "", 8));
        String mcBytes = "the two Mooncake rows agree per byte (9.6 and 8.0 GiB/s over the whole model) though one "
                + "model has 18,867 tensors and the other 399: the walk taken from VERLCE-Q30B-NCCL gives "
                + "Qwen3-30B-A3B's ~0.21 s a bucket at ring rank 1 (~650 tensors a bucket) but ~15 ms for Qwen3-8B's "
                + "~50, where the published time gives ~0.25 s, and a hop as rdmasim runs it moves a 2 GiB bucket in "
                + "~108 ms (the reading context's slice thread); so either what binds Qwen3-8B grows with bytes, or part of what the walk's per-tensor "
                + "cost stands for grows with bytes, and one published row a model cannot tell which. Per byte "
                + "inside the clock, trainer rank 0 all-gathers each FP32 tensor over NVLink with the other FSDP "
                + "rank and casts it to BF16 (" + VERL_MC_AT + "verl/workers/engine/fsdp/transformer_impl.py:693-700), "
                + "then copies it into the bucket (" + mcEngine + ":215): rdmasim prices these at NVLink and HBM "
                + "rates (~0.05 s for Qwen3-8B, under the hops), and no public source times one transfer_sync_read "
                + "of a 2 GiB GPU buffer, so what sets Qwen3-8B's pace is not modelled and not fitted; ";
        r.add(sender("VERL5176-Q8B-MOONCAKE", "verl-project/verl PR #5176, benchmark table [verl-pr-5176]; the engine "
                + "[verl-mooncake-engine]", "Mooncake checkpoint engine update, Qwen3-8B, 1.90 s (7.28 GB/s)",
                "Qwen3-8B, 8 H100 with ConnectX-7 400G InfiniBand, bucket 2 GiB, receive-only rollouts. " + mcTimed
                        + "Not stated: the trainer (posed FSDP world size 2, as the README's benchmark) and the "
                        + "rollouts (posed 6 GPUs, the (2, 6) split verl's engine tests run on one 8-GPU node), " + mcPosed
                        + ". The PR ran on one 8-GPU node; rdmasim places trainer and rollouts on separate hosts (one "
                        + "host holding both is refused), so the trainer is posed on a second DGX H100; every "
                        + "Mooncake hop crosses the NICs on one host as across two, so the time does not depend on it",
                1.90, "mooncake-q8b", walked(MOONCAKE_RING),
                "about 2.1x faster than published: the 8 buckets reach ring rank 1 in ~0.89 s, every hop a "
                        + "NIC-to-NIC READ held by the reading context's slice thread (19.8 GB/s) and the sender's walk "
                        + "over the 399 tensors (0.12 s) under the hops; " + mcBytes + receiveOnly("~0.85"), 8));
        String p7263 = "verl-project/verl PR #7263 [verl-pr-7263]";
        String efa = "27B BF16, 8-GPU FSDP2 trainer host, vLLM TP4 rollout, bucket 2048 MB, AWS EFA; 8 B200 a node and "
                + "Qwen3.5-27B (55.6 GB) in the PR's commit message, posed here as p6-b200.48xlarge (8 B200, one 400G "
                + "EFA device per GPU on the GPU's PCIe switch) and a dense Qwen3-shaped 27.2B. Not stated: the "
                + "instance type (posed the AWS instance with 8 B200 and EFA), the trainer's model_dtype and "
                + "offload (posed BF16 weights on the GPUs, not offloaded: the engine calls its stream BF16, "
                + "verl-project/verl e88dcf17b verl/checkpoint_engine/nccl_parallel_checkpoint_engine.py:499, and at "
                + "its base verl sends the trainer's own dtype uncast, verl-project/verl 1ae945592 "
                + "verl/workers/engine/fsdp/transformer_impl.py:972-978, so verl's FP32 default was not the recipe's)";
        String ce = "verl-project/verl e88dcf17b verl/checkpoint_engine/";
        String vllm = "verl-project/verl e88dcf17b verl/workers/rollout/vllm_rollout/";
        // the time is verl's trainer timer around the checkpoint-engine manager, whose frame is taken from this row
        String timed = ". The time is read as verl's trainer timer (\"per refit\" over a GSM8K training run; "
                + "timing_s/update_weights, verl-project/verl e88dcf17b verl/trainer/ppo/ray_trainer.py:1690-1691), "
                + "which wraps CheckpointEngineManager.update_weights: every replica aborted and paused, the rollout "
                + "workers' group built, prepare and init_process_group on every worker, the engine, finalize on every "
                + "worker, generation resumed (" + ce + "base.py:486-538), and on each vLLM worker a new CUDA IPC "
                + "bucket, process_weights_after_loading after the last bucket, the bucket freed with gc.collect and "
                + "empty_cache, the prefix cache cleared (" + vllm + "bucketed_weight_transfer.py:174-217, " + vllm
                + "utils.py:306-311, " + vllm + "vllm_rollout.py:239-243); rdmasim holds that frame once per update as "
                + RefitCalibration.VERL_UPDATE_FRAME + " (" + VERL_FRAME_S + ", taken from VERL7263-STOCK)";
        // the stock engine's refit is the measurement the frame is taken from: shown, not counted
        r.add(ValidationRow.measured("VERL7263-STOCK", p7263)
                .what("stock nccl engine, one sender, mean of 20 refits")
                .setup(efa + timed + ". Taken from this row: 3.01 s less the model's 1.13 s without the frame (the "
                        + "engine alone: " + NCCL_CHANNELS + ", and the sender alone on its host sends its channels "
                        + "over several EFA devices which all leave through its GPU's own PCIe link, Gen5 x16; the "
                        + "walk over the 707 tensors, 0.21 s; " + BUCKET_MS + " a bucket; the loads). No source times "
                        + "the frame's steps apart, so whatever else the row's gap holds (a per-byte cost on EFA the "
                        + "model lacks would be one) is folded into it")
                .published(3.01, "s").tolerance(TOL).scenario(VERL_PAR + "#stock-nccl").dependsOn(managed(BCAST_EFA))
                .calibration(true)
                .model(runs -> steadyOf(runs, VERL_PAR, "stock-nccl", "")).onNics(8));
        // nccl_parallel: the same frame around a striped engine, out of sample
        String parallel = efa + timed + ". nccl_parallel as its code runs it: every trainer rank walks every tensor "
                + "in lockstep (" + ce + "nccl_parallel_checkpoint_engine.py:25-29), owner b % S copies bucket b into "
                + "its buffer (:743-749) and broadcasts it on its own group; rdmasim stripes whole buckets over the "
                + "senders' groups, each rollout GPU receiving every bucket through its own PCIe link, which bounds "
                + "the engine (0.84 s)";
        String phases = "; what the model leaves out of the engine: the per-group bucket is the budget over S "
                + "(:487-500: 256, 128 and 85 MB at S = 8, 16, 24), the buckets go out in bulk-synchronous phases of "
                + "phase buckets (8 here) between two sender barriers, each phase's broadcasts waited for before "
                + "any rank walks on (:709-737), and each receiver applies a phase only after a device synchronise "
                + "(:849-900), so walk and wire run in series (about 0.2 s more at the walk's 0.21 s); no source "
                + "times a phase";
        r.add(steady("VERL7263-PARALLEL", p7263, "nccl_parallel, 8 senders, mean of 20 refits", parallel + phases, 2.51,
                VERL_PAR, "nccl-parallel", managed(BCAST_EFA), "", 8));
        String p7262 = "verl-project/verl issue #7262 [verl-issue-7262]";
        String split = "; #7262 runs phase=8 (the issue's text; the engine's phase argument, :369-373) whatever S, so "
                + "S = 16 and 24 send a half and a third of the 2 GiB budget a phase, in ~52 and ~78 phases of the "
                + "55.6 GB against ~26 at S = 8";
        String twoByTwo = "the source takes 2.0x the model's time (and twice the 1+3 and 3+1 splits', 2.48 and 2.93 s): "
                + "with the "
                + "frame taken from the stock engine (" + VERL_FRAME_S + ") the model gives 2.72 s, as it does for "
                + "every split, where the source gives 5.55 s and 5.01 s on its second pass; the code runs the same "
                + "loop for every S and nothing in it is slower at S = 16 than at S = 24 (per-group bucket 128 MB, "
                + "phase=8: ~52 phases of 1 GiB, against ~78 of 0.67 GiB at S = 24); what differs in 2+2 is that both "
                + "the trainer's FSDP all-gathers and the receivers span two hosts, which the model prices at the "
                + "wire; the authors cannot explain it either (\"an interaction not yet characterized\", "
                + ce + "nccl_parallel_checkpoint_engine.py:74-75); pricing the phases' walk and wire in series (:709-737, "
                + "about 0.2 s, the walk's 0.21 s, the same at every S) would give ~2.93 s for every split, still 42-47% "
                + "under the published times, so the model leaves them out rather than add a term that does not "
                + "tell 2+2 from the others";
        r.add(steady("VERL7262-1P3", p7262, "nccl_parallel, 1 trainer + 3 rollout hosts (S=8), mean of 10",
                parallel + phases + split, 2.480, VERL_PAR, "1p3", managed(BCAST_EFA), "", 8));
        r.add(steady("VERL7262-2P2", p7262, "nccl_parallel, 2 trainer + 2 rollout hosts (S=16), mean of 10",
                parallel + phases + split, 5.548, VERL_PAR, "2p2", managed(BCAST_EFA), twoByTwo, 8));
        r.add(steady("VERL7262-3P1", p7262, "nccl_parallel, 3 trainer + 1 rollout host (S=24), mean of 10",
                parallel + phases + split, 2.931, VERL_PAR, "3p1", managed(BCAST_EFA), "", 8));
        // "A second pass of the same matrix on the exact submitted tree": one more run of each split.
        r.add(steady("VERL7262-1P3-PASS2", p7262, "nccl_parallel, 1 trainer + 3 rollout hosts (S=8), second pass",
                parallel + phases + split, 2.84, VERL_PAR, "1p3", managed(BCAST_EFA), "", 8));
        r.add(steady("VERL7262-2P2-PASS2", p7262, "nccl_parallel, 2 trainer + 2 rollout hosts (S=16), second pass",
                parallel + phases + split, 5.01, VERL_PAR, "2p2", managed(BCAST_EFA), twoByTwo, 8));
        r.add(steady("VERL7262-3P1-PASS2", p7262, "nccl_parallel, 3 trainer + 1 rollout host (S=24), second pass",
                parallel + phases + split, 3.88, VERL_PAR, "3p1", managed(BCAST_EFA), "the source takes 1.4x the "
                        + "model's time (2.73 s, which the same split's first pass, 2.93 s, is within 7% of): one run of a split "
                        + "whose two passes differ by 32%; the source says its single-topology numbers \"carry "
                        + "meaningful variance\"; beyond that, the phases' series of walk and wire (above) and the "
                        + "per-phase barriers, ~78 phases at S = 24 against ~26 at S = 8, are what the code spends more "
                        + "on at S = 24, unpriced: the series adds about the walk's 0.21 s at every S (each phase waits on its "
                        + "own broadcast before the ranks walk on, :709-737), ~2.93 s, still 24% under this pass and "
                        + "pushing the 1+3 split's first pass (2.48 s) to 18% over; the barriers are enqueued, not "
                        + "waited on (:690-707), so they add no wait the code shows", 8));
        String v7324 = "verl-project/verl 040a28659 ";
        String a800 = "Qwen3-8B, TorchTitan FSDP2 trainer to SGLang TP2 replicas, A800 80GB, one_step_off_policy. Not "
                + "stated: NICs (posed one 200G ConnectX-6 per GPU), the A800's form (posed SXM: 8 NVLinks a GPU). As "
                + "the code at the merge runs it (" + v7324 + "): the bucket is verl's default, 2 GiB "
                + "(" + v7324 + "verl/trainer/config/rollout/rollout.yaml:292); every trainer rank walks the export in lockstep, "
                + "each tensor's full_tensor() an all-gather of its FP32 master over the whole FSDP group, cast to "
                + "BF16 only after it (" + v7324 + "verl/workers/engine/torchtitan/transformer_impl.py:662; FP32 masters, :616), "
                + "so the gather moves twice the bytes sent, priced over NVLink; rank 0 packs the tensors one by one "
                + "(" + v7324 + "verl/checkpoint_engine/nccl_checkpoint_engine.py:350-379): the walk priced at the per-tensor cost "
                + "taken from VERLCE-Q30B-NCCL";
        String a800Fail = "15-46x faster than published: " + walkedOverhead("0.69", "399", "0.12") + ". What the "
                + "source's code runs beyond that, none of it timed by any source: the timer (sync_rollout_weights, "
                + v7324 + "verl/experimental/one_step_off_policy/ray_trainer.py:398) wraps the manager's whole update "
                + "(" + v7324 + "verl/checkpoint_engine/base.py:506-558: abort, kv-cache release, process-group build with two "
                + "fresh 2 GiB buffers on every worker and a new ZeroMQ subscriber on every receiver, "
                + v7324 + "verl/checkpoint_engine/nccl_checkpoint_engine.py:165-173, 307-310, the transfer, finalize with empty_cache, :182-193, "
                + "kv-cache resume, generation resume); each rollout rank receives the whole model and hands it to "
                + "its SGLang TP worker a 2 GiB bucket at a time, each bucket one update_weights_from_tensor request "
                + "from the replica's TP rank 0 after a gather of the tensors' CUDA-IPC handles over the replica's "
                + "gloo group, then flush_cache (" + v7324 + "verl/workers/rollout/sglang_rollout/sglang_rollout.py:214-233, "
                + "371-380). verl's manager frame taken from VERL7263-STOCK (" + VERL_FRAME_S + ", into vLLM "
                + "rollouts over EFA) is not held: the replicas' steps are SGLang's here; held, it would leave the "
                + "model under 3 s. What triples from 1+1 to 2+2 is not the receivers: the PR's own HSDP row, the "
                + "same 16 SGLang receivers on 2+2 hosts with each FSDP gather inside one host (dp_shard 4 x TP2), "
                + "took 10.24 s (on faster nodes, docs/advance/delta_weight_sync.md:173, :183), against 34.26 s "
                + "when the gather group (dp_shard 16) spans both trainer hosts; the doc lays the nccl baseline's "
                + "cost on \"the full-tensor all-gather and rank-0 staging costs\" (:20-23). rdmasim prices that gather "
                + "at NVLink whatever hosts its group spans; at the posed 8 x 200G a host it would add ~0.16 s "
                + "(2 x 16.4 GB x 15/16 over the host's NICs), where the PR's rows put ~24 s on it. Both rows agree "
                + "with one host-to-host rate of ~1.4-1.5 GB/s, ~6% of one posed NIC, bounding the trainer host's "
                + "egress: the 16.4 GB broadcast alone in 1+1, the broadcast and the gather's 30.7 GB crossing in "
                + "2+2, a ratio of 2.88 against the published 3.11; that rate comes from these rows and the source "
                + "states no network, so it is not modelled";
        r.add(steady("VERL7324-2P2-NCCL", "verl-project/verl PR #7324 [verl-pr-7324]",
                "nccl full broadcast, 16 trainer GPUs to SGLang TP2 x 8 (2+2 hosts)", a800, 34.26, VERL_A800, "2p2",
                walked(BCAST), a800Fail, 8));
        r.add(steady("VERL7324-1P1-NCCL", "verl-project/verl PR #7324 [verl-pr-7324]",
                "nccl full broadcast, 8 trainer GPUs to SGLang TP2 x 4 (1+1 hosts)", a800, 11.00, VERL_A800, "1p1",
                walked(BCAST), a800Fail, 8));
    }

    private static void qwen235(List<ValidationRow> r) {
        String nics = " Not stated: NICs (posed DGX H100 hosts, 8 x 400G InfiniBand), NIXL/UCX releases (posed "
                + "1.1.0 / 1.20.0)";
        r.add(ValidationRow.measured("VLLM43375-Q235-RDT", "vllm-project/vllm PR #43375 [vllm-pr-43375]")
                .what("P2P RDT weight sync, seconds per sync")
                .setup("Qwen3-235B-A22B BF16 (472 GB a sync), 8-rank FSDP2 trainer host to vLLM DP8 + EP8 host, 2 x 8 "
                        + "H100, vLLM's sharded RDT engine (NIXL pulls of each worker's slice, a gather group at a "
                        + "time), buffers registered at init." + nics)
                .published(3.2, 3.3, "s").tolerance(TOL).scenario(Q235 + "#vllm-rdt").dependsOn(RDT).calibration(true)
                .model(runs -> steadyOf(runs, Q235, "vllm-rdt", "")).onNics(16));
        // Not counted either: the PR's sync is the setup (235B, FSDP2 8 -> DP8 + EP8, 2 x 8 H100) the doc's per-call
        // figures were measured at, so it checks their composition, not the model. SkyRL's row is the independent one.
        // The doc's walls come from the runs its per-call figures were measured in, so they are not counted.
        String doc = "vllm-project/vllm docs/training/weight_transfer/sharded_rdt.md @027fc251 [vllm-sharded-rdt]";
        String docSetup = "235B (Qwen3-235B-A22B), vLLM's sharded RDT engine, gather_lookahead 2. Not stated: the "
                + "hosts and layouts (posed as vLLM PR #43375's: 8-rank FSDP2 to DP8 + EP8, 2 x 8 H100)." + nics;
        String spare = "faster than published: a spare slot removes every pull's scatter wait in the model, as the "
                + "doc says it does, but the doc measured the wall grow: the extra concurrency inflated the pack "
                + "(8.3 -> 21.4 ms a call, GIL-bound in the sidecar) and the producer's wait for the trainer's gather "
                + "(3.6 -> 9.3 ms a call); rdmasim prices a produce call at 8.3 ms whatever runs beside it and the "
                + "gather at NVLink rate, so contention in the sidecar is not a mechanism it has";
        // {id, what, published s, variant}; a spare slot's rows are the ones the model misses
        String[][] walls = {{"VLLMRDT-PERNAME", "old per-name pack, no spare slot", "3.10", "vllm-rdt"},
            {"VLLMRDT-CHEAPPACK", "cheap pack, no spare slot", "2.70", "vllm-rdt"},
            {"VLLMRDT-SPARE-PERNAME", "old per-name pack, one spare slot", "3.39", "vllm-rdt-spare-slot"},
            {"VLLMRDT-SPARE-CHEAPPACK", "cheap pack, one spare slot", "3.44", "vllm-rdt-spare-slot"}};
        for (String[] wall : walls) {
            String variant = wall[3];
            r.add(ValidationRow.measured(wall[0], doc)
                    .what("wall a sync, " + wall[1])
                    .setup(docSetup)
                    .published(Double.parseDouble(wall[2]), "s").tolerance(TOL).scenario(Q235 + "#" + variant)
                    .dependsOn(RDT).calibration(true)
                    .knownFailure(variant.equals("vllm-rdt-spare-slot") ? spare : "")
                    .model(runs -> steadyOf(runs, Q235, variant, "")).onNics(16));
        }
        String skyrl = "Qwen3-235B-A22B (LoRA merged, ~470 GB a sync), Megatron tp4/pp2/ep8/etp1 on 2 hosts to one vLLM "
                + "engine dp16/tp1/ep16 on 2 hosts, vLLM's sharded RDT engine." + nics + "; GPU type (posed H100)";
        r.add(steady("SKYRL2090-RDT", "NovaSky-AI/SkyRL PR #2090 [skyrl-pr-2090]", "sharded RDT sync", skyrl
                + "; unpriced: Megatron's export of each layer to full tensors (its TP and EP gathers) before the "
                + "producer publishes it", 3.54, Q235, "skyrl-rdt", RDT, "", 32));
        // SkyRL's nccl path at the last commit before the PR merged (the PR's own head is not mirrored)
        String skyrlNccl = "NovaSky-AI/SkyRL a9564572 skyrl/backends/skyrl_train/";
        String bridge = "NVIDIA-NeMo/Megatron-Bridge 91a15142 src/megatron/bridge/models/conversion/";
        r.add(steady("SKYRL2090-NCCL", "NovaSky-AI/SkyRL PR #2090 [skyrl-pr-2090]", "NCCL broadcast sync",
                skyrl.replace("vLLM's sharded RDT engine", "SkyRL's nccl backend") + "; broadcast bucket (not stated: SkyRL's default weight_transfer_threshold_cuda_ipc_GB, 1 GB of "
                + "gathered bytes a bucket, NovaSky-AI/SkyRL a9564572 skyrl/train/config/config.py:1115, posed 1 GiB); the Megatron ranks "
                + "posed in Megatron's default order (pp outermost), so stage 0 is trainer host 0 and each PP group "
                + "spans the two hosts (were the stages split across hosts instead, the PP broadcasts would ride "
                + "NVLink and the EP8 all-gathers the fabric; rdmasim's layout has only Megatron's order). As the "
                + "source's code runs it: trainer rank 0 alone broadcasts to the engines (" + skyrlNccl
                + "weight_sync/broadcast_strategy.py:159-177), every rank running Megatron-Bridge's export_hf_weights "
                + "once per bucket (" + skyrlNccl + "workers/megatron/megatron_worker.py:264-329, SkyRL's pinned "
                + "Megatron-Bridge), which broadcasts each parameter from its PP stage to the other (" + bridge
                + "param_mapping.py:341-428), then all-gathers it over TP (:613-628) and, for experts, EP (:722-814)",
                64.72, Q235, "skyrl-nccl", BCAST,
                "5.1x faster than published: the model sends the 470 GB through trainer rank 0's one NIC at line "
                        + "rate, plus " + BUCKET_MS + " a bucket (calibrated on halo PR #11; without it the model "
                        + "gives 10.20 s), the engine's loads per tensor hidden under the next bucket's wire; each "
                        + "bucket first goes through Megatron-Bridge's export (each stage's shards broadcast to the "
                        + "other stage over the PP groups, ~30 GB each way through every trainer NIC a sync, rank 0's "
                        + "NIC shared with the broadcast; then TP4 and EP8 all-gathers on NVLink: 2.74 s of "
                        + "gather); not modelled, and timed apart by no source: the "
                        + "export's per-task host work, one conversion task per parameter (per local expert for "
                        + "experts), rebuilt every sync so each PP broadcast first all-gathers the tensor's spec "
                        + "as a Python object (" + skyrlNccl + "workers/megatron/megatron_worker.py:293-296, " + bridge
                        + "param_mapping.py:369-383), and the HF conversion of every tensor", 32));
    }

    /** The P2P update of radixark/miles at the commit of the LMSYS blog's run. */
    private static final String MILES_P2P = "radixark/miles 9a6fc9e6 miles/backends/megatron_utils/update_weight/"
            + "update_weight_from_distributed/";

    private static void lmsys(List<ValidationRow> r) {
        String src = "lm-sys/lm-sys.github.io blog/2026-04-29-p2p-update.md @89fa558a [lmsys-p2p-blog]";
        String setup = "H100 8-GPU hosts with InfiniBand; time from the engine's pause return to continue_generation. "
                + "Not stated: NICs (posed 8 x 400G), separate or shared hosts (posed separate), bucket (posed 1 GiB), "
                + "BF16";
        // the NCCL rows run the source's broadcast path (miles @9a6fc9e6, update_weight_from_distributed/broadcast.py
        // and mixin.py): each PP stage's head sends its buckets under the engines' lock, each gathered to it first; the
        // lock covers the call and the engines' host-side load, the broadcasts run on the devices one at a time
        String ncclPath = ". As the source's code runs it [miles-p2p]: the head of each PP stage broadcasts its "
                + "stage's buckets (" + MILES_P2P + "broadcast.py:76-79), each bucket first all-gathered to the head "
                + "over its TP group (non-expert weights) or its EP group (experts, " + MILES_P2P + "mixin.py:115-126); "
                + "a head takes the engines' lock for each bucket's call and lets it go once the engines reply ("
                + MILES_P2P + "broadcast.py:85-97, a head that finds it taken retrying 0.1 s later). " + SGLANG_RECEIVE
                + " Neither side's wait holds its host: PyTorch's wait() on an asynchronous NCCL collective only makes "
                + "the current CUDA stream wait (pytorch/pytorch docs/source/distributed.rst, 'Synchronous and "
                + "asynchronous collective operations'; " + MILES_P2P + "broadcast.py:181-182 on the head, SGLang's "
                + "handle.wait() loop on the engines), so the engines reply once their host has queued the bucket's "
                + "load, the bytes still on the wire; the broadcasts go one at a time all the same (each engine rank's "
                + "stream holds the load's copies behind this broadcast and the next broadcast behind them), and a "
                + "head's next expert bucket waits for its last broadcast, as its all_gather_object reads sizes back "
                + "to the host (" + MILES_P2P + "mixin.py:105)";
        String q30 = "Qwen3-30B-A3B, train TP4 EP8 on 2 hosts, inference TP8 EP8 on 2 hosts. " + setup;
        String glm = "GLM-4.5-Air, train PP4 EP8 on 4 hosts (stages 12/12/12/10 layers: the profiling script's "
                + "decoder_last_pipeline_num_layers 10, radixark/miles 9a6fc9e6 examples/p2p_weight_transfer/run.py:439), "
                + "inference TP8 EP8 on 4 hosts. " + setup;
        // the RDMA rows run the source's own path (rdma-pull with source: host-replica), the replica's load priced per
        // GB loaded (calibrated on the Qwen3-30B-A3B row); what it still leaves out
        String rdmaModel = ". Modelled from the source's code [miles-p2p]: every stage's all-gathered trainer ranks "
                + "send whole engine-rank slices by its transfer plan (plan_p2p, " + MILES_P2P
                + "p2p_transfer_utils.py:68), each sender, bucket by bucket and engine rank by engine rank ("
                + MILES_P2P + "p2p.py:132-173), loading its CPU replica (model_replica.load_weights, " + MILES_P2P
                + "p2p.py:150: a device-to-host copy from its GPU into pinned memory of its socket, then the rest of "
                + "the load, SGLang's weight loaders on the CPU model, at " + REPLICA_S_GB + " a GB of the engine "
                + "rank's share, refit.replicaLoadPerGBSeconds, calibrated on LMSYS-Q30B-RDMA) and RDMA-WRITEing it "
                + "from host memory into the engines' GPU weights over Mooncake's HCAs for that socket, the writes of "
                + "all but the last engine rank waited for, at most 4 at once (p2p_transfer_num_workers, :72). Each "
                + "bucket is first all-gathered by every rank of the stage, non-expert weights over its TP group, "
                + "experts over its EP group (" + MILES_P2P + "mixin.py:49-50, :78-79, :115-126; collectives, so the "
                + "stage's ranks start each bucket's gathers together): rings over NVLink inside a host and over the "
                + "fabric where an EP group spans hosts. Not priced apart, and timed apart by no source (the "
                + "calibration holds what they cost on its row): the HF conversion of every bucket, and the engines' "
                + "post_process_weights";
        // the RDMA rows' setup: what the blog's profiling script states, in place of what the shared setup poses
        java.util.function.UnaryOperator<String> rdmaSetup = t -> t.replace(", separate or shared hosts (posed "
                + "separate), bucket (posed 1 GiB)", "").replace(" The source's '1 node' posed as one trainer host "
                + "and one inference host.", " The source's '1 node' is one trainer and one rollout host (nnodes 2 "
                + "in its profiling script).") + ". Stated by the blog's profiling script [miles-p2p]: trainer and "
                + "rollout on separate nodes (radixark/miles 9a6fc9e6 examples/p2p_weight_transfer/run.py:732, :757), "
                + "1 GiB buckets in P2P mode (:118, :1053-1054)" + rdmaModel;
        r.add(steady("LMSYS-Q30B-NCCL", src, "NCCL broadcast update, Qwen3-30B-A3B", q30 + ncclPath, 2.6700, LMSYS,
                "qwen3-30b-nccl", BCAST, "",
                16));
        // Qwen3-30B-A3B's RDMA update is the measurement the replica's load is taken from: shown, not counted. Chosen
        // before the others were run as the row with the fewest posed or extra terms: BF16, no pipeline stages to
        // split, GQA attention (no MLA weights for the engines to rebuild after the writes), plan_p2p giving each of
        // its 16 senders exactly one of the 16 engine ranks (one load and one write a bucket)
        r.add(ValidationRow.measured("LMSYS-Q30B-RDMA", src)
                .what("RDMA P2P update, Qwen3-30B-A3B")
                .setup(rdmaSetup.apply(q30) + "; the per-GB cost of the replica's load is taken from this row "
                        + "(2.160 s less the model's 0.276 s without it, each bucket's all-gathers on NVLink included, "
                        + "over the 7.68 GB each sender loads)")
                .published(2.1602, "s").tolerance(TOL).scenario(LMSYS + "#qwen3-30b-rdma").dependsOn(REPLICA)
                .calibration(true)
                .model(runs -> steadyOf(runs, LMSYS, "qwen3-30b-rdma", "")).onNics(16));
        r.add(steady("LMSYS-GLM45AIR-NCCL", src, "NCCL broadcast update, GLM-4.5-Air", glm + ncclPath, 5.0011, LMSYS,
                "glm-4.5-air-nccl", BCAST, "", 32));
        r.add(steady("LMSYS-GLM45AIR-RDMA", src, "RDMA P2P update, GLM-4.5-Air", rdmaSetup.apply(glm), 2.6372, LMSYS,
                "glm-4.5-air-rdma", REPLICA, "21% faster than published (out of sample; 0.57 s before the replica's "
                        + "load was priced): each sender of a 12-layer stage loads one engine rank's share of its stage "
                        + "(plan_p2p gives each of a stage's 8 senders one engine rank, written to all 4 engines), "
                        + "about 6.9 GB in 1.70 s at the per-GB cost taken from Qwen3-30B-A3B, after each bucket's "
                        + "EP8 all-gather, which stays on the stage's one host's NVLink (0.25 s a cycle) as the "
                        + "calibration row's does; the published time would need about 0.32 s a GB. The source times "
                        + "no stage apart, so what differs from the calibration row is not known: the per-GB figure "
                        + "holds that row's conversion and post-processing too, which need not scale with the bytes a "
                        + "sender loads. Not the engines' rebuild at the update's end: miles asks every engine for "
                        + "post_load_weights once a P2P update has written its weights (" + MILES_P2P
                        + "p2p.py:119-130), which in SGLang's DeepSeek-family loader rebuilds only layers holding an "
                        + "MLA kv_b_proj (sgl-project/sglang 0201c04e "
                        + "python/sglang/srt/models/deepseek_common/deepseek_weight_loader.py (no line: read in a stored "
                        + "copy, too large to mirror)); GLM-4.5-Air and the calibration row's Qwen3-30B-A3B are both GQA, "
                        + "with none to rebuild", 32));
        String q235 = "Qwen3-235B-A22B, train TP4 PP4 CP2 EP16 on 8 hosts (stages 24/24/24/22 layers: the profiling "
                + "script's decoder_last_pipeline_num_layers 22, radixark/miles 9a6fc9e6 "
                + "examples/p2p_weight_transfer/run.py:465), inference TP32 EP32 on 8 hosts (posed 2 engines of TP32, each with its experts over its own 32 ranks). " + setup;
        r.add(steady("LMSYS-Q235-NCCL", src, "NCCL broadcast update, Qwen3-235B-A22B", q235 + ncclPath, 10.7536, LMSYS,
                "qwen3-235b-nccl", BCAST, "", 64));
        r.add(steady("LMSYS-Q235-RDMA", src, "RDMA P2P update, Qwen3-235B-A22B", rdmaSetup.apply(q235), 3.1620, LMSYS,
                "qwen3-235b-rdma", REPLICA, "", 64));
        // Qwen3-235B's RDMA row passes (out of sample) since each bucket's all-gathers are priced as the source runs
        // them: its EP16 group spans the stage's two trainer hosts, so every expert bucket's ring crosses InfiniBand
        // (the cycle's gathers 0.84 s) where the calibration row's stays on NVLink; before, it was 25% fast
        // the one-host rows: the source's own note is that at small EP the CPU replica's load costs more than the
        // P2P transfer saves (its GLM-4.7-Flash RDMA update is 1.7 times its broadcast): per GB loaded, it does
        String oneHost = " The source's '1 node' posed as one trainer host and one inference host. " + setup;
        String moon = "Moonlight-16B-A3B (DeepSeek-V3 architecture, 16B total), train TP2 EP8 on 1 host, inference TP8 "
                + "EP8 on 1 host." + oneHost;
        r.add(steady("LMSYS-MOONLIGHT-NCCL", src, "NCCL broadcast update, Moonlight-16B-A3B", moon + ncclPath, 1.4820,
                LMSYS, "moonlight-16b-nccl", BCAST, mlaFast("0.65", "0.49", "30", "1.37"), 8));
        r.add(steady("LMSYS-MOONLIGHT-RDMA", src, "RDMA P2P update, Moonlight-16B-A3B", rdmaSetup.apply(moon), 1.0733, LMSYS,
                "moonlight-16b-rdma", REPLICA, "", 8));
        String flash = "GLM-4.7-Flash (the source's 'GLM-4.7-9B-Flash', 30B total; MLA attention), train TP4 EP8 on 1 "
                + "host, inference TP4 EP4 on 1 host (posed 2 engines of TP4, each with its experts over its own 4 ranks)." + oneHost;
        r.add(steady("LMSYS-GLM47FLASH-NCCL", src, "NCCL broadcast update, GLM-4.7-Flash", flash + ncclPath, 2.5086,
                LMSYS, "glm-4.7-flash-nccl", BCAST, mlaFast("1.22", "1.12", "57", "2.77", ". GLM-4.7-Flash's own "
                        + "class redoes the split for all 47 layers after every load_weights call, not only for the "
                        + "layers the bucket carried (post_load_weights(weight_names=None), sgl-project/sglang "
                        + "03b1e880 python/sglang/srt/models/glm4_moe_lite.py (no line: read from a code index)); "
                        + "the model prices that as 47 more tensors a load (assumed at the per-tensor cost: 0.24 s of "
                        + "host work a cycle, in the loads above), and, beside the broadcasts as the rest of the load, "
                        + "it leaves the cycle where it was without it (1.646 s)"), 8));
        r.add(steady("LMSYS-GLM47FLASH-RDMA", src, "RDMA P2P update, GLM-4.7-Flash", rdmaSetup.apply(flash), 4.2290, LMSYS,
                "glm-4.7-flash-rdma", REPLICA, "", 8));
        String kimi = "Kimi-K2 FP8 re-quantised by the source to 64 x 64 blocks (~1 TB), train TP8 PP8 CP4 EP32 on 32 "
                + "hosts (stages of 8 layers, the last 5: the profiling script's decoder_last_pipeline_num_layers 5, "
                + "radixark/miles 9a6fc9e6 examples/p2p_weight_transfer/run.py:495), inference TP32 EP32 on 32 hosts (posed 8 engines of "
                + "TP32, each with its experts over its own 32 ranks). " + setup.replace(", BF16", "");
        r.add(steady("LMSYS-KIMIK2-NCCL", src, "NCCL broadcast update, Kimi-K2 FP8", kimi + ncclPath, 53.2791, LMSYS,
                "kimi-k2-nccl", BCAST, mlaFast("23.41", "12.86", "959", "44.67"), 256));
        r.add(steady("LMSYS-KIMIK2-RDMA", src, "RDMA P2P update, Kimi-K2 FP8", rdmaSetup.apply(kimi), 7.2273, LMSYS,
                "kimi-k2-rdma", REPLICA, "70% faster than published (out of sample; 1.34 s before each bucket's "
                        + "all-gathers were priced): each sender loads one engine "
                        + "rank's share of its 8-layer stage (about 4.4 GB, 1.1 s at the per-GB cost taken from "
                        + "Qwen3-30B-A3B) and writes it to all 8 engines, the last engine rank's writes running beside "
                        + "the next bucket's gathers and load as the source's do (" + MILES_P2P + "p2p.py:153-161); "
                        + "each bucket's EP32 all-gather spans the stage's four trainer hosts, its BF16 experts (twice "
                        + "the FP8 bytes sent) on rings through every NIC of those hosts. The source says ~884 ms of its "
                        + "7.23 s is the engines' post_load_weights re-quantising on their GPUs (radixark/miles 9a6fc9e6 "
                        + "docs/en/advanced/p2p-weight-transfer.md:106); the rest, ~4 s, is not timed apart: Kimi-K2 "
                        + "differs from every other row in its FP8 weights (each trainer rank quantises every BF16 "
                        + "tensor to FP8 blocks in its HF conversion, radixark/miles 9a6fc9e6 "
                        + "miles/backends/megatron_utils/megatron_to_hf/__init__.py:26) and its 139,583 tensors (scales "
                        + "included, 8 times Qwen3-30B-A3B's)", 256));
    }

    /**
     * Why a miles NCCL row of an MLA model (DeepSeek-V2/V3 attention) is fast: with the engines' loads beside the
     * broadcasts, what is left is the broadcasts at each head's one NIC (each figure from the row's own run). What
     * SGLang's MLA rebuild does was read in stored copies of SGLang's code (sgl-project/sglang is too large to
     * mirror; neither the v0.5.10 tag nor miles' sglang-miles branch was in them): it reads nothing back to the host,
     * so it gives no reason for these engines to reply later than the GQA models' do. The published times' rate per
     * byte is the part that says where the miss lies: model bytes (rdmasim model) over the published seconds.
     */
    private static String mlaFast(String wire, String loads, String buckets, String serial) {
        return mlaFast(wire, loads, buckets, serial, "");
    }

    private static String mlaFast(String wire, String loads, String buckets, String serial, String more) {
        return "faster than published: the engines reply once their host has queued each bucket's load, so their "
                + "loads (" + loads + " s at " + TENSOR_MS + " a tensor) run beside the broadcasts, which take "
                + wire + " s at the head's one nearest NIC over " + buckets + " buckets; were each bucket's load paid "
                + "after its bytes had landed, as rdmasim priced it before, the model would give " + serial + " s. "
                + "Nothing read in SGLang makes the MLA engines wait for the bytes (stored copies of its code, "
                + "neither the v0.5.10 tag nor miles' sglang-miles branch among them): its DeepSeek loader, which "
                + "Moonlight-16B-A3B and Kimi-K2 run (GLM-4.7-Flash's class too, its own end below), calls each "
                + "received GPU tensor's weight loader "
                + "on the calling thread (should_async_load holds only for CPU tensors, sgl-project/sglang 021ba398 "
                + "python/sglang/srt/model_loader/utils.py (no line: read in a stored copy, too large to mirror)), "
                + "then post_load_weights over the layers whose kv_b_proj the call carried, not the whole model "
                + "(sgl-project/sglang 0201c04e python/sglang/srt/models/deepseek_common/deepseek_weight_loader.py "
                + "(no line: read in a stored copy, too large to mirror)); a BF16 kv_b_proj (Moonlight-16B-A3B, "
                + "GLM-4.7-Flash) is split into w_kc and w_vc and copied in place on the device (bind_or_assign's "
                + "copy_), Kimi-K2's 64 x 64 FP8 blocks (not 128) re-quantised to one scale a tensor on the device "
                + "(block_quant_to_tensor_quant: aminmax, no item()); the read-back to the host per expert weight in "
                + "SGLang's expert-location map went in August 2025 (sgl-project/sglang PR #8753), before v0.5.10; "
                + "and miles asks its broadcast path's engines for no whole-model post_load_weights at the end "
                + "(" + MILES_P2P + "mixin.py:197, :156-167; only its P2P path does, " + MILES_P2P + "p2p.py:130). Per byte the rows with one "
                + "stage head publish alike: 22.9 GB/s of the model's weights for Qwen3-30B-A3B (GQA, 309 tensors a "
                + "GB), 21.5 for Moonlight-16B-A3B (167) and 23.9 for GLM-4.7-Flash (158), so what the model misses "
                + "grows with bytes, not with tensors or the attention; Qwen3-30B-A3B passes only as its 18,867 "
                + "tensors' loads hold the engines' lock (1.74 s) longer than its broadcasts (1.24 s, ~49 GB/s at the "
                + "posed 400G NIC). Kimi-K2, eight heads, publishes 19.3 GB/s, GLM-4.5-Air and Qwen3-235B-A22B, four "
                + "heads each, 42.7 and 43.7 GB/s. What would fit the one-head rows is a cost of each bucket's own on "
                + "its head, in series with the head's broadcasts (a head gathers its next bucket once its last "
                + "broadcast has ended) and hidden behind the other heads' broadcasts where a model has four: 20 ms a "
                + "bucket for Moonlight-16B-A3B, 15 ms for GLM-4.7-Flash, which would put Qwen3-30B-A3B's ~57 buckets "
                + "at 2.5-2.8 s against its 2.67; it would not explain Kimi-K2, whose eight heads would hide it. No "
                + "such cost was found in the code read, and no source times a head's buckets apart, so it is not "
                + "modelled" + more;
    }

    /** What the engine does with a broadcast bucket in miles' NCCL path, as SGLang's code runs it. */
    private static final String SGLANG_RECEIVE = "miles calls each engine's update_weights_from_distributed with the "
            + "bucket's names, dtypes and shapes and no load format (radixark/miles 9a6fc9e6 "
            + "miles/backends/sglang_utils/sglang_engine.py:487-502) and broadcasts the bucket one tensor at a time ("
            + MILES_P2P + "broadcast.py:178-182); SGLang (v0.5.10, the image miles builds on, radixark/miles 9a6fc9e6 "
            + "docker/Dockerfile:9, which then installs SGLang's sglang-miles branch, :14, :107-114, not read here) "
            + "then receives every tensor with its own broadcast, waits for them all and calls "
            + "model.load_weights once over the bucket's list (SGLang's ModelRunner.update_weights_from_distributed, "
            + "alike in every copy of its model runner read; not read at the v0.5.10 tag, so no line is cited; its "
            + "flattened-bucket path only when a load format asks for it), one weight loader call per tensor on every "
            + "engine rank, before the engine replies.";

    private static void halo(List<ValidationRow> r) {
        String src = "whitecircle/halo PR #11 [halo-pr-11]";
        String setup = "Qwen3-8B (16.4 GB) a sync, B300 nodes, one trainer worker to one vLLM server worker across "
                + "nodes, NCCL over EFA with GPUDirect both ends. Not stated: the instance (posed: one B300 on PCIe Gen6 "
                + "and one 800 Gbps EFA device a node, AWS P6-B300's 6.4 Tbps over 8 GPUs), TP (posed 1), whether the "
                + "GB/s are end to end (posed: 16.4 GB over the update)";
        long[] gib = {1, 2, 4, 8};
        double[] published = {54, 63, 70, 73};
        for (int i = 0; i < gib.length; i++) {
            String variant = "chunk-" + gib[i] + "g";
            // The 1 and 8 GiB points are what refit.bucketSeconds is taken from (their difference: each chunk is
            // waited for, so every load is in both): shown, not counted. The model stays 1-3% above the curve.
            boolean calibration = gib[i] == 1 || gib[i] == 8;
            r.add(ValidationRow.measured("HALO11-CHUNK-" + gib[i] + "G", src)
                    .what("vLLM client bandwidth, chunk budget " + gib[i] + " GiB")
                    .setup(setup)
                    .published(published[i], "GB/s").tolerance(TOL).scenario(HALO + "#" + variant).dependsOn(BCAST_EFA)
                    .calibration(calibration)
                    .model(runs -> {
                        RefitSummary s = runs.refit(HALO, variant);
                        RefitSummary b200 = runs.refit(HALO, "chunk-1g-p6-b200");
                        return Modelled.value(s.minimumBytes() / s.steadyCycleSeconds() / 1e9, describe(s)
                                + String.format(Locale.ROOT, "; on the p6-b200.48xlarge stand-in (B200 on PCIe "
                                        + "Gen5, 400G EFA), 1 GiB chunks: %.1f GB/s (%s)", b200.minimumBytes()
                                        / b200.steadyCycleSeconds() / 1e9, b200.cycles().get(1).boundWords()));
                    }));
        }
        // The 0.31 s sync (53 GB/s) is the 1 GiB configuration of the curve (54 GB/s): not an independent check
        // of a cost taken from that curve, so it is shown as calibration too.
        r.add(ValidationRow.measured("HALO11-VLLM-EFA", src)
                .what("vLLM client over EFA, one sync")
                .setup(setup + "; chunk (posed 1 GiB: its 53 GB/s is the curve's 1 GiB point, from which the "
                        + "per-chunk cost is taken)")
                .published(0.31, "s").tolerance(TOL).scenario(HALO + "#chunk-1g").dependsOn(BCAST_EFA).calibration(true)
                .model(runs -> steadyBeside(runs, HALO, "chunk-1g", "on the p6-b200.48xlarge stand-in",
                        "chunk-1g-p6-b200")));
        // The SGLang client: its chunk budget is not stated (posed 1 GiB, as the vLLM client's sync); its staging
        // test has each chunk's send settle two chunks later, so the next chunk goes out while the engine loads.
        r.add(ValidationRow.measured("HALO11-SGLANG-EFA", src)
                .what("SGLang client over EFA, one sync (80 GB/s)")
                .setup(setup + "; chunk budget (posed 1 GiB, as the vLLM row); the next chunk sent while the engine "
                        + "loads this one (the PR's SGLang staging test: 'sends settled two chunks later')")
                .published(0.21, "s").tolerance(TOL).scenario(HALO + "#sglang-client").dependsOn(BCAST_EFA)
                .knownFailure("23% slower than published: the model gives each of the 16 chunks the " + BUCKET_MS
                        + " call cost calibrated on halo's vLLM client, paid on the sender before the chunk's send, so "
                        + "it adds 90 ms to the 0.168 s wire whatever the buffering (the loads hide under the next "
                        + "chunk's wire). In the PR's SGLang client (_send_chunk) the chunk's HTTP declaration is posted "
                        + "on a thread while the chunk's broadcasts are issued, and the client waits for the engine's "
                        + "reply to it before the next chunk; what waits two chunks is only the settling of the sender's "
                        + "stream (_stage_on_device). So part of its per-chunk call may run beside the chunk's own wire, "
                        + "which rdmasim's per-bucket cost, paid before the send, cannot do; no source times that "
                        + "client's chunk apart, so nothing is fitted. Read again at halo's newest stored tree "
                        + "(whitecircle/halo 048dbeee src/distributed/nccl/clients/sglang.py (no line: read from a code "
                        + "index), _send_chunk; newer than the PR, whose own tree was not read): the "
                        + "wait on the engine's reply (server_call.wait) comes before the next chunk's declaration, and "
                        + "SGLang's update_weights_from_distributed replies only after load_weights on the received "
                        + "chunk (sgl-project/sglang, no tag read here), so the engine's load sits between one chunk's "
                        + "wire and the next: that code hides less than the posed buffering, not more, and gives no "
                        + "step that would make the client faster than the model. The budget is not stated either: "
                        + "with 2 GiB chunks the model gives the published time (in the note)")
                .model(runs -> steadyBeside(runs, HALO, "sglang-client", "with 2 GiB chunks", "sglang-client-2g")));
        // The raw NCCL pair: no chunk call and no engine, so it rests on the wire alone.
        r.add(ValidationRow.measured("HALO11-RAW-NCCL", src)
                .what("raw NCCL pair, same images")
                .setup(setup + "; what the raw test ran is not stated (posed: the 16.4 GB broadcast between the two "
                        + "GPUs in 1 GiB messages, double buffered, with no chunk call and no engine load)")
                .published(93, "GB/s").tolerance(TOL).scenario(HALO + "#raw-nccl-pair")
                .dependsOn(List.of("refit.ncclStepBytes (derived: NCCL DEFAULT_BUFFSIZE / NCCL_STEPS)",
                        "refit.bucketSeconds (0 s in this variant: a raw pair makes no chunk call)",
                        "refit.loadTensorSeconds (0 s in this variant: no engine loads)",
                        "GPU HBM and NVLink rates (derived: NVIDIA datasheets)",
                        ProfileKey.EFA_WIRE_EFFICIENCY.in("aws-efa") + " (assumed)"))
                .model(runs -> {
                    RefitSummary s = runs.refit(HALO, "raw-nccl-pair");
                    return Modelled.value(s.minimumBytes() / s.steadyCycleSeconds() / 1e9, describe(s));
                }));
    }

    private static void perplexity(List<ValidationRow> r) {
        // The article [pplx-weight-transfer] says its controller maps "which training GPU sends which parameter to
        // which inference GPU, and in what order" ("High-level workflow", step 2) and gives no rule; neither does
        // what we could read of le.qun.ch's posts (2025/09/07, 2025/09/17), arXiv 2510.27656, or
        // perplexityai/pplx-garden (TransferEngine and the MoE kernels, no weight-transfer code). So the row keeps
        // the slice map's order and shows, not counted, the answer under a receiver-staggered order, an assumption
        // it names.
        String setup = "256 training GPUs (BF16, FSDP) to 128 inference GPUs (FP8); per piece full_tensor(), fusion, "
                + "quantisation, WRITE; a Gloo barrier; registration and schedule set up once. Not stated: GPUs and "
                + "NICs (posed DGX H100 hosts, 400G a GPU), the inference layout (posed TP8 x DP16, experts over all "
                + "128 ranks), the FSDP mesh (posed one group of 256 gathered at NVLink rate), piece size (posed 256 "
                + "MiB), the order of the schedule (the source's controller decides which GPU sends what to whom and "
                + "in what order, and publishes no rule: posed in the slice map's order, each sender walking its "
                + "routes by inference rank)";
        r.add(ValidationRow.measured("PPLX-KIMI-256TO128",
                        "research.perplexity.ai, 'Weight Transfer for RL Post-Training in under 2 seconds' "
                        + "(2025-09-24) [pplx-weight-transfer]")
                .what("cross-machine parameter update of Kimi-K2, static RDMA WRITE schedule")
                .setup(setup)
                .published(1.3, "s").tolerance(TOL).scenario(PPLX + "#write-schedule").dependsOn(PULL)
                .knownFailure("slower than published: in the slice map's order every sender starts at inference rank 0 "
                        + "and walks up, so the senders meet on the same receiving NICs at once and one receiving NIC "
                        + "bounds the wire (128 x 400G would carry the 1.38 TB in a tenth of the time); the source's "
                        + "controller orders its schedule by a rule it does not publish. Under a receiver-staggered "
                        + "order (the alternative, an assumption: sender k of 256 starts at inference rank k / 2 and "
                        + "wraps round; not counted, in the note) the model gives 0.41 s, 3x faster than published, "
                        + "the wire then bound by the senders' descriptor posting (an assumed cost) with the gather "
                        + "(0.37 s) under it; the FSDP mesh and the inference layout are posed")
                .model(runs -> steadyOf(runs, PPLX, "write-schedule",
                        String.format(Locale.ROOT, "; receiver-staggered order (assumed, not counted): %s",
                        describe(runs.refit(PPLX, "write-schedule-staggered"))))).onNics(128));
    }

    /** What an NCCL send/recv refit rests on: the GPUs' rates for stacking, all-gather and copy-back, the NICs'. */
    private static final List<String> P2P = List.of("refit.ncclStepBytes (derived: NCCL DEFAULT_BUFFSIZE / NCCL_STEPS)",
            LOAD_COST, "GPU HBM and NVLink rates (derived: NVIDIA datasheets)", "NIC line rate and link-layer efficiency");

    /** NeMo RL at the merge of PR #2971 (nccl_reshard). */
    private static final String NEMO_AT = "NVIDIA-NeMo/RL e40aa046e ";

    /** One xferdtensor call's host work as calibrated, in milliseconds, for the rows' texts. */
    private static final String CALL_MS = String.format(Locale.ROOT, "%.2f ms",
            RefitCalibration.defaults().value(RefitCalibration.RESHARD_CALL) * 1e3);
    /** What a PR #2971 row's modelled time holds of the per-call term, for its note. */
    private static final String CALLS_NOTE = String.format(Locale.ROOT, "; %.2f s of it is the 144 xferdtensor calls "
            + "at %.2f ms a call (refit.reshardCallSeconds, calibrated on NEMO2971-EP8PP2-TP8DP2: a fit that also "
            + "holds the misc parameters' export on the trainer and vLLM's post-load processing, which the model "
            + "does not price apart)", 144 * RefitCalibration.defaults().value(RefitCalibration.RESHARD_CALL),
            RefitCalibration.defaults().value(RefitCalibration.RESHARD_CALL) * 1e3);
    /** The per-call cost of NeMo-RL's Python fallback, and the row it was fitted on. */
    private static final String CALL_COST = "refit.reshardCallSeconds (calibrated: NeMo-RL PR #2971, row "
            + "NEMO2971-EP8PP2-TP8DP2)";
    /** What a shard-to-shard refit through NeMo-RL's Python fallback rests on: P2P's, and the per-call cost. */
    private static final List<String> RESHARD = java.util.stream.Stream.concat(P2P.stream(), java.util.stream.Stream.of(CALL_COST))
            .toList();

    /** What the NeMo-RL shard-to-shard rows price and what they leave out, the same for each. */
    private static final String NEMO_GAP = "the model prices the trainer's expert stacking (MoE: an HBM copy), "
            + "the shard-to-shard sends of the FFN projections at the NICs' rate, the replicas' all-gather, vLLM's "
            + "copy-back into w13, the host work of the 144 xferdtensor calls each inference rank makes one after "
            + "another (Qwen3-30B-A3B's 48 layers x 3 projections, a layer's experts grouped into one; " + NEMO_AT
            + "nemo_rl/models/generation/vllm/vllm_backend.py:983-1036, " + NEMO_AT
            + "nemo_rl/weight_sync/xferdtensor_python.py:960-1045) at " + CALL_MS + " a call, calibrated on row NEMO2971-EP8PP2-TP8DP2, and the other "
            + "parameters' packed broadcast from trainer rank 0 after them, each rank loading those through "
            + "load_weights per tensor (" + TENSOR_MS + ", calibrated). The per-call figure is a fit, not a "
            + "measurement of the call: nothing in a call waits on the GPU, and it also holds what else the "
            + "calibration row's time has that the model does not price (Megatron's export of each misc parameter, "
            + NEMO_AT + "nemo_rl/models/policy/workers/megatron_policy_worker.py:2563-2566, and vLLM's "
            + "process_weights_after_loading, " + NEMO_AT + "nemo_rl/models/generation/vllm/vllm_backend.py:1062), none of which the source times apart. Every "
            + "layout makes the same 144 calls, so the term adds the same 0.67 s to every row. What the code does "
            + "that grows with the replicas, read at " + NEMO_AT + ": the replicas' ring all-gather "
            + "(" + NEMO_AT + "nemo_rl/weight_sync/xferdtensor_python.py:932-957) sends all stripes but one over each link of its "
            + "ring, so between the two inference hosts it carries 1/2, 3/4 and 7/8 of each FFN parameter at "
            + "TP8xDP2, TP4xDP4 and TP2xDP8; the model prices that ring (wire 0.155, 0.192 and 0.210 s), which "
            + "brings the EP4xTP2 -> TP4xDP4 row within its tolerance and leaves the TP2xDP8 rows short. What does not grow: "
            + "every rank of every call walks the whole cached transfer list (_stage_striped_operations, " + NEMO_AT
            + "nemo_rl/weight_sync/xferdtensor_python.py:876-930, the list from _build_striped_transfers, " + NEMO_AT
            + "nemo_rl/weight_sync/xferdtensor_python.py:749-775), 64 entries a call at TP8xDP2 (each 64-expert "
            + "stripe meets four EP8 shards) against 16 at TP2xDP8, so the walk is longest where the time is "
            + "shortest; each inference rank receives a sixteenth of every FFN parameter by P2P in every layout; "
            + "no call waits on the GPU (the one synchronise follows the last call, " + NEMO_AT
            + "nemo_rl/models/generation/vllm/vllm_backend.py:1038), and the engines are called at once (" + NEMO_AT
            + "nemo_rl/models/generation/vllm/vllm_generation.py:1044-1047). What the timed span (" + NEMO_AT
            + "nemo_rl/weight_sync/nccl_reshard_weight_synchronizer.py:106-119) holds after the sends, once a refit "
            + "on every inference rank: the misc broadcast and its loads (priced), then vLLM's "
            + "process_weights_after_loading over the whole model (" + NEMO_AT + "nemo_rl/models/generation/vllm/"
            + "vllm_backend.py:1061-1064). That step grows with the rank's share only where an MoE kernel wants "
            + "another layout of w13 than the [gate; up] the bulk write leaves, which the code's comment says it is "
            + "there for (" + NEMO_AT + "nemo_rl/models/generation/vllm/vllm_backend.py:1058-1060): FlashInfer's "
            + "CUTLASS MoE has w13's halves swapped into a new tensor (convert_to_unquantized_kernel_format, "
            + "vllm-project/vllm v0.20.0 vllm/model_executor/layers/fused_moe/oracle/unquantized.py (no line: the "
            + "release NeMo RL pins at e40aa046e is not readable here; read at other revisions in the code index)), "
            + "while Triton takes the weights as they lie and nothing moves. Which of the two v0.20.0 gives BF16 "
            + "on H100 is not read in its code here: vllm-project/vllm issue #39288 says PR #36286 made FlashInfer's "
            + "CUTLASS the default over Triton from v0.18.2, and PR #44220 (merged 2026-06-01, after NeMo RL "
            + "moved to v0.20.0 on 2026-05-22) put Triton back on Hopper, so it likely ran here. Priced at H100's "
            + "3.35 TB/s (NVIDIA datasheet), one read and one write of a rank's w13 (Qwen3-30B-A3B: 48 layers x "
            + "128 experts x 2 x 768 x 2048 over TP; in BF16 19.3 GB at TP2, 4.8 GB at TP8) take 0.012 s at TP2, 0.006 s at "
            + "TP4 and 0.003 s at TP8, twice that if the new tensor is also copied back into the old parameter; "
            + "with the per-call figure fitted again on its TP8 row, the TP2xDP8 row would gain 0.009-0.017 s, to "
            + "0.943-0.951 s, short of the 0.968 s where its band starts (1.21 s less 20%), so the step cannot "
            + "close the miss and the model does not add a step it cannot read at the release. The merged "
            + "projections' receive buffers (torch.empty_like for gate and up, " + NEMO_AT
            + "nemo_rl/models/generation/vllm/vllm_backend.py:812-814) come back from the allocator's cache after the "
            + "first layer of each refit (the refit before ends with empty_cache, " + NEMO_AT + "nemo_rl/models/"
            + "generation/vllm/vllm_backend.py:1066): one allocation a stream, not a pass over bytes. No source times either step. "
            + "The published times also move with the trainer alone: "
            + "onto TP4xDP4 a PP2 trainer takes 0.74-1.17 s against 1.13-1.53 s without PP, where the model "
            + "gives both 0.91-0.92 s. PR #2413's table gave EP8xPP2 -> TP8xDP2 0.50-0.51 s before the Python "
            + "fallback existed";
    /** What the PR #2413 rows, every parameter shard to shard, leave out. */
    private static final String NEMO_SET_GAP = "the model prices the trainer's expert stacking (MoE: an HBM copy), "
            + "the shard-to-shard sends of every parameter at the NICs' rate, the replicas' all-gather and vLLM's "
            + "copy-back into w13; it leaves out the host work of one xferdtensor call per parameter (Python "
            + "planning, stream bookkeeping, launches) and vLLM's process_weights_after_loading, neither of which "
            + "the source times apart";

    private static void nemo(List<ValidationRow> r) {
        String src = "NVIDIA-NeMo/RL PR #2971 (merged, e40aa046e) [nemo-rl-pr-2971]";
        String setup = "Qwen3-30B-A3B (\"30b\"; the PR's design doc names it), Megatron trainer to vLLM engines, "
                + "nccl_reshard refit through xferdtensor_python_impl (the fallback path) on DGX-H100. Not stated: the "
                + "GPU count (posed from the inference layout: 16 a side, 2 hosts, 8 x 400G ConnectX-7), the trainer's "
                + "DP (posed to fill 16 ranks), colocation (posed: separate hosts, as nccl_reshard requires), what the "
                + "time spans (posed: the steady cycle)";
        String before = "; before the per-call term the model gave ";
        r.add(reshard("NEMO2971-EP4TP2-TP4DP4", src, "refit, BF16, EP4xTP2xDP2 -> TP4xDP4", setup, 1.13, 1.53,
                "ep4tp2-tp4dp4", null));
        // The calibration row: the one layout the PR states twice, in its table and in its design doc's "Expected
        // Performance" (H100, QWEN3 30B, BF16, EP8xPP2 -> TP8xDP2), and whose 16 trainer ranks need no posed
        // data parallelism (PP2 x EP8 fills them). Its time fixed refit.reshardCallSeconds, so it is shown, not
        // counted.
        r.add(ValidationRow.measured("NEMO2971-EP8PP2-TP8DP2", src)
                .what("refit, BF16, EP8xPP2 -> TP8xDP2")
                .setup(setup + "; the PR's design doc restates this row in its performance table: H100, QWEN3 30B, "
                        + "BF16, EP8xPP2 -> TP8xDP2, 0.74-1.00s")
                .published(0.74, 1.00, "s").tolerance(TOL).scenario(NEMO + "#ep8pp2-tp8dp2").dependsOn(RESHARD)
                .calibration(true)
                .model(runs -> steadyOf(runs, NEMO, "ep8pp2-tp8dp2", "; the row refit.reshardCallSeconds was fitted "
                        + "on (0.198 s without it)"))
                .onNics(16));
        r.add(reshard("NEMO2971-EP8PP2-TP2DP8", src, "refit, BF16, EP8xPP2 -> TP2xDP8", setup, 1.21, 1.52,
                "ep8pp2-tp2dp8", "23% faster than the published low (0.93 s against 1.21-1.52 s)" + before
                + "0.263 s; " + NEMO_GAP));
        String fp8Scales = "FP8 halves the bytes, while the source's time more than doubles against BF16 on the same "
                + "layout; in the model each FP8 weight's block scale is a tensor of its own that takes the misc path "
                + "(as " + NEMO_AT + "nemo_rl/weight_sync/nccl_reshard_utils.py:373-375 says scale_inv siblings do) "
                + "and is loaded one call at a time, ~1.75 s of the 2.52 s at the BF16 path's per-tensor cost (vLLM's "
                + "FP8 load re-quantises each weight, vllm-project/vllm v0.20.0 vllm/model_executor/layers/"
                + "quantization/fp8.py (no line: the release NeMo RL pins at e40aa046e; vLLM is too large to mirror "
                + "here, so the lines are not given), at a cost no source gives; the FFN weights take the same 144 "
                + "calls as in BF16); after the misc load NeMo-RL's patched post-load step runs once over every FP8 "
                + "module the rank holds (" + NEMO_AT + "nemo_rl/models/generation/vllm/quantization/fp8.py:585-614 for "
                + "linear layers, :784-841 for MoE): a linear layer's 128 x 128-block weight is passed through as it "
                + "lies on CUDA and only its block scales are copied (" + NEMO_AT + "nemo_rl/models/generation/vllm/"
                + "quantization/fp8.py:599-603); an MoE layer's weights go through vLLM's FP8 MoE backend's kernel "
                + "format and are copied back into the live parameters (" + NEMO_AT + "nemo_rl/models/generation/vllm/"
                + "quantization/fp8.py:806-823), which moves the expert bytes only where the backend re-lays them: "
                + "Triton takes them as they lie (and a copy of a tensor onto its own data returns at once in "
                + "PyTorch), DeepGEMM with E8M0 off re-lays only the block scales (NeMo-RL turns E8M0 off when it "
                + "turns DeepGEMM on, " + NEMO_AT + "nemo_rl/models/generation/vllm/quantization/fp8.py:234-236), "
                + "FlashInfer's CUTLASS swaps w13's halves (convert_to_fp8_moe_kernel_format, vllm-project/vllm "
                + "v0.20.0 vllm/model_executor/layers/fused_moe/oracle/fp8.py (no line: the release is not readable "
                + "here; read at other revisions in the code index)); which one v0.20.0 picks for block FP8 on H100 "
                + "under TP is not read in its code here (vllm-project/vllm PR #34260, merged 2026-02, put DeepGEMM "
                + "ahead of FlashInfer on Hopper). Even the swap and its copy back, two reads and two writes of a TP2 "
                + "rank's 9.7 GB of FP8 w13, take 0.012 s at H100's 3.35 TB/s against 0.003 s at TP8: were it "
                + "FlashInfer's, EP4xTP2xPP2's FP8 row, 0.008 s short of where its band starts (3.19 s less 20%), "
                + "could just reach it and EP8xPP2's (0.018 s short of 2.56 s) could not; the model leaves the step "
                + "out while the release's backend is unread. Against the published ranges themselves: the BF16 row "
                + "on the same inference layout misses by 0.28-0.59 s, and that gap added to the model's 2.54 s still leaves 2.82-3.13 s, under "
                + "the published lows (3.19-3.20 s); "
                + "the misc weights vLLM holds as FP8 are block-quantised "
                + "on every rank before load_weights (" + NEMO_AT + "nemo_rl/models/generation/vllm/"
                + "quantization/fp8.py:430-459), the same full tensors on every rank in every layout, so that does "
                + "not grow with the replicas either; ";
        String fp8Setup = "; FP8 posed as inference loading FP8 (128 x 128 blocks) quantised by the trainer, where "
                + "NeMo-RL trains with FP8 parameters";
        r.add(reshard("NEMO2971-EP8PP2-TP2DP8-FP8", src, "refit, FP8, EP8xPP2 -> TP2xDP8", setup + fp8Setup, 3.20,
                4.30, "ep8pp2-tp2dp8-fp8", "21% faster than the published low (2.54 s against 3.20-4.30 s)" + before
                + "1.87 s; " + fp8Scales + NEMO_GAP));
        // The same table's other five rows, each trainer layout posed on 16 ranks as above.
        r.add(reshard("NEMO2971-EP4TP2PP2-TP4DP4", src, "refit, BF16, EP4xTP2xPP2 -> TP4xDP4", setup + "; the trainer "
                + "posed as tp 2, pp 2, ep 4 over 4-way data parallelism", 0.74, 1.17, "ep4tp2pp2-tp4dp4", null));
        r.add(reshard("NEMO2971-TP2CP2EP8-TP4DP4", src, "refit, BF16, TP2xCP2xEP8 -> TP4xDP4", setup + "; the trainer "
                + "posed as tp 2, cp 2, ep 8 over 4-way data parallelism", 1.02, 1.45, "tp2cp2ep8-tp4dp4", null));
        r.add(reshard("NEMO2971-EP4TP2PP2-TP2DP8-FP8", src, "refit, FP8, EP4xTP2xPP2 -> TP2xDP8", setup + "; the "
                + "trainer posed as tp 2, pp 2, ep 4 over 4-way data parallelism" + fp8Setup, 3.19, 4.04,
                "ep4tp2pp2-tp2dp8-fp8", "20% faster than the published low (2.54 s against 3.19-4.04 s)" + before
                + "1.87 s; " + fp8Scales + NEMO_GAP));
        r.add(reshard("NEMO2971-EP8DP2-TP2DP8-FP8", src, "refit, FP8, EP8xDP2 -> TP2xDP8", setup + "; the trainer "
                + "posed as ep 8 over 16-way data parallelism" + fp8Setup, 2.90, 4.00, "ep8dp2-tp2dp8-fp8", null));
        r.add(reshard("NEMO2971-GENEP-TP4EP4DP4", src, "refit, BF16, gen EP: EP4xTP2xDP2 -> TP4xEP4xDP4", setup
                + "; the inference side posed as four separate vLLM engines of TP4 (NeMo-RL's DP), each with its "
                + "experts over its own 4 ranks (EP4)", 1.00, 1.60, "ep4tp2-tp4ep-dp4", null));
        String set = "NVIDIA-NeMo/RL PR #2413 (closed; the same table in PR #2808) [nemo-rl-pr-2413]";
        String posedAll = "no hardware is stated: posed on DGX-H100 (8 x 400G ConnectX-7), PR #2971's platform; "
                + "every parameter shard to shard (shardToShard: all), as these runs predate PR #2971's split ('the "
                + "same feature as #2808, but reducing the target scope to the dominant parameters')";
        String posed = posedAll + ": with that split, and no per-call term (these runs predate the Python "
                + "fallback), the model gives 0.060, 0.048 and 0.198 s";
        String setSetup = "Megatron trainer to vLLM engines over NCCL shard-to-shard transfers (\"NCCL Xfer\"). Not "
                + "stated: the hardware (posed DGX-H100), the model (posed Qwen3-4B / Qwen3-30B-A3B), the "
                + "implementation of the transfer (posed as nccl-p2p), GPU counts (posed from the inference layout), "
                + "colocation (posed separate hosts), what the time spans (posed: the steady cycle)";
        r.add(range("NEMO2413-4B-DP8-DP8", set, "refit, Qwen3-4B, DP8 -> DP8", setSetup, 0.07, 0.08, NEMO_SET,
                "4b-dp8-dp8", "1.8-2.0x faster than published: every rank needs the whole 8 GB model, received as an "
                        + "eighth from the trainers and all-gathered over NVLink; " + NEMO_SET_GAP, 8).notCounted(posed));
        r.add(range("NEMO2413-4B-PP4DP2-TP4DP2", set, "refit, Qwen3-4B, PP4xDP2 -> TP4xDP2", setSetup, 0.13, 0.15,
                NEMO_SET, "4b-pp4dp2-tp4dp2", "4.4-5.1x faster than published: the four PP stages' sends run at once, "
                + "where the receivers overlap two stages at a time (NRL_REFIT_NUM_STREAMS=2, " + NEMO_AT
                + "nemo_rl/models/generation/vllm/vllm_backend.py:1018-1036); " + NEMO_SET_GAP, 8).notCounted(posed));
        r.add(range("NEMO2413-30B-EP8PP2-TP8DP2", set, "refit, Qwen3-30B-A3B, EP8xPP2 -> TP8xDP2", setSetup, 0.50,
                0.51, NEMO_SET, "30b-ep8pp2-tp8dp2", "3.1-3.2x faster than published: " + NEMO_SET_GAP, 16)
                .notCounted(posed));
        // One engine of TP8 has no replicas, so the posed transfer's Python plan sends each byte from its first holder.
        r.add(range("NEMO2413-4B-DP8-TP8", set, "refit, Qwen3-4B, DP8 -> TP8", setSetup, 0.07, 0.08, NEMO_SET,
                "4b-dp8-tp8", "2.0-2.3x slower than published: with no inference replicas xferdtensor's Python plan "
                        + "sends every overlap from the first trainer rank holding it (" + NEMO_AT
                        + "nemo_rl/weight_sync/xferdtensor_python.py:260-283), so all 8 GB leave through trainer rank 0's "
                        + "NIC. PR #2413's own transfer (nccl.xfer, not public) may choose its senders otherwise: with the "
                        + "reads spread over the 8 DP replicas, one per inference rank, the model gave 0.021 s, 3.4-3.9x "
                        + "faster than published; the published time lies between the two", 8).notCounted(posedAll));
        // The table's other rows a shipped model config can pose (nano-v3, super-v3: no config; 235b, dsv3: too slow).
        String[][] more = {
            {"NEMO2413-4B-PP2DP4-TP4DP2", "Qwen3-4B, PP2xDP4 -> TP4xDP2", "0.09", "0.09", "4b-pp2dp4-tp4dp2", "3.6",
                "8"},
            {"NEMO2413-4B-TP2PP2DP2-TP4DP2", "Qwen3-4B, TP2xPP2xDP2 -> TP4xDP2", "0.13", "0.13", "4b-tp2pp2dp2-tp4dp2",
                "5.1", "8"},
            {"NEMO2413-4B-TP2DP4-TP4DP2", "Qwen3-4B, TP2xDP4 -> TP4xDP2", "0.11", "0.15", "4b-tp2dp4-tp4dp2", "4.7-6.4",
                "8"},
            {"NEMO2413-30B-EP4TP2-TP4DP4", "Qwen3-30B-A3B, EP4xTP2xDP2 -> TP4xDP4", "0.54", "0.67",
                "30b-ep4tp2-tp4dp4", "2.6-3.2", "16"},
            {"NEMO2413-30B-EP4TP2PP2-TP4DP4", "Qwen3-30B-A3B, EP4xTP2xPP2 -> TP4xDP4", "0.48", "0.52",
                "30b-ep4tp2pp2-tp4dp4", "2.4-2.6", "16"},
            {"NEMO2413-30B-EP8PP2-TP2DP8", "Qwen3-30B-A3B, EP8xPP2 -> TP2xDP8", "0.51", "0.55", "30b-ep8pp2-tp2dp8",
                "2.2-2.4", "16"}};
        for (String[] m : more) {
            r.add(range(m[0], set, "refit, " + m[1], setSetup, Double.parseDouble(m[2]), Double.parseDouble(m[3]),
                    NEMO_SET, m[4], m[5] + "x faster than published: " + NEMO_SET_GAP, Integer.parseInt(m[6]))
                    .notCounted(posedAll));
        }
    }

    /** A published range against the steady cycle of {@code file#variant}, seconds. */
    private static ValidationRow range(String id, String source, String what, String setup, double low, double high,
            String file, String variant, String knownFailure, int nics) {
        return ValidationRow.measured(id, source)
                .what(what)
                .setup(setup)
                .published(low, high, "s").tolerance(TOL).scenario(file + "#" + variant).dependsOn(P2P)
                .knownFailure(knownFailure)
                .model(runs -> steadyOf(runs, file, variant, ""))
                .onNics(nics);
    }

    /**
     * A PR #2971 row through the Python fallback, out of sample for refit.reshardCallSeconds: a known failure when
     * {@code knownFailure} is given, counted as a pass otherwise.
     */
    private static ValidationRow reshard(String id, String source, String what, String setup, double low, double high,
            String variant, String knownFailure) {
        ValidationRow.Builder b = ValidationRow.measured(id, source)
                .what(what)
                .setup(setup)
                .published(low, high, "s").tolerance(TOL).scenario(NEMO + "#" + variant).dependsOn(RESHARD);
        if (knownFailure != null) {
            b.knownFailure(knownFailure);
        }
        return b.model(runs -> steadyOf(runs, NEMO, variant, CALLS_NOTE)).onNics(16);
    }

    private static ValidationRow range(String id, String source, String what, String setup, double low, double high,
            String variant, String knownFailure) {
        return range(id, source, what, setup, low, high, NEMO, variant, knownFailure, 16);
    }

    private static void registration(List<ValidationRow> r) {
        String setup = "Hermes 405B FP8 at TP8: 1265 tensors, 51 GB a worker, registered by NIXL's UCX backend. Not "
                + "stated: GPU and NICs (posed a DGX B200 with NIXL 1.2.0 / UCX 1.21.0: the GPU's own HCA, 2 MRs, as "
                + "the ModelExpress rows pose), whether the time is a worker's (posed: one worker)";
        long bytes = 51_000_000_000L;
        r.add(ValidationRow.measured("NIXL1498-PER-TENSOR", "ai-dynamo/nixl PR #1498 [nixl-pr-1498]")
                .what("registration, one ibv_reg_mr per tensor")
                .setup(setup)
                .published(2.4, "s").tolerance(TOL).noScenario().dependsOn(ValidationCatalog.REG_TERMS)
                .knownFailure("the answer rests on the HCAs each tensor is registered on, which the PR does not state: "
                        + "on the GPU's own HCA (as posed) the model gives a third of the published time, on all 8 "
                        + "HCAs (NIXL 1.1.0's default, in the note) 40% more (each tensor its own MR, as the PR "
                        + "says); the per-call term was fitted on B200 "
                        + "registrations of 339 and 59 tensors (ModelExpress PR #267), and how it scales with tensor "
                        + "size is not published. " + ValidationCatalog.PER_CALL_CODE + " Here the PR places the "
                        + "tensors in one VMM region, where the allocation UCX widens to is the cuMemCreate handle "
                        + "under each tensor; the handles' sizes are not published either")
                .model(runs -> ValidationCatalog.registration("dgx-b200", "1.2.0", "1.21.0", "", bytes, 1265, 1265,
                        "; with NIXL 1.1.0 / UCX 1.20.0 (all 8 HCAs): ")));
        r.add(ValidationRow.measured("NIXL1498-RANGE-CACHE", "ai-dynamo/nixl PR #1498 [nixl-pr-1498]")
                .what("registration with the range-aware cache")
                .setup(setup + "; the cache registers the covering allocations once (posed: one "
                        + "registration of the 51 GB)")
                .published(0.017, "s").tolerance(TOL).noScenario().dependsOn(ValidationCatalog.REG_TERMS)
                .knownFailure("the cache is modelled as the code has it: the PR (closed unmerged; its commit "
                        + "ai-dynamo/nixl 433b87c0a src/plugins/ucx/ucx_backend.cpp:959-1004) skips ucp_mem_map and "
                        + "ucp_rkey_pack for a descriptor inside a range it registered and hands back that range's "
                        + "handle and key, so the 1265 registrations are one of the covering range and 1264 map "
                        + "look-ups, as posed. The miss is the per-byte cost: the commit's message times the one range "
                        + "registration at 8 ms (0.16 ms a GB of VMM memory) and leaves the other 9 ms of the 17 (look-ups, "
                        + "NIXL's bookkeeping) unbroken, while the model's per-byte terms, fitted on per-tensor cudaMalloc "
                        + "registrations (ModelExpress PR #450), price 51 GB at 0.53 s. A per-byte term for VMM ranges "
                        + "taken from this PR would price MX-BENCH-ARENA's 108 GB at 17 ms against its measured 0.79 "
                        + "s, 47x apart: no one term by allocation kind fits both, so none is added")
                .model(runs -> ValidationCatalog.registration("dgx-b200", "1.2.0", "1.21.0", "", bytes, 1, 1, "")));
        r.add(ValidationRow.measured("DYN10901-REREG", "ai-dynamo/dynamo PR #10901 [dynamo-pr-10901]")
                .what("re-registration each refit cycle, one receiver")
                .setup("Qwen3-4B (8 GB), ~290 buffers registered per tensor every cycle; posed on the GB200 pod of "
                        + "ModelExpress PR #450 (same author, same 290 tensors); modelled: steady cycle without the "
                        + "cache minus with it")
                .published(0.15, "s").tolerance(TOL).scenario(DYN + "#every-cycle")
                .dependsOn(ValidationCatalog.REG_TERMS).calibration(true)
                .model(runs -> {
                    RefitSummary every = runs.refit(DYN, "every-cycle");
                    RefitSummary cached = runs.refit(DYN, "cached");
                    return Modelled.value(every.steadyCycleSeconds() - cached.steadyCycleSeconds(), String.format(
                            Locale.ROOT, "steady cycle %.3f s every cycle, %.3f s cached: the same register the terms "
                                    + "were fitted to (MX-450-REG-PIN)", every.steadyCycleSeconds(),
                            cached.steadyCycleSeconds()));
                }));
    }

    /** slime at the commit rdmasim's colocated method follows (ColocatedIpc): the colocated rows' loop. */
    private static final String SLIME_AT = "THUDM/slime 624b824a ";

    /**
     * Colocated refits (no NIC): vime #175's two points are what the per-handle and per-tensor costs are
     * calibrated on (shown, not counted); ISEEKYAN/Megatron-LM #85 is the check.
     */
    private static void colocated(List<ValidationRow> r) {
        List<String> rests = List.of(BUCKET_COST, "refit.ipcOpenSeconds (calibrated: vime #175)",
                "refit.loadTensorSeconds (calibrated: vime #175)", "GPU HBM and NVLink rates (derived: NVIDIA "
                        + "datasheets)", "PCIe and host memory rates of the host preset");
        String vime = "vllm-project/vime issue #175 [vime-issue-175]";
        String vimeSetup = "Qwen3-30B-A3B BF16, 8 x H200, trainer TP4 x CP2 x EP8, colocated, 115 chunks of ~170 "
                + "tensors (slime's 512 MiB buffer gives 114 here: --update-weight-buffer-size, " + SLIME_AT
                + "slime/utils/arguments.py:528-530), one chunk at a time (slime's ray.get per chunk, " + SLIME_AT
                + "slime/backends/megatron_utils/update_weight/update_weight_from_tensor.py:300-305; the issue does "
                + "not state slime's commit: cited at the one rdmasim's colocated method follows). "
                + "Not stated: the engine's layout (posed vLLM TP8; its install copy is under 0.3% of the time), one "
                + "host (posed HGX H200)";
        r.add(ValidationRow.measured("VIME175-SLIME", vime)
                .what("slime weight-sync loop, one flattened bucket a chunk")
                .setup(vimeSetup)
                .published(3.0, "s").tolerance(TOL).scenario(COLOC + "#vime-slime-flattened").dependsOn(rests)
                .calibration(true)
                .model(runs -> steadyOf(runs, COLOC, "vime-slime-flattened", "")));
        r.add(ValidationRow.measured("VIME175-PER-TENSOR", vime)
                .what("vime weight-sync loop, one CUDA IPC handle per tensor")
                .setup(vimeSetup)
                .published(11.0, 13.5, "s").tolerance(TOL).scenario(COLOC + "#vime-per-tensor").dependsOn(rests)
                .calibration(true)
                .model(runs -> steadyOf(runs, COLOC, "vime-per-tensor", "")));
        // The same table's stages and the whole update_weights_time: the run the per-call costs come from, so
        // shown as calibration. The stages are sequential (one chunk at a time), so they add.
        String build = "the trainer side is priced as the gather at NVLink rate and the conversion at HBM rate; the "
                + "build also holds per-tensor Python work (vime: a CUDA IPC handle built per tensor by reduce_tensor; "
                + "slime: the bucket flattened), which rdmasim does not price on the trainer: no source times it apart";
        r.add(vimeStages("VIME175-BUILD-SLIME", vime, "'build' (trainer-side handle build), slime", vimeSetup, 0.47,
                0.92, "vime-slime-flattened", List.of("gather", "convert"), rests, build));
        r.add(vimeStages("VIME175-BUILD-PER-TENSOR", vime, "'build' (trainer-side handle build), vime", vimeSetup, 1.2,
                1.7, "vime-per-tensor", List.of("gather", "convert"), rests, build));
        r.add(vimeStages("VIME175-RAYGET-SLIME", vime, "'rayget' (engine: rebuild + load_weights), slime", vimeSetup,
                2.47, 2.53, "vime-slime-flattened", List.of("dispatch", "install"), rests, ""));
        r.add(vimeStages("VIME175-RAYGET-PER-TENSOR", vime, "'rayget' (engine: rebuild + load_weights), vime",
                vimeSetup, 10.9, 11.8, "vime-per-tensor", List.of("dispatch", "install"), rests, ""));
        String around = "the update holds the engine's pause, cache flush, memory release and resume and the trainer's "
                + "barriers around the loop (18-23 s here in slime, 20-33 s in vime; slime's pause and flush, "
                + "barriers and resume: " + SLIME_AT + "slime/backends/megatron_utils/update_weight/"
                + "update_weight_from_tensor.py:285-286, :293, :317, :331-332), none of which rdmasim prices "
                + "(refit.pauseSeconds, resumeSeconds, barrierSeconds are 0 until a measurement isolates them: this "
                + "one gives only their sum)";
        r.add(ValidationRow.measured("VIME175-UPDATE-SLIME", vime)
                .what("perf/update_weights_time, slime (the loop with its pause, flush and barriers)")
                .setup(vimeSetup)
                .published(21, 26, "s").tolerance(TOL).scenario(COLOC + "#vime-slime-flattened").dependsOn(rests)
                .calibration(true)
                .knownFailure(around)
                .model(runs -> steadyOf(runs, COLOC, "vime-slime-flattened", "")));
        r.add(ValidationRow.measured("VIME175-UPDATE-PER-TENSOR", vime)
                .what("perf/update_weights_time, vime (the loop with its pause, flush and barriers)")
                .setup(vimeSetup)
                .published(33, 46, "s").tolerance(TOL).scenario(COLOC + "#vime-per-tensor").dependsOn(rests)
                .calibration(true)
                .knownFailure(around)
                .model(runs -> steadyOf(runs, COLOC, "vime-per-tensor", "")));
        String src = "ISEEKYAN/Megatron-LM PR #85 [iseekyan-megatron-pr-85]";
        String setup = "Qwen3.5-35B-A3B, 8 x H100, trainer EP8 (FSDP2), colocated vLLM TP8, end-to-end update_weights; "
                + "after: 2 GiB bounded buckets, the next prefetched during this one's load, no host bounce. Not stated: "
                + "dtype and bytes, one host (posed DGX H100); Qwen3.5-35B-A3B's config is not shipped (hybrid "
                + "linear-attention layers rdmasim's inventory lacks): posed as Qwen3-30B-A3B (61 GB BF16, 18,867 "
                + "tensors), the same family and size";
        String lacks = "the model prices the gather at NVLink rate, the flatten and install copies at HBM rate, "
                + BUCKET_MS + " a bucket's call and the per-handle and per-tensor engine costs calibrated on vime #175 "
                + "(SGLang's load_weights, " + TENSOR_MS + " a tensor); vLLM's load may cost more per tensor (vime PR #176 timed 35-86 "
                + "ms a chunk of ~170 tensors on vLLM's checkpoint-format path with layerwise reload and per-tensor "
                + "handles, 14 ms after packing the handles and skipping that path: 0.08 ms a tensor, near the value "
                + "here; which path ISEEKYAN's harness took is not stated), and the end-to-end update_weights holds the engine's pause, cache flush, "
                + "memory release and resume and the trainer's barriers, none priced (vime #175: 21-26 s of "
                + "update_weights_time around slime's 3.0 s loop). PR #85's code could not be read here: no snapshot of "
                + "ISEEKYAN/Megatron-LM can be fetched and its export module (hf_weights, as the fork's design note "
                + "names it) is not in the code index; that note (ISEEKYAN/Megatron-LM 46cd2f8a "
                + "experimental/lite/docs/rl-incremental-weight-sync.md) gives the harness's transfer as 69.3 GB (the "
                + "posed model carries 61.4 GB) and says the 11.837 s also holds export gather, mapping, version checks "
                + "and apply, none timed apart; a pause-and-resume cost calibrated on "
                + "one of these rows would fit the other two by construction (the same harness, 11.84-12.05 s) and "
                + "rest on no mechanism read in code, so none is";
        r.add(ValidationRow.measured("ISEEKYAN85-GPU-RESIDENT", src)
                .what("update_weights, GPU-resident bounded streaming")
                .setup(setup)
                .published(11.84, "s").tolerance(TOL).scenario(COLOC + "#iseekyan-gpu-resident").dependsOn(rests)
                .knownFailure("about 6.7x faster than published: " + lacks)
                .model(runs -> steadyOf(runs, COLOC, "iseekyan-gpu-resident", "")));
        String distOpt = "; the distributed-optimizer backend keeps the weights replicated over DP ('gather-free sync: "
                + "0 calls / 0 bytes'): posed as the same buckets with no FSDP gather";
        r.add(ValidationRow.measured("ISEEKYAN85-DIST-OPT",
                        src + "; the figure as its author restates it in NVIDIA/Megatron-LM PR #5721")
                .what("update_weights, GPU-resident bounded streaming, distributed-optimizer backend")
                .setup(setup + distOpt)
                .published(12.05, "s").tolerance(TOL).scenario(COLOC + "#iseekyan-dist-opt").dependsOn(rests)
                .knownFailure("about 6.8x faster than published (no gather here): " + lacks)
                .model(runs -> steadyOf(runs, COLOC, "iseekyan-dist-opt", "")));
        r.add(ValidationRow.measured("ISEEKYAN85-MBRIDGE", src)
                .what("update_weights, the Megatron/mbridge reference 'measured in the same harness'")
                .setup(setup + "; how the reference exports is not stated: posed as the distributed-optimizer variant "
                        + "(Megatron's weights replicated over DP, no gather)")
                .published(11.90, "s").tolerance(TOL).scenario(COLOC + "#iseekyan-dist-opt").dependsOn(rests)
                .knownFailure("about 6.7x faster than published (no gather here): " + lacks)
                .model(runs -> steadyOf(runs, COLOC, "iseekyan-dist-opt", "")));
        String bounceLacks = "the bounce is priced as pinned DMA at the PCIe link's rate (two copies of each bucket "
                + "per GPU, the 8 GPUs sharing the host memory); the old path staged with an unconditional .cpu() "
                + "per parameter (pageable host memory: the driver copies through a pinned staging buffer, one "
                + "synchronous copy per tensor), whose rate no source gives: no published pageable-copy rate on H100 "
                + "hosts was found, and the PR's old path could not be read here (no snapshot of ISEEKYAN/Megatron-LM), "
                + "so neither how many bytes each rank stages nor how many tensors it copies is known from code; its "
                + "~43 s for the model's bytes twice per GPU implies a few GB/s a GPU";
        r.add(ValidationRow.measured("ISEEKYAN85-HOST-BOUNCE", src)
                .what("update_weights before: per-parameter export with the host bounce")
                .setup(setup + "; before: posed as the same buckets with each staged D2H then H2D, one bucket at a "
                        + "time (the per-parameter full_tensor() calls of the old path are not priced)")
                .published(84.9, "s").tolerance(TOL).scenario(COLOC + "#iseekyan-host-bounce").dependsOn(rests)
                .knownFailure("about 20x faster than published: " + bounceLacks + "; and " + lacks)
                .model(runs -> steadyOf(runs, COLOC, "iseekyan-host-bounce", "")));
        r.add(ValidationRow.measured("ISEEKYAN85-BOUNCE-COST", src)
                .what("the host bounce's share of the old update_weights ('~43s, 50% of the old cost')")
                .setup(setup + "; modelled: the time the bounce variant spends in host copies (one bucket at a time, "
                        + "so none hides under another stage)")
                .published(43, "s").tolerance(TOL).scenario(COLOC + "#iseekyan-host-bounce").dependsOn(rests)
                .knownFailure("far below the published share: " + bounceLacks)
                .model(runs -> {
                    RefitSummary bounce = runs.refit(COLOC, "iseekyan-host-bounce");
                    RefitSummary.Cycle c = bounce.cycles().get(bounce.cycles().size() - 1);
                    double h2d = c.stageSeconds().get("h2d");
                    return Modelled.value(h2d, String.format(Locale.ROOT, "host copies (D2H and H2D) of the bounce "
                            + "variant: %.3f s of its %.3f s steady cycle, one bucket at a time so nothing hides them",
                            h2d, c.seconds()));
                }));
    }

    /** A stage time of vime #175 against the sum of the named stages of the steady cycle (calibration run). */
    private static ValidationRow vimeStages(String id, String source, String what, String setup, double low,
            double high, String variant, List<String> stages, List<String> rests, String knownFailure) {
        return ValidationRow.measured(id, source)
                .what(what)
                .setup(setup + "; modelled: the steady cycle's " + String.join(" + ", stages)
                        + " stages (one chunk at a time, so they add)")
                .published(low, high, "s").tolerance(TOL).scenario(COLOC + "#" + variant).dependsOn(rests)
                .calibration(true)
                .knownFailure(knownFailure)
                .model(runs -> {
                    double sum = 0;
                    StringBuilder parts = new StringBuilder();
                    for (String stage : stages) {
                        double t = runs.refitStageSeconds(COLOC, variant, stage);
                        sum += t;
                        parts.append(parts.length() == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%s %.3f s",
                                stage, t));
                    }
                    return Modelled.value(sum, parts + " of a " + String.format(Locale.ROOT, "%.3f s",
                            runs.refitSeconds(COLOC, variant)) + " steady cycle");
                });
    }

    private static void expectations(List<ValidationRow> r) {
        r.add(claim("CKPT-KIMI-PROD", "MoonshotAI/checkpoint-engine README.md [ckpt-engine-readme]",
                "'updating our Kimi-K2 model (1 Trillion parameters) across thousands of GPUs takes about 20s'",
                "a claim: thousands of GPUs, no layout, NICs or bucket; modelled: the 256-GPU checkpoint-engine "
                        + "broadcast of Kimi-K2 above", 20, 20, CKPT_H20, "kimi-256"));
        String awex = "a claim: 'on thousand-GPU scale clusters', no GPU type, NICs or layouts (asked in "
                + "inclusionAI/Awex #92, unanswered); ";
        r.add(claim("AWEX-1T-NCCL", "inclusionAI/Awex README.md @00f2805b [awex-readme]",
                "1000B (1000 GB FP8), NCCL column: 20 s", awex + "modelled: the 256-GPU checkpoint-engine broadcast of "
                        + "Kimi-K2 (~1 TB FP8) above", 20, 20, CKPT_H20, "kimi-256"));
        r.add(claim("AWEX-100B-NCCL", "inclusionAI/Awex README.md @00f2805b [awex-readme]",
                "100B (191 GB), NCCL column: 9 s", awex + "modelled: the GLM-4.5-Air (214 GB) broadcast of the LMSYS "
                        + "rows", 9, 9, LMSYS, "glm-4.5-air-nccl"));
        r.add(claim("AWEX-100B-RDMA", "inclusionAI/Awex README.md @00f2805b [awex-readme]",
                "100B (191 GB), RDMA column: 3.2 s", awex + "modelled: the GLM-4.5-Air sharded RDMA update of the LMSYS rows "
                        + "(through the senders' CPU replicas)",
                3.2, 3.2, LMSYS, "glm-4.5-air-rdma"));
        r.add(claim("AWESOME169-LOWER-BOUND", "zhaochenyang20/Awesome-ML-SYS-Tutorial #169 [awesome-ml-sys-169]",
                "'theoretical lower bound of 1s' for a 30B MoE refit", "no hardware or layout; modelled: the "
                        + "Qwen3-30B-A3B sharded RDMA update of the LMSYS rows (2+2 DGX H100 hosts, through the senders' "
                        + "CPU replicas)", 1, 1, LMSYS,
                "qwen3-30b-rdma"));
    }

    /** A counted measurement: the steady cycle of {@code file#variant}, seconds. */
    private static ValidationRow steady(String id, String source, String what, String setup, double published,
            String file, String variant, List<String> dependsOn, String knownFailure, int nics) {
        return ValidationRow.measured(id, source)
                .what(what)
                .setup(setup)
                .published(published, "s").tolerance(TOL).scenario(file + "#" + variant).dependsOn(dependsOn)
                .knownFailure(knownFailure)
                .model(runs -> steadyOf(runs, file, variant, ""))
                .onNics(nics);
    }

    /**
     * A row timed as verl's engines time an update: trainer rank 0's send_weights, which ends when ring rank 1 has
     * the last bucket ({@link #senderOf}).
     */
    private static ValidationRow sender(String id, String source, String what, String setup, double published,
            String variant, List<String> dependsOn, String knownFailure, int nics) {
        return ValidationRow.measured(id, source)
                .what(what)
                .setup(setup)
                .published(published, "s").tolerance(TOL).scenario(VERL_CE + "#" + variant).dependsOn(dependsOn)
                .knownFailure(knownFailure)
                .model(runs -> senderOf(runs, VERL_CE, variant))
                .onNics(nics);
    }

    /**
     * The steady cycle up to ring rank 1 holding the last bucket: the cycle less the time between rank 1's last
     * READ landing and the last receiver's (the two then hand over the same last bucket, so the cycle's tail after
     * the last READ is rank 1's too). verl's Mooncake engine stops its clock there: send_weights waits only for
     * rank 1's flag on the last bucket (verl/checkpoint_engine/mooncake_checkpoint_engine.py L227 @1dda039b).
     */
    private static Modelled senderOf(ScenarioRuns runs, String file, String variant) throws Exception {
        RefitSummary s = runs.refit(file, variant);
        String cycle = "c" + (s.cycles().size() - 1) + "/ring/";
        double last = Double.NaN;
        double first = Double.NaN;
        for (org.rdmasim.transport.TransferResult t : runs.outcome(file, variant).result().transfers()) {
            String id = t.spec().id();
            if (id.startsWith(cycle)) {
                last = Double.isNaN(last) ? t.finishSeconds() : Math.max(last, t.finishSeconds());
                if (id.endsWith("/p0-p1")) {
                    first = Double.isNaN(first) ? t.finishSeconds() : Math.max(first, t.finishSeconds());
                }
            }
        }
        if (Double.isNaN(first)) {
            throw new IllegalStateException(file + "#" + variant + ": no ring hop from trainer rank 0 in the steady "
                    + "cycle (is its method a ring?)");
        }
        double drain = last - first;
        return Modelled.value(s.steadyCycleSeconds() - drain, describe(s) + String.format(Locale.ROOT,
                "; trainer rank 0's send_weights ends when ring rank 1 holds the last bucket, %.3f s before the "
                        + "last receiver does", drain));
    }

    private static ValidationRow claim(String id, String source, String what, String setup, double low, double high,
            String file, String variant) {
        return ValidationRow.expected(id, source)
                .what(what)
                .setup(setup)
                .published(low, high, "s").tolerance(TOL).scenario(file + "#" + variant)
                .model(runs -> steadyOf(runs, file, variant, ""));
    }

    private static Modelled steadyOf(ScenarioRuns runs, String file, String variant, String more) throws Exception {
        RefitSummary s = runs.refit(file, variant);
        return Modelled.value(s.steadyCycleSeconds(), describe(s) + more);
    }

    /** The same, its note ending with the steady cycle of the variant {@code other}, after {@code label}. */
    private static Modelled steadyBeside(ScenarioRuns runs, String file, String variant, String label, String other)
            throws Exception {
        return steadyOf(runs, file, variant, String.format(Locale.ROOT, "; %s: %.3f s", label,
                runs.refit(file, other).steadyCycleSeconds()));
    }

    /** The steady cycle in a line: its stages, what bounded it, and the first cycle. */
    private static String describe(RefitSummary s) {
        RefitSummary.Cycle c = s.cycles().get(s.cycles().size() - 1);
        StringBuilder stages = new StringBuilder();
        for (Map.Entry<String, Double> e : c.stageSeconds().entrySet()) {
            if (e.getValue() > 0) {
                stages.append(stages.length() == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%s %.3f s",
                        e.getKey(), e.getValue()));
            }
        }
        return String.format(Locale.ROOT, "%s, %d -> %d ranks, %.1f GB the inference ranks need together: steady cycle %.3f s (%s), bound by %s; "
                + "first cycle %.3f s", s.method(), s.trainerRanks(), s.inferenceRanks(), s.minimumBytes() / 1e9,
                c.seconds(), stages, c.boundWords(), s.firstCycleSeconds());
    }
}
