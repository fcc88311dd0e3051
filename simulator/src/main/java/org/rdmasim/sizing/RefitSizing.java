package org.rdmasim.sizing;

import java.util.ArrayList;
import java.util.List;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.TopologyNode;
import org.rdmasim.hardware.Units;
import org.rdmasim.refit.RefitSetup;
import org.rdmasim.refit.method.Buckets;
import org.rdmasim.scenario.VariantSpec;
import org.rdmasim.transport.config.EnvEntry;
import org.rdmasim.workload.RefitMethodKind;
import org.rdmasim.workload.RefitSpec;
import org.rdmasim.workload.Senders;

/**
 * The knobs a sizing search turns on a refit variant ({@code workload: refit:}), each applied as the scenario
 * would write it, and the values each may take (its ladder): the search walks the ladder's positions, so a
 * knob whose valid values are not 1..N (inference TP, buckets) is searched the same way.
 */
public final class RefitSizing {
    public enum Knob implements SizingKnob {
        SENDERS, NICS, BUCKET, INFERENCE_TP;

        /** The knob named {@code text}, or empty when it is not a refit knob. */
        public static java.util.Optional<Knob> find(String text) {
            return SizingKnob.named(values(), text);
        }

        /**
         * Whether more of the knob can be assumed never to lengthen a refit. A bucket cannot: a larger bucket
         * pays fewer per-bucket starts but fills the pipeline later and registers a larger buffer
         * (scenarios/refit-bucket-sweep.yaml shows the time falling, then rising), so its ladder is scanned whole.
         */
        public boolean monotone() {
            return this != BUCKET;
        }
    }

    /** The smallest and largest bucket tried. */
    public static final long SMALLEST_BUCKET = 16L << 20;
    public static final long LARGEST_BUCKET = Buckets.CHECKPOINT_ENGINE_MAX_BUCKET;

    /** One value the knob may take, with the text the table shows. */
    public record Step(long value, String shown) {
    }

    /** A value left out of the ladder and why. */
    public record Skipped(long value, String why) {
    }

    /**
     * The values to search in increasing order, the values left out, and how the ladder was bounded.
     */
    public record Ladder(List<Step> steps, List<Skipped> skipped, String why) {
        public Ladder {
            steps = List.copyOf(steps);
            skipped = List.copyOf(skipped);
        }
    }

    private RefitSizing() {
    }

    /**
     * The ladder of {@code knob} on {@code v}, or an {@link IllegalArgumentException} saying why the knob does
     * not apply to the variant's method.
     * <ul>
     *   <li>senders (nccl-broadcast): 1 to the trainer's ranks. RDMA pull and WRITE move each byte from the
     *       trainer rank holding it, spreading reads over data-parallel replicas already; a checkpoint engine
     *       sends from the inference side's own ranks;</li>
     *   <li>nics (rdma-pull, write-schedule, nixl-ring; not mooncake-ring or rdma-pull's host replica, whose engine picks its HCAs): 1 to the inference host's compute NICs; (nccl-broadcast,
     *       checkpoint-engine) 1 to the fewest compute NICs of a host the broadcast crosses;</li>
     *   <li>bucket (write-schedule, nccl-broadcast, checkpoint-engine, nixl-ring, mooncake-ring, colocated-ipc, rdma-pull's host replica): powers of two from 16 MiB up to the
     *       smallest one holding the whole model, at most 8 GiB (checkpoint-engine's default cap,
     *       {@code PS_MAX_BUCKET_SIZE_GB}); a larger bucket is one bucket either way;</li>
     *   <li>inference-tp: every TP degree dividing the inference GPUs (DP = GPUs / TP, so the engine keeps its
     *       GPUs) that the model's layout accepts; the others are listed with the layout's refusal.</li>
     * </ul>
     */
    public static Ladder ladder(VariantSpec v, Knob knob) {
        RefitSpec spec = v.refitSpec();
        RefitMethodKind method = spec.method();
        List<Step> steps = new ArrayList<>();
        List<Skipped> skipped = new ArrayList<>();
        if (method == RefitMethodKind.COLOCATED_IPC && (knob == Knob.SENDERS || knob == Knob.NICS)) {
            throw new IllegalArgumentException("--vary " + knob.label()
                    + " does not apply to colocated-ipc: trainer and engine share each GPU and no NIC carries a byte "
                    + "(vary bucket or inference-tp)");
        }
        if (method == RefitMethodKind.MOONCAKE_RING && knob == Knob.NICS) {
            throw new IllegalArgumentException("--vary nics does not apply to mooncake-ring: Mooncake's Transfer Engine "
                    + "takes the HCAs its topology prefers for each GPU and reads no UCX variable (vary bucket or "
                    + "inference-tp)");
        }
        boolean hostReplica = method == RefitMethodKind.RDMA_PULL && spec.knobs().hostReplica();
        if (hostReplica && knob == Knob.NICS) {
            throw new IllegalArgumentException("--vary nics does not apply to rdma-pull with source: host-replica: its "
                    + "writes leave by the HCAs Mooncake's Transfer Engine prefers for the replica's host memory and read "
                    + "no UCX variable (vary bucket or inference-tp)");
        }
        switch (knob) {
            case SENDERS -> {
                if (method != RefitMethodKind.NCCL_BROADCAST) {
                    throw new IllegalArgumentException("--vary senders applies to nccl-broadcast (method is "
                            + method.spelling() + "): " + (method == RefitMethodKind.CHECKPOINT_ENGINE
                            ? "a checkpoint engine broadcasts from the inference side's own ranks"
                            : method == RefitMethodKind.NIXL_RING || method == RefitMethodKind.MOONCAKE_RING
                            ? "verl's NIXL and Mooncake engines send from trainer rank 0 alone (their build_topology)"
                            : "RDMA pull and WRITE move each byte from the trainer rank holding it and already "
                                    + "spread reads over data-parallel replicas"));
                }
                if (spec.knobs().senders() instanceof Senders.StageHeads) {
                    // a count of senders stripes them each on its own communicator: the engines' lock would go
                    throw new IllegalArgumentException("--vary senders does not apply to senders: stage-heads (miles' "
                            + "and slime's update): its senders are the pipeline stages' heads, one bucket at a time "
                            + "under the engines' lock, and a count of senders would stripe them without it (vary "
                            + "bucket or nics, or set senders: all to size a striped broadcast)");
                }
                int ranks = spec.trainer().ranks();
                for (int n = 1; n <= ranks; n++) {
                    steps.add(new Step(n, Integer.toString(n)));
                }
                return new Ladder(steps, skipped, ranks + " trainer rank(s)");
            }
            case NICS -> {
                if (method.readsNcclIbHca()) {
                    int nics = Integer.MAX_VALUE;
                    for (Host h : broadcastHosts(v)) {
                        nics = Math.min(nics, h.computeNics().size());
                    }
                    for (int n = 1; n <= nics; n++) {
                        steps.add(new Step(n, Integer.toString(n)));
                    }
                    return new Ladder(steps, skipped, "the fewest compute NICs of a broadcast host: " + nics
                            + " (NCCL_IB_HCA lists each host's N nearest its GPUs)");
                }
                int nics = computeNics(v).size();
                for (int n = 1; n <= nics; n++) {
                    steps.add(new Step(n, Integer.toString(n)));
                }
                return new Ladder(steps, skipped, "the inference host has " + nics + " compute NIC(s); N listed in "
                        + "UCX_NET_DEVICES (1: each GPU's nearest, MX_RDMA_NIC_PIN=auto), UCX_MAX_RMA_RAILS=N, each "
                        + "buffer registered on the N HCAs, so the first cycle's registration grows with N");
            }
            case BUCKET -> {
                if (!method.bucketed() && !hostReplica) {
                    throw new IllegalArgumentException("--vary bucket applies to " + String.join(", ",
                            RefitMethodKind.bucketedKinds().stream().map(RefitMethodKind::spelling).toList())
                            + " (method is " + method.spelling() + ", which " + switch (method) {
                                case RDMA_PULL -> "reads runs";
                                case NCCL_P2P -> "sends each pair's runs";
                                default -> "pulls one gather group at a time";
                            } + ", not buckets)");
                }
                long whole = RefitSetup.of(spec, name -> host(v, name)).inventory().bytes();
                long top = SMALLEST_BUCKET;
                while (top < whole && top < LARGEST_BUCKET) {
                    top *= 2;
                }
                for (long b = SMALLEST_BUCKET; b <= top; b *= 2) {
                    steps.add(new Step(b, Units.exactSizeLabel(b, " ")));
                }
                return new Ladder(steps, skipped, "powers of two from " + Units.exactSizeLabel(SMALLEST_BUCKET, " ")
                        + " to " + Units.exactSizeLabel(top, " ") + (top >= whole ? " (the first holding the "
                        + String.format(java.util.Locale.ROOT, "%.2f GB", whole / 1e9) + " model)" : " (checkpoint-engine's default cap)"));
            }
            case INFERENCE_TP -> {
                int gpus = spec.inference().ranks();
                List<Integer> notDividing = new ArrayList<>();
                for (int tp = 1; tp <= gpus; tp++) {
                    if (gpus % tp != 0) {
                        notDividing.add(tp);
                        continue;
                    }
                    try {
                        RefitSetup.of(withTp(spec, tp), name -> host(v, name));
                        steps.add(new Step(tp, Integer.toString(tp)));
                    } catch (IllegalArgumentException e) {
                        skipped.add(new Skipped(tp, e.getMessage()));
                    }
                }
                String why = "TP x DP = the " + gpus + " inference rank(s) kept";
                if (!notDividing.isEmpty()) {
                    why += "; " + notDividing.size() + " degree(s) below " + gpus + " do not divide them";
                }
                if (steps.isEmpty()) {
                    throw new IllegalArgumentException("no inference TP degree from 1 to " + gpus + " is valid for "
                            + "the model: " + skipped.get(0).why());
                }
                return new Ladder(steps, skipped, why);
            }
            default -> throw new IllegalStateException(knob.name());
        }
    }

    /** The variant with {@code knob} at {@code value}, named for it. */
    public static VariantSpec apply(VariantSpec v, Knob knob, long value) {
        RefitSpec spec = v.refitSpec();
        RefitSpec.Knobs k = spec.knobs();
        VariantSpec out = switch (knob) {
            case SENDERS -> v.withRefit(spec.withMethod(spec.method(), k.withSenders(Senders.ranks((int) value))));
            case NICS -> {
                if (spec.method().readsNcclIbHca()) {
                    yield withIbHca(v, (int) value);
                }
                // N >= 2: UCX_NET_DEVICES lists exactly N NICs of the inference host (each GPU's nearest first, as
                // the broadcast's NCCL_IB_HCA), one list for every process as the variable is, with as many rails.
                // ModelExpress' stripe mode would list every NIC whatever N (it rewrites UCX_NET_DEVICES), so its
                // pin is dropped. UCX maps a buffer on every memory domain its device list leaves (ucp_mem_map over
                // the context's MDs), so each buffer is registered on N HCAs: the first cycle pays that per HCA.
                List<EnvEntry> env = new ArrayList<>(v.transport().stack().env());
                env.removeIf(e -> e.name().equals("UCX_NET_DEVICES") || e.name().equals("UCX_MAX_RMA_RAILS")
                        || e.name().equals("MX_RDMA_NIC_PIN"));
                if (value == 1) {
                    // one NIC: ModelExpress' own pin, each GPU's nearest (one shared list of one NIC would put the
                    // other GPUs on a farther NIC)
                    env.add(new EnvEntry("MX_RDMA_NIC_PIN", "auto", "size --vary nics", 0));
                } else {
                    Host inference = host(v, v.refitSpec().inferenceHosts().get(0));
                    java.util.Set<String> compute = new java.util.HashSet<>(inference.computeNics().stream()
                            .map(TopologyNode::name).toList());
                    List<String> listed = NicOrder.nearestFirst(inference, inference.gpus()).stream().filter(compute::contains).limit(value)
                            .map(n -> n + ":1").toList();
                    env.add(new EnvEntry("UCX_NET_DEVICES", String.join(",", listed), "size --vary nics", 0));
                    env.add(new EnvEntry("UCX_MAX_RMA_RAILS", Long.toString(value), "size --vary nics", 0));
                }
                VariantSpec t = v.withTransport(v.transport().withStack(v.transport().stack().withEnv(env)));
                yield t.withRefit(spec.withRegistration(spec.registration(), (int) value));
            }
            case BUCKET -> v.withRefit(spec.withMethod(spec.method(), k.withBucket(value)));
            case INFERENCE_TP -> v.withRefit(withTp(spec, (int) value));
        };
        String shown = knob == Knob.BUCKET ? Units.exactSizeLabel(value, "") : Long.toString(value);
        return out.withName(v.name() + " " + knob.label() + "=" + shown);
    }

    /** The hosts a broadcast crosses, one per shape: the trainer's (senders, or owners) and the inference's. */
    private static List<Host> broadcastHosts(VariantSpec v) {
        List<Host> out = new ArrayList<>();
        java.util.Set<Object> shapes = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        RefitSpec spec = v.refitSpec();
        List<String> names = new ArrayList<>(spec.trainerHosts());
        names.addAll(spec.inferenceHosts());
        for (String name : names) {
            if (shapes.add(v.hosts().get(name))) {
                out.add(host(v, name));
            }
        }
        return out;
    }

    /**
     * A broadcast on {@code n} NICs a host: {@code NCCL_IB_HCA} naming exactly ({@code =}) each host's first
     * {@code n} compute NICs in the order NCCL hands them to channels (each communicator GPU's nearest, host
     * GPU order; then the rest nearest first), as the pulls' knob gives each GPU its nearest NIC first. The
     * variable is one list for every process, so hosts whose names differ share a list that still leaves each
     * exactly its {@code n}; a list that would leave a host more is refused.
     */
    private static VariantSpec withIbHca(VariantSpec v, int n) {
        java.util.Set<String> names = new java.util.LinkedHashSet<>();
        List<Host> hosts = broadcastHosts(v);
        for (Host h : hosts) {
            NicOrder.nearestFirst(h, h.gpus()).stream().limit(n).forEach(names::add);
        }
        for (Host h : hosts) {
            long listed = h.nics().stream().filter(nic -> names.contains(nic.name())).count();
            if (listed != n) {
                throw new IllegalArgumentException("--vary nics: one NCCL_IB_HCA for every host cannot give host "
                        + h.name() + " " + n + " NIC(s): the list " + names + " names " + listed + " of its ports");
            }
        }
        List<EnvEntry> env = new ArrayList<>(v.transport().stack().env());
        env.removeIf(e -> e.name().equals("NCCL_IB_HCA"));
        env.add(new EnvEntry("NCCL_IB_HCA", "=" + String.join(",", names), "size --vary nics", 0));
        return v.withTransport(v.transport().withStack(v.transport().stack().withEnv(env)));
    }

    private static RefitSpec withTp(RefitSpec spec, int tp) {
        RefitSpec.Inference i = spec.inference();
        return spec.withInference(new RefitSpec.Inference(tp, i.ranks() / tp, i.expertParallel(), i.redundantExperts(),
                i.separateEngines(), i.engine(), i.firstReplicaReads()));
    }

    private static Host host(VariantSpec v, String name) {
        return new Host(name, v.hosts().get(name));
    }

    private static List<TopologyNode> computeNics(VariantSpec v) {
        return host(v, v.refitSpec().inferenceHosts().get(0)).computeNics();
    }
}
