package org.rdmasim.refit.method;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.TopologyNode;
import org.rdmasim.transport.Endpoint;

/** What the two broadcast methods share: the chain order through the receivers and the NIC NCCL picks. */
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
        Map<String, List<Integer>> byHost = new LinkedHashMap<>();
        for (int i : ctx.inferenceRanks()) {
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

    /**
     * The NIC NCCL uses for a GPU: the nearest by PCI path ({@code ncclTopoGetLocal} keeps the NICs with the
     * best path type and bandwidth from the GPU, NVIDIA/nccl {@code src/graph/topo.cc}), among those
     * {@code NCCL_IB_HCA} lists when it lists any.
     */
    static TopologyNode nic(Host h, TopologyNode gpu, List<String> ibHca) {
        for (TopologyNode n : h.nicsByDistance(gpu)) {
            if (ibHca.isEmpty() || ibHca.contains(n.name())) {
                return n;
            }
        }
        throw new IllegalArgumentException("host " + h.name() + " has none of the NICs NCCL_IB_HCA lists " + ibHca);
    }

    /** Bytes of a bucket of {@code size} that inference rank {@code rank} keeps: its share of the payload. */
    static long share(WireContext ctx, int rank, long size, long payload) {
        return Math.round((double) size * Math.min(ctx.bytesTo(rank), payload) / payload);
    }

    /** The install of one bucket: every receiver copies its share into its weights at once; the slowest decides. */
    static void install(WireContext ctx, List<Integer> receivers, long size, long payload, Runnable then) {
        double worst = 0;
        Endpoint slowest = null;
        for (int r : receivers) {
            double s = ctx.copySeconds(ctx.inference(r), share(ctx, r, size, payload));
            if (slowest == null || s > worst) {
                worst = s;
                slowest = ctx.inference(r);
            }
        }
        ctx.gpuWork(RefitStage.INSTALL, slowest, worst, then);
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
}
