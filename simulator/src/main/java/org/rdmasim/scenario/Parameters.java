package org.rdmasim.scenario;

import java.util.List;
import java.util.Locale;
import org.rdmasim.hardware.CalibrationProfile;
import org.rdmasim.hardware.FabricSpec;
import org.rdmasim.hardware.QuantityText;
import org.rdmasim.memory.RegistrationLimits.FirmwareCapScope;
import org.rdmasim.memory.RegistrationParameters;
import org.rdmasim.memory.TranslationPageSize;
import org.rdmasim.refit.method.RefitCalibration;
import org.rdmasim.transport.ProtocolParameters;
import org.rdmasim.transport.backend.MooncakeBackend;
import org.rdmasim.transport.backend.PegaflowBackend;
import org.rdmasim.workload.Jitter;
import org.rdmasim.workload.RefitCycles;

/**
 * The user parameters that a scenario and a command both set, declared once each. RegistrationReader
 * reads the scenario's {@code registration} section through these, and {@code memory register} its
 * options: the same words, units, defaults and ranges in both.
 *
 * <p>A default's value has one home, the lowest layer that applies it ({@link ProtocolParameters},
 * {@link FabricSpec}, ...) or, when only a reader applies it, the declaration here; readers take it from
 * {@link Parameter#defaultValue()}. A count's or a flag's text is written from its value; any other
 * default's text must read to exactly its value (ParameterDefaultsTest).
 */
public final class Parameters {
    private Parameters() {
    }

    /** The smallest page the translation tables map: a cap below one page cannot hold one registration. */
    private static final double ONE_PAGE = 4096;

    /** Translation page size (Linux mlx5 driver: 4 KiB, 64 KiB or 2 MiB pages per MR). */
    public static final Parameter<TranslationPageSize> PAGE_SIZE = new Parameter<>("registration.pageSize",
            "--page-size", "bytes", "4 KiB", RegistrationParameters.DEFAULT_PAGE_SIZE,
            new Parameter.Range(Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY, "4 KiB, 64 KiB or 2 MiB"),
            "Linux mlx5 driver [linux-mlx5]: an MR maps its buffer with one page size",
            text -> {
                long bytes = QuantityText.bytes(text);
                try {
                    return TranslationPageSize.ofBytes(bytes);
                } catch (RuntimeException e) {
                    throw new IllegalArgumentException(e.getMessage(), e);
                }
            }, p -> p.bytes());

    /** The firmware (ICM) page cap on host memory pinned for registrations. */
    public static final Parameter<Long> FIRMWARE_PAGE_CAP = new Parameter<>("registration.firmwarePageCap",
            "--fw-page-cap", "bytes", "none", null, new Parameter.Range(ONE_PAGE, 0x1p63,
                    "a firmware page cap holds at least one 4 KiB page"),
            "Crusoe, NIXL registration errors [crusoe-kb-nixl]: a per-VF cap; no provider publishes its value",
            QuantityText::bytes, Long::doubleValue);

    /** Whether the firmware page cap is per HCA (each PCI function: a PF or a VF) or one budget per host. */
    public static final Parameter<FirmwareCapScope> CAP_SCOPE = new Parameter<>("registration.capScope",
            "--fw-cap-scope", "hca|vf|host|vm", "hca", FirmwareCapScope.PER_HCA, Parameter.Range.ANY,
            "Linux mlx5 pagealloc.c: the firmware's pages are given per function_id; a VF is one function",
            FirmwareCapScope::parse, s -> 0);

    /** Physical host memory that pinned registrations draw from. */
    public static final Parameter<Long> HOST_MEMORY = new Parameter<>("registration.hostMemory", "--host-memory",
            "bytes", "the preset's", null, new Parameter.Range(ONE_PAGE, 0x1p63, "host memory holds at least one 4 KiB page"),
            "the host preset's memory (vendor specification of each preset)", QuantityText::bytes, Long::doubleValue);

    /**
     * Link and port rates: 1 Mbps (a management Ethernet port) to 100 Tbps, beyond any single link or
     * port shipping (the fastest NIC port today runs 800 Gbps); a rate outside is a typo or a unit slip.
     */
    private static final Parameter.Range LINK_RATE = new Parameter.Range(1e6 / 8, 100e12 / 8,
            "a link or port runs from 1 Mbps to 100 Tbps");

    /** A NIC port's line rate, set host-wide or per NIC. */
    public static final Parameter<Double> LINE_RATE = new Parameter<>("hosts.NAME.lineRate", "", "bandwidth",
            "the NIC model's", null, new Parameter.Range(LINK_RATE.min(), LINK_RATE.max(), LINK_RATE.why()
                    + "; a NIC's at most its model's port speed (an EFA device's, what its PCIe link carries)"),
            "the NIC model's port speed (vendor datasheets: ConnectX-7 400 Gb/s, ConnectX-8 800 Gb/s)",
            QuantityText::bandwidth, Double::doubleValue);

    /** A C2C link's per-direction bandwidth (Grace-Blackwell's NVLink-C2C). */
    public static final Parameter<Double> C2C = rate("hosts.NAME.sockets[].devices[].link.c2c", "the GPU model's",
            "NVIDIA GB200 NVL72 specifications [gb200-spec]: NVLink-C2C 900 GB/s");

    /** The link between a host's sockets, per direction. */
    public static final Parameter<Double> INTER_SOCKET = rate("hosts.NAME.interSocket", "the preset's",
            "each host preset names the source of its socket link");

    /** One socket's memory bandwidth (DDR5 channels today deliver hundreds of GB/s per socket). */
    public static final Parameter<Double> MEMORY_BANDWIDTH = new Parameter<>("hosts.NAME.sockets[].memoryBandwidth", "",
            "bandwidth", "300 GB/s", 300e9, new Parameter.Range(1e6 / 8, 100e12, "a socket's memory moves 1 Mbps to 100 TB/s"),
            "an assumed 300 GB/s for inline hosts (12 DDR5-4800 channels give 460 GB/s peak)",
            QuantityText::bandwidth, Double::doubleValue);

    /** The host memory a pinned-registration MTT can map (mlx4: 2^log_num_mtt * 2^log_mtts_per_seg pages). */
    public static final Parameter<Long> MTT_LIMIT = new Parameter<>("registration.mttLimit", "", "bytes", "none", null,
            new Parameter.Range(ONE_PAGE, 0x1p63, "an MTT maps at least one 4 KiB page"),
            "Linux mlx4 driver (drivers/net/ethernet/mellanox/mlx4/main.c: log_num_mtt, log_mtts_per_seg)",
            QuantityText::bytes, Long::doubleValue);

    /** Work requests a transfer is posted as (each one a descriptor the NIC fetches). */
    public static final Parameter<Long> DESCRIPTORS = count("transport.descriptors", "descriptors", 1L, 1, 100_000_000,
            "a transfer is posted as 1 to 100000000 descriptors", "one descriptor per transfer unless the scenario says");

    /** RC QPs per HCA pair of pegaflow's engine (novitalabs/pegaflow PR #291: --qps-per-peer, default 2). */
    public static final Parameter<Long> QPS_PER_PEER = count("transport.qpsPerPeer", "QPs",
            PegaflowBackend.DEFAULT_QPS_PER_PEER, 1, 64,
            "pegaflow opens 1 to 64 RC QPs per HCA pair (rdmasim's bound)", "novitalabs/pegaflow PR #291 default");

    /** Fraction of a link's rate lost to IOMMU translation misses. */
    public static final Parameter<Double> IOMMU_PENALTY = new Parameter<>("transport.iommuPenalty", "", "fraction",
            "0", 0.0, new Parameter.Range(0, Math.nextDown(0.99),
                    "an IOMMU penalty is a fraction from 0 to below 0.99 of the rate (0.99 or more means the "
                            + "device barely moves data: model it as down)"),
            "no penalty unless the scenario states one (IOMMU passthrough, the usual setting on GPU hosts)",
            Parameters::fraction, Double::doubleValue);

    /** Whether GPU memory is read by the NIC directly (GPUDirect RDMA) or staged through host memory. */
    public static final Parameter<Boolean> GPUDIRECT = flag("transport.gpudirect", true,
            "NVIDIA, GPUDirect RDMA [nvidia-gdr-doc]: the NIC reads GPU memory through BAR1");

    /** Whether PCIe Access Control Services redirect peer traffic through the root complex. */
    public static final Parameter<Boolean> ACS = flag("transport.acs", false,
            "NVIDIA, GPUDirect RDMA [nvidia-gdr-doc]: ACS sends peer traffic up to the root complex; off by default");

    /**
     * NVLinks of each GPU: on an inline GPU, or over a preset's GPUs (the export parts cut NVLink to 8 links,
     * 400 GB/s: NVIDIA H800 SXM5 and A800 SXM4 product specifications, against 18 links, 900 GB/s, on H100 SXM5
     * and 12, 600 GB/s, on A100 SXM4). 0: the GPUs reach each other over PCIe only.
     */
    public static final Parameter<Long> NVLINKS = count("hosts.NAME.nvlinks", "links", "the preset's", 0, 18,
            "a GPU has 0 to 18 NVLinks (NVLink 4 and 5 GPUs have 18)",
            "each host preset's GPUs (NVIDIA datasheets: 18 on H100, H200, B200 SXM; 12 on A100 SXM4); an inline GPU has 0 unless it says");

    /** Hosts behind one leaf switch. */
    public static final Parameter<Long> HOSTS_PER_LEAF = count("fabric.hostsPerLeaf", "hosts", 1L, 1, 65_536,
            "a leaf serves 1 to 65536 hosts (no switch has more than 512 ports)", "one host per leaf");

    /** Leaf oversubscription, down-link to up-link capacity. */
    public static final Parameter<Double> OVERSUBSCRIPTION = new Parameter<>("fabric.oversubscription", "", "ratio",
            "1", 1.0, new Parameter.Range(1, 1024, "an oversubscription runs from 1 (non-blocking) to 1024:1"),
            "non-blocking unless the scenario says", Parameters::ratio, Double::doubleValue);

    /** The rate a degraded port or resource keeps, as a fraction of its own. */
    public static final Parameter<Double> DEGRADED_FRACTION = new Parameter<>("faults.events[].fraction", "", "fraction",
            "required", null, new Parameter.Range(0.001, Math.nextDown(1.0),
                    "a degraded rate keeps from 0.001 to below 1 of its own; use nic-down for a port that stops"),
            "the scenario's fault", Parameters::fraction, Double::doubleValue);

    /** Receivers that arrive together in one wave. */
    public static final Parameter<Long> WAVE_SIZE = count("workload.fanout.arrival.size", "receivers", "required", 1, 10_000_000,
            "a wave holds 1 to 10000000 receivers", "the scenario's arrival process");

    /** Children a source (or a receiver that became one) serves in a tree fan-out. */
    public static final Parameter<Long> MAX_CHILDREN = count("workload.fanout.tree.maxChildren", "children", "required", 1, 1_000_000,
            "a source serves 1 to 1000000 children", "the scenario's tree");

    /** Per-operation costs: from 0 to 1 s (a second per operation is no RDMA path). */
    private static final Parameter.Range OPERATION_COST = new Parameter.Range(0, 1,
            "a per-operation cost from 0 to 1 s");

    /** Per-NIC processing one way (doorbell, WQE fetch, DMA start). */
    public static final Parameter<Double> NIC_LATENCY = cost("protocol.nicLatency", "0.5 us",
            ProtocolParameters.DEFAULT_NIC_LATENCY_SECONDS,
            "assumed; with the PCIe hops a GPUDirect one-way latency comes to 1.35 us, under the GPUDirect "
                    + "guide's 2-5 us [gdr-kb-guide]");

    /** One PCIe switch traversal. */
    public static final Parameter<Double> PCIE_HOP = cost("protocol.pcieHop", "110 ns", ProtocolParameters.DEFAULT_PCIE_HOP_SECONDS,
            "Broadcom PEX89000 product brief [pex89000-brief]: 105-115 ns port to port");

    /** CPU cost to post one descriptor and reap its completion. */
    public static final Parameter<Double> PER_DESCRIPTOR = cost("protocol.perDescriptor", "1 us",
            ProtocolParameters.DEFAULT_PER_DESCRIPTOR_SECONDS,
            "assumed, the order of UCX's software overhead per ucp_get_nbx / ucp_put_nbx through NIXL; "
                    + "scenarios posing perftest's tight posting loop set 50 ns (assumed), except "
                    + "ucx-8851-read-small: 391 ns a doorbell, calibrated on row UCX-8851-READ-8B");

    /**
     * The time Mooncake's context thread spends on one slice (every slice of a NIC context passes it). Declared
     * after the operation-cost range it reads (static fields initialise in order).
     */
    public static final Parameter<Double> SLICE_THREAD = cost("transport.sliceThread", "3.304 us",
            MooncakeBackend.DEFAULT_SLICE_THREAD_SECONDS,
            "CALIBRATED on MC-VLLM-KV-MARGIN (158.7 GB/s over 8 ranks, one NIC each: one 64 KiB slice every 3.304 us a "
                    + "context); the mooncake backend only");

    /**
     * NIC cost per work request beyond its wire time, 50 ns. Printed as "0.05 us": the duration reader
     * multiplies, and 50 * 1e-9 is one ulp above the 50e-9 the model applies, where 0.05 * 1e-6 is not.
     */
    public static final Parameter<Double> PER_FRAGMENT = cost("protocol.perFragment", "0.05 us",
            ProtocolParameters.DEFAULT_PER_FRAGMENT_SECONDS, "assumed");

    /** RDMA READs in flight per QP. */
    public static final Parameter<Long> MAX_OUTSTANDING_READS = count("protocol.maxOutstandingReads", "READs",
            ProtocolParameters.DEFAULT_MAX_OUTSTANDING_READS, 1,
            1024, "a QP keeps 1 to 1024 READs in flight", "ConnectX max_qp_rd_atom = 16 [connectx-briefs], as "
                    + "perftest prints 'Outstand reads: 16' (openucx/ucx #8852 [ucx-8851])");

    /** WRITE work requests in flight per QP. */
    public static final Parameter<Long> SEND_QUEUE_DEPTH = count("protocol.sendQueueDepth", "WRs",
            ProtocolParameters.DEFAULT_SEND_QUEUE_DEPTH, 1, 65536,
            "a QP keeps 1 to 65536 work requests in flight", "perftest's default TX depth DEF_TX_BW = 128 "
                    + "(linux-rdma/perftest v4.5-0.20 src/perftest_parameters.h:111) [perftest]");

    /** RDMA messages per second one NIC processes over all its QPs. */
    public static final Parameter<Long> NIC_MESSAGE_RATE = count("protocol.nicMessageRate", "messages/s",
            (long) ProtocolParameters.DEFAULT_NIC_MESSAGE_RATE,
            1, 1_000_000_000_000L, "a NIC processes 1 to 10^12 messages per second",
            "NVIDIA ConnectX-7 NDR datasheet: 330-370 million messages per second [connectx7-datasheet]");

    /** Extra one-way latency of a host-staged side (bounce-buffer copy launch and synchronisation). */
    public static final Parameter<Double> STAGING_COPY = cost("protocol.stagingCopy", "8 us",
            ProtocolParameters.DEFAULT_STAGING_COPY_SECONDS,
            "assumed, chosen inside the GPUDirect guide's stated 10-20 us staged latency [gdr-kb-guide], a vendor's "
                    + "claim, not a measurement (row GDR-GUIDE-STAGED, an expectation)");

    /** One switch's port-to-port latency. */
    public static final Parameter<Double> HOP_LATENCY = cost("fabric.hopLatency", "130 ns", FabricSpec.DEFAULT_HOP_LATENCY,
            "NVIDIA Quantum-2 QM9700 datasheet: ~130 ns port to port");

    /** A refit stage's time: from nothing to an hour (published refit cycles run from milliseconds to minutes). */
    private static final Parameter.Range STAGE_TIME = new Parameter.Range(0, 3600,
            "a refit stage costs 0 s to an hour");

    /** The engine's pause before a refit. */
    public static final Parameter<Double> REFIT_PAUSE = refitStage("pause", RefitCalibration.PAUSE);
    /** The engine's resume after a refit. */
    public static final Parameter<Double> REFIT_RESUME = refitStage("resume", RefitCalibration.RESUME);
    /** The barrier that closes a refit. */
    public static final Parameter<Double> REFIT_BARRIER = refitStage("barrier", RefitCalibration.BARRIER);
    /** A broadcast bucket's fixed cost. */
    public static final Parameter<Double> REFIT_BUCKET = refitStage("bucket", RefitCalibration.BUCKET);
    /** One CUDA IPC handle opened by the engine (colocated refits). */
    public static final Parameter<Double> REFIT_IPC_OPEN = refitStage("ipcOpen", RefitCalibration.IPC_OPEN);
    /** One tensor through the engine's load_weights. */
    public static final Parameter<Double> REFIT_LOAD_TENSOR = refitStage("loadTensor", RefitCalibration.LOAD_TENSOR);
    /** miles' P2P update: the sender's load_weights into its CPU replica, per GB loaded, beyond the copy. */
    public static final Parameter<Double> REFIT_REPLICA_LOAD = refitStage("replicaLoadPerGB",
            RefitCalibration.REPLICA_LOAD);
    /** vLLM's sharded RDT engine: a pull's wait for its receive slot's scatter. */
    public static final Parameter<Double> REFIT_RDT_SCATTER = refitStage("rdtScatter", RefitCalibration.RDT_SCATTER);
    /** vLLM's sharded RDT engine: one produce call on the producer's sidecar. */
    public static final Parameter<Double> REFIT_RDT_PACK = refitStage("rdtPack", RefitCalibration.RDT_PACK);

    /** One tensor through verl's checkpoint-engine send loop over an FSDP trainer (full_tensor, cast, copy). */
    public static final Parameter<Double> REFIT_PACK_TENSOR = refitStage("packTensor", RefitCalibration.PACK_TENSOR);
    /** NeMo-RL's nccl_reshard: one xferdtensor call through the Python fallback, per FFN parameter. */
    public static final Parameter<Double> REFIT_RESHARD_CALL = refitStage("reshardCall", RefitCalibration.RESHARD_CALL);

    /** checkpoint-engine's update end (gc, post-load hook, barriers, process group teardown), once per update. */
    public static final Parameter<Double> REFIT_CKPT_UPDATE_END = refitStage("checkpointEngineUpdateEnd",
            RefitCalibration.CKPT_UPDATE_END);

    /** verl's frame around its checkpoint engine (the manager's steps, the vLLM adapter's), once per update. */
    public static final Parameter<Double> REFIT_VERL_UPDATE_FRAME = refitStage("verlUpdateFrame",
            RefitCalibration.VERL_UPDATE_FRAME);

    /** The refit stage parameters, in the order the scenario's {@code stages} map lists them. */
    public static List<Parameter<Double>> refitStages() {
        return List.of(REFIT_PAUSE, REFIT_RESUME, REFIT_BARRIER, REFIT_BUCKET, REFIT_IPC_OPEN, REFIT_LOAD_TENSOR,
                REFIT_PACK_TENSOR, REFIT_REPLICA_LOAD, REFIT_RDT_SCATTER, REFIT_RDT_PACK, REFIT_RESHARD_CALL, REFIT_CKPT_UPDATE_END,
                REFIT_VERL_UPDATE_FRAME);
    }

    /** The calibration key ({@code refit.bucketSeconds}) a stage parameter sets. */
    public static String calibrationKey(Parameter<Double> stage) {
        return "refit." + stage.key() + "Seconds";
    }

    /**
     * {@code workload.refit.stages.KEY}, its default and source those of {@link RefitCalibration}'s parameter
     * {@code calibrationKey} (derived, calibrated on a named measurement, or assumed: the table says which).
     */
    private static Parameter<Double> refitStage(String key, String calibrationKey) {
        CalibrationProfile.Parameter d = RefitCalibration.defaults().get(calibrationKey);
        if (!calibrationKey.equals("refit." + key + "Seconds")) {
            throw new IllegalStateException(key + " does not name " + calibrationKey);
        }
        String value = org.rdmasim.hardware.Units.duration(d.value());
        return new Parameter<>("workload.refit.stages." + key, "", "duration", value, d.value(), STAGE_TIME,
                d.kind().name().toLowerCase(Locale.ROOT) + ": " + d.source(), QuantityText::seconds,
                Double::doubleValue);
    }

    /** Independent runs of a scenario with different random streams (mean, confidence interval). */
    public static final Parameter<Long> REPLICATIONS = count("replications", "runs", 1L, 1, 100_000,
            "1 to 100000 replications", "one run unless the scenario asks for more");

    /** Refit cycles a fan-out repeats. */
    public static final Parameter<Long> CYCLES = count("workload.fanout.cycles.count", "cycles",
            (long) RefitCycles.single().count(), 1, 10_000,
            "1 to 10000 cycles", "one cycle unless the scenario says");

    /** Spread of NIC rates between hosts (each NIC's rate drawn within +-this fraction). */
    public static final Parameter<Double> NIC_RATE_JITTER = new Parameter<>("workload.fanout.jitter.nicRate", "",
            "fraction", "0", Jitter.NONE.nicRateFraction(), new Parameter.Range(0, Math.nextDown(1.0), "a rate jitter from 0% to below 100%"),
            "no jitter unless the scenario says", Parameters::fraction, Double::doubleValue);

    /** Every declared parameter, in the order a scenario's sections list them. */
    public static List<Parameter<?>> all() {
        return List.of(PAGE_SIZE, FIRMWARE_PAGE_CAP, CAP_SCOPE, HOST_MEMORY, MTT_LIMIT, DESCRIPTORS, QPS_PER_PEER, SLICE_THREAD, IOMMU_PENALTY,
                GPUDIRECT, ACS, LINE_RATE, NVLINKS, C2C, INTER_SOCKET, MEMORY_BANDWIDTH, HOSTS_PER_LEAF, OVERSUBSCRIPTION,
                DEGRADED_FRACTION, WAVE_SIZE, MAX_CHILDREN, NIC_LATENCY, PCIE_HOP, PER_DESCRIPTOR, PER_FRAGMENT,
                MAX_OUTSTANDING_READS, STAGING_COPY, SEND_QUEUE_DEPTH, NIC_MESSAGE_RATE, HOP_LATENCY, REPLICATIONS, CYCLES, NIC_RATE_JITTER,
                REFIT_PAUSE, REFIT_RESUME, REFIT_BARRIER, REFIT_BUCKET, REFIT_IPC_OPEN, REFIT_LOAD_TENSOR,
                REFIT_PACK_TENSOR, REFIT_REPLICA_LOAD, REFIT_RDT_SCATTER, REFIT_RDT_PACK, REFIT_RESHARD_CALL, REFIT_CKPT_UPDATE_END,
                REFIT_VERL_UPDATE_FRAME);
    }

    /** A rate set by a model or preset unless written ({@code defaultText} says whose). */
    private static Parameter<Double> rate(String field, String defaultText, String source) {
        return new Parameter<>(field, "", "bandwidth", defaultText, null, LINK_RATE, source, QuantityText::bandwidth,
                Double::doubleValue);
    }

    private static Parameter<Double> cost(String field, String defaultText, double defaultValue, String source) {
        return new Parameter<>(field, "", "duration", defaultText, defaultValue, OPERATION_COST, source,
                QuantityText::seconds, Double::doubleValue);
    }

    /** A count with a default, printed as the number it is. */
    private static Parameter<Long> count(String field, String unit, long defaultValue, long min, long max, String why,
            String source) {
        return new Parameter<>(field, "", unit, Long.toString(defaultValue), defaultValue,
                new Parameter.Range(min, max, why), source, Parameters::wholeNumber, Long::doubleValue);
    }

    /** A count with no default value: {@code defaultText} says who sets it ("the preset's", "required"). */
    private static Parameter<Long> count(String field, String unit, String defaultText, long min, long max, String why,
            String source) {
        return new Parameter<>(field, "", unit, defaultText, null, new Parameter.Range(min, max, why), source,
                Parameters::wholeNumber, Long::doubleValue);
    }

    private static Parameter<Boolean> flag(String field, boolean defaultValue, String source) {
        return new Parameter<>(field, "", "true|false", Boolean.toString(defaultValue), defaultValue,
                Parameter.Range.ANY, source, Parameters::bool, b -> b ? 1 : 0);
    }

    /** A whole number; checked against its range before any narrowing. */
    static long wholeNumber(String text) {
        try {
            return Long.parseLong(text.strip().replace("_", ""));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("expected a whole number, got '" + text.strip() + "'");
        }
    }

    private static double ratio(String text) {
        try {
            double d = Double.parseDouble(text.strip().replace("_", ""));
            if (Double.isFinite(d)) {
                return d;
            }
        } catch (NumberFormatException e) {
            // falls through to the message below
        }
        throw new IllegalArgumentException("expected a number, got '" + text.strip() + "'");
    }

    /** A fraction written as 0.02 or as a percentage, '2%'. */
    private static double fraction(String text) {
        String t = text.strip();
        if (t.endsWith("%")) {
            return ratio(t.substring(0, t.length() - 1)) / 100;
        }
        return ratio(t);
    }

    private static boolean bool(String text) {
        return switch (text.strip().toLowerCase(Locale.ROOT)) {
            case "true", "yes", "on" -> true;
            case "false", "no", "off" -> false;
            default -> throw new IllegalArgumentException("expected true or false, got '" + text.strip() + "'");
        };
    }
}
