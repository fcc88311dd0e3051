package org.rdmasim.refit.method;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.PathType;
import org.rdmasim.hardware.TopologyNode;
import org.rdmasim.transport.Endpoint;
import org.rdmasim.transport.config.NcclIbHca;

/** The chain order through a broadcast's receivers and the NICs NCCL picks, for {@link BucketedBroadcast}. */
final class BroadcastOrder {
    private BroadcastOrder() {
    }

    /**
     * The receivers of stripe {@code stripe}'s chain, without the root: ranks grouped by host (NCCL's rings
     * keep a host's GPUs together and cross the fabric once per host), hosts in order of their first rank.
     * Each stripe starts at another host and, in every host, at another GPU (hosts and GPUs rotated by the
     * stripe index), so concurrent chains enter hosts through different GPUs and so different NICs, as
     * NCCL's channels spread over a host's NICs ({@code ncclTopoGetLocalNet} adds the channel id to the
     * GPU's NIC index, NVIDIA/nccl {@code src/graph/topo.cc}). ASSUMED: which ring NCCL's search builds for a
     * given communicator is not modelled.
     */
    static List<Integer> chain(WireContext ctx, Endpoint root, int stripe) {
        return chain(ctx, ctx.inferenceRanks(), root, stripe);
    }

    /** As {@link #chain(WireContext, Endpoint, int)} through {@code ranks} only (a group of some inference ranks). */
    static List<Integer> chain(WireContext ctx, List<Integer> ranks, Endpoint root, int stripe) {
        Map<String, List<Integer>> byHost = new LinkedHashMap<>();
        for (int i : ranks) {
            Endpoint e = ctx.inference(i);
            if (!e.equals(root)) {
                byHost.computeIfAbsent(e.host(), h -> new ArrayList<>()).add(i);
            }
        }
        List<List<Integer>> hosts = new ArrayList<>(byHost.values());
        List<Integer> out = new ArrayList<>();
        for (int k = 0; k < hosts.size(); k++) {
            List<Integer> gpus = hosts.get((k + stripe) % hosts.size());
            for (int j = 0; j < gpus.size(); j++) {
                out.add(gpus.get((j + stripe) % gpus.size()));
            }
        }
        return out;
    }

    /** NCCL's ceiling on a communicator's channels, {@code MAXCHANNELS} (NVIDIA/nccl src/include/device.h L91, v2.30.7-1). */
    static final int MAX_CHANNELS = 64;

    /**
     * The NICs of host {@code h} NCCL's ring search hands to channels, in the order it tries them: for each
     * of the communicator's GPUs on the host ({@code gpus}, host order), the NICs nearest it
     * ({@code ncclTopoSelectNets} gathers each GPU's preferred NICs first, NVIDIA/nccl src/graph/search.cc
     * L541, v2.30.7-1), among those {@code NCCL_IB_HCA} selects ({@link NcclIbHca#gpuNics}: NCCL drops a
     * device the list does not select before the topology is built, src/transport/net_ib/init.cc L370). Channel
     * c starts its search at entry {@code c mod count} ({@code nets[(graph->nChannels + i) % netCount]}, L736)
     * and each NIC a channel takes loses that channel's bandwidth for the next (L747-751), so successive channels
     * cross the fabric through successive NICs of the list. ASSUMED: the search stops at the NICs nearest the
     * GPUs. It starts at the nearest path type and widens it only while its channels fall short of the node's
     * bandwidth ({@code nChannels * bwInter >= system->totalBw}, L1198), which NICs at line rate beside each
     * GPU meet; NICs farther away are not modelled as used. A list that leaves the host no NIC is the
     * {@link org.rdmasim.transport.config.ConfigValueException} NCCL's "No device found" is.
     */
    static List<TopologyNode> channelNics(WireContext ctx, Host h, List<TopologyNode> gpus, NcclIbHca ibHca) {
        // a refit asks this at every hop of every collective: ranking the host's NICs anew each time was about a
        // quarter of a large refit's event loop, for an answer fixed by the host, the GPUs and the list
        return ctx.channelNics.computeIfAbsent(new NicsAsked(h, gpus, ibHca), a -> nearestNics(h, gpus, ibHca));
    }

    /** What {@link #channelNics} answers, kept per run: the host, the communicator's GPUs there, the HCA list (by identity). */
    record NicsAsked(Host host, List<TopologyNode> gpus, NcclIbHca ibHca) {
    }

    private static List<TopologyNode> nearestNics(Host h, List<TopologyNode> gpus, NcclIbHca ibHca) {
        List<TopologyNode> candidates = h.computeNics();
        if (ibHca.restricts()) {
            Set<String> allowed = new java.util.HashSet<>(ibHca.gpuNics(h.name(),
                    h.nics().stream().map(TopologyNode::name).toList(), h.listedOnlyNics()));
            candidates = h.nics().stream().filter(n -> allowed.contains(n.name())).toList();
        }
        Set<TopologyNode> out = new LinkedHashSet<>();
        for (TopologyNode g : gpus) {
            List<TopologyNode> ranked = new ArrayList<>(candidates);
            // nearest first, ties in PCI order, as Host#nicsByDistance ranks the compute ports
            ranked.sort((p, q) -> h.relation(g, p).compareTo(h.relation(g, q)));
            PathType best = null;
            for (TopologyNode n : ranked) {
                PathType p = h.relation(g, n);
                if (best == null) {
                    best = p;
                }
                if (p != best) {
                    break;
                }
                out.add(n);
            }
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("host " + h.name() + " has no NIC for NCCL's channels");
        }
        return List.copyOf(out);
    }

    /** The communicator's GPUs on each host of {@code members}, in host GPU order. */
    static Map<String, List<TopologyNode>> gpusByHost(WireContext ctx, List<Endpoint> members) {
        Map<String, Set<TopologyNode>> seen = new LinkedHashMap<>();
        for (Endpoint e : members) {
            seen.computeIfAbsent(e.host(), k -> new java.util.HashSet<>()).add(ctx.gpu(e));
        }
        Map<String, List<TopologyNode>> out = new LinkedHashMap<>();
        for (Map.Entry<String, Set<TopologyNode>> e : seen.entrySet()) {
            List<TopologyNode> inOrder = new ArrayList<>();
            for (TopologyNode g : ctx.host(e.getKey()).gpus()) {
                if (e.getValue().contains(g)) {
                    inOrder.add(g);
                }
            }
            out.put(e.getKey(), inOrder);
        }
        return out;
    }

    /**
     * The channels of a broadcast over {@code members}: one per NIC its GPUs use on a host
     * ({@link #channelNics}), the fewest over the hosts the broadcast spans (every rank keeps the smallest
     * channel count any rank found, NVIDIA/nccl src/init.cc L1439, v2.30.7-1), at most {@link #MAX_CHANNELS}.
     * A host where the root is the communicator's only GPU thus gives the root's nearest NICs. A broadcast
     * inside one host has one channel: its chain is bound by NVLink, which the channels would share.
     */
    static int channels(WireContext ctx, Map<String, List<TopologyNode>> gpus, NcclIbHca ibHca) {
        if (gpus.size() < 2) {
            return 1;
        }
        int fewest = MAX_CHANNELS;
        for (Map.Entry<String, List<TopologyNode>> e : gpus.entrySet()) {
            fewest = Math.min(fewest, channelNics(ctx, ctx.host(e.getKey()), e.getValue(), ibHca).size());
        }
        return fewest;
    }

    /**
     * Channel {@code k}'s ring through {@code given} (the root first): the root's host-mates right after it,
     * then the other hosts in the same order, each host's GPUs rotated to start at the one nearest the
     * channel's NIC, as
     * NCCL's rings run NIC n, the GPU nearest it, the host's other GPUs, and back out through NIC n
     * (NVIDIA/nccl src/graph/search.cc L827, v2.30.7-1: "Ring : NET n -> GPU a -> GPU b -> .. -> GPU x -> NET n").
     */
    static List<Endpoint> channelOrder(WireContext ctx, List<Endpoint> given, Map<String, List<TopologyNode>> gpus,
            int k, NcclIbHca ibHca) {
        // a node's GPUs sit together in NCCL's ring, the root's included: its host-mates follow it
        Endpoint root = given.get(0);
        List<Endpoint> members = new ArrayList<>();
        members.add(root);
        for (Endpoint e : given.subList(1, given.size())) {
            if (e.host().equals(root.host())) {
                members.add(e);
            }
        }
        for (Endpoint e : given.subList(1, given.size())) {
            if (!e.host().equals(root.host())) {
                members.add(e);
            }
        }
        List<Endpoint> out = new ArrayList<>();
        out.add(root);
        int i = 1;
        while (i < members.size()) {
            int j = i;
            while (j < members.size() && members.get(j).host().equals(members.get(i).host())) {
                j++;
            }
            List<Endpoint> run = members.subList(i, j);
            addFromNearest(ctx, run, gpus, k, ibHca, out);
            i = j;
        }
        return out;
    }

    /**
     * Channel {@code k}'s ring of an all-gather over {@code members}: a host's GPUs sit together, and on a
     * communicator spanning hosts each host's run starts at its GPU nearest the channel's NIC, where the ring enters
     * the host, so that it also leaves through that NIC (PXN hands over from the run's last GPU). Unlike a
     * broadcast's chain ({@link #channelOrder}) no rank is a root, so the first host's run turns too.
     */
    static List<Endpoint> ringOrder(WireContext ctx, List<Endpoint> members, Map<String, List<TopologyNode>> gpus,
            int k, NcclIbHca ibHca) {
        Map<String, List<Endpoint>> byHost = new LinkedHashMap<>();
        for (Endpoint e : members) {
            byHost.computeIfAbsent(e.host(), h -> new ArrayList<>()).add(e);
        }
        if (byHost.size() < 2) {
            return members;
        }
        List<Endpoint> out = new ArrayList<>();
        for (List<Endpoint> run : byHost.values()) {
            addFromNearest(ctx, run, gpus, k, ibHca, out);
        }
        return out;
    }

    /** The NIC channel {@code k} crosses the fabric through on host {@code h}. */
    static TopologyNode channelNic(WireContext ctx, Host h, List<TopologyNode> gpus, int k, NcclIbHca ibHca) {
        List<TopologyNode> nics = channelNics(ctx, h, gpus, ibHca);
        return nics.get(k % nics.size());
    }

    /** Bytes of a bucket of {@code size} that inference rank {@code rank} keeps: its share of the payload. */
    static long share(WireContext ctx, int rank, long size, long payload) {
        return Math.round((double) size * Math.min(ctx.bytesTo(rank), payload) / payload);
    }

    /**
     * The install of one bucket of {@code tensors} tensors: every receiver hands them to its engine's
     * {@code load_weights} (one call per tensor, {@link RefitCalibration#LOAD_TENSOR}) and copies its share into its
     * weights, all at once; the slowest decides.
     */
    static void install(WireContext ctx, List<Integer> receivers, long size, long payload, long tensors,
            Runnable then) {
        install(ctx, receivers, r -> share(ctx, r, size, payload), tensors, then);
    }

    /**
     * The install every receiving rank does at once: its engine's {@code load_weights} over {@code tensors}
     * tensors, then the HBM copy of the {@code copied} bytes of that rank; the slowest rank decides.
     */
    static void install(WireContext ctx, List<Integer> ranks, java.util.function.IntToLongFunction copied, long tensors,
            Runnable then) {
        double worst = 0;
        Endpoint slowest = null;
        for (int r : ranks) {
            double s = ctx.copySeconds(ctx.inference(r), copied.applyAsLong(r));
            if (slowest == null || s > worst) {
                worst = s;
                slowest = ctx.inference(r);
            }
        }
        double copy = worst;
        Endpoint gpu = slowest;
        loadWeights(ctx, gpu, tensors, () -> ctx.gpuWork(RefitStage.INSTALL, gpu, copy, then));
    }

    /**
     * The engine's {@code load_weights} over {@code tensors} tensors on {@code gpu}: vLLM's and SGLang's loaders
     * walk the tensors one by one in Python (name mapping, the parameter's weight loader, the slice taken), a
     * fixed cost per tensor outside the copy's bytes. Nothing when the plan hands no tensors to an engine.
     *
     * <p>A loader may rework more than it was handed ({@link RefitPlan#postLoadTensors}): SGLang's GLM-4.7-Flash
     * class ends every {@code load_weights} call with {@code post_load_weights(weight_names=None)}, "to ensure we
     * always process all layers" (sgl-project/sglang 03b1e880 python/sglang/srt/models/glm4_moe_lite.py (no line:
     * read from a code index), the end of {@code load_weights}), so each call splits every layer's
     * {@code kv_b_proj} into the MLA's {@code w_kc} and {@code w_vc} again (two contiguous copies bound into the
     * live weights, sgl-project/sglang 0201c04e python/sglang/srt/models/deepseek_common/deepseek_weight_loader.py
     * (no line: read from a code index), {@code post_load_weights}), where the DeepSeek classes pass the call's own
     * weight names and rework only the layers it carried. ASSUMED: one layer's rework costs what one tensor's load
     * does ({@link RefitCalibration#LOAD_TENSOR}); no source times it.
     */
    static void loadWeights(WireContext ctx, Endpoint gpu, long tensors, Runnable then) {
        long reworked = tensors > 0 ? ctx.plan().postLoadTensors() : 0;
        double seconds = (tensors + reworked) * ctx.plan().calibration().value(RefitCalibration.LOAD_TENSOR);
        if (seconds <= 0) {
            then.run();
            return;
        }
        ctx.gpuCall(RefitStage.INSTALL, gpu, seconds, "load_weights calls", reworked > 0
                ? "the engine's load_weights, one call per tensor, then its MLA split of all " + reworked
                        + " layers again (assumed at the same cost a layer)"
                : "the engine's load_weights, one call per tensor", List.of(RefitCalibration.LOAD_TENSOR), then);
    }

    static List<Endpoint> members(WireContext ctx, Endpoint root, List<Integer> receivers) {
        List<Endpoint> out = new ArrayList<>();
        out.add(root);
        for (int r : receivers) {
            out.add(ctx.inference(r));
        }
        return out;
    }

    /** The ranks that install a bucket: the chain's receivers and an inference rank on the root's own GPU. */
    static List<Integer> installing(WireContext ctx, Endpoint root, List<Integer> receivers) {
        List<Integer> out = new ArrayList<>(receivers);
        for (int i : ctx.inferenceRanks()) {
            if (ctx.inference(i).equals(root)) {
                out.add(i);
            }
        }
        return out;
    }

    /** An inference rank on the root's own GPU has the bucket without a wire: it lands there at once. */
    static void landedAtRoot(WireContext ctx, Endpoint root, long size) {
        for (int i : ctx.inferenceRanks()) {
            if (ctx.inference(i).equals(root)) {
                ctx.landed(i, size);
            }
        }
    }

    /** Adds one host's run of ranks to {@code out}, turned to start at its GPU nearest channel {@code k}'s NIC. */
    private static void addFromNearest(WireContext ctx, List<Endpoint> run, Map<String, List<TopologyNode>> gpus, int k,
            NcclIbHca ibHca, List<Endpoint> out) {
        Host h = ctx.host(run.get(0).host());
        TopologyNode nic = channelNic(ctx, h, gpus.get(h.name()), k, ibHca);
        int best = 0;
        for (int m = 1; m < run.size(); m++) {
            if (h.relation(ctx.gpu(run.get(m)), nic).compareTo(h.relation(ctx.gpu(run.get(best)), nic)) < 0) {
                best = m;
            }
        }
        for (int m = 0; m < run.size(); m++) {
            out.add(run.get((m + best) % run.size()));
        }
    }
}
