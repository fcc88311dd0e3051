package org.rdmasim.refit.layout;

/**
 * Where the ranks of a trainer and an inference layout run: rank r of a group sits on host
 * {@code firstHost + r / gpusPerHost}, GPU {@code r % gpusPerHost}, the packing torchrun and vLLM's Ray or
 * multiprocessing launchers produce with one process per GPU. Trainer and inference either use separate
 * hosts (inference hosts numbered after the trainer's) or are colocated (both groups start on host 0 and
 * rank r of each shares a GPU).
 */
public record RankPlacement(int gpusPerHost, int trainerRanks, int inferenceRanks, boolean colocated,
        String hostPrefix) {
    public RankPlacement {
        if (gpusPerHost < 1 || trainerRanks < 1 || inferenceRanks < 1) {
            throw new IllegalArgumentException("GPUs per host and rank counts must be >= 1");
        }
        if (hostPrefix == null || hostPrefix.isBlank()) {
            throw new IllegalArgumentException("a host name prefix is needed");
        }
    }

    /** One GPU of one host. */
    public record Gpu(String host, int hostIndex, int gpu) {
    }

    public static RankPlacement separate(int gpusPerHost, TrainerLayout trainer, InferenceLayout inference) {
        return new RankPlacement(gpusPerHost, trainer.worldSize(), inference.worldSize(), false, "node");
    }

    public static RankPlacement colocated(int gpusPerHost, TrainerLayout trainer, InferenceLayout inference) {
        return new RankPlacement(gpusPerHost, trainer.worldSize(), inference.worldSize(), true, "node");
    }

    public int trainerHosts() {
        return hostsFor(trainerRanks);
    }

    public int inferenceHosts() {
        return hostsFor(inferenceRanks);
    }

    /** Hosts used by both groups together. */
    public int hosts() {
        return colocated ? Math.max(trainerHosts(), inferenceHosts()) : trainerHosts() + inferenceHosts();
    }

    public Gpu trainer(int rank) {
        check(rank, trainerRanks, "trainer");
        return place(0, rank);
    }

    public Gpu inference(int rank) {
        check(rank, inferenceRanks, "inference");
        return place(colocated ? 0 : trainerHosts(), rank);
    }

    /** Whether a trainer rank and an inference rank share a host (their transfer can stay on NVLink/PCIe). */
    public boolean sameHost(int trainerRank, int inferenceRank) {
        return trainer(trainerRank).hostIndex() == inference(inferenceRank).hostIndex();
    }

    private Gpu place(int firstHost, int rank) {
        int host = firstHost + rank / gpusPerHost;
        return new Gpu(hostPrefix + host, host, rank % gpusPerHost);
    }

    private int hostsFor(int ranks) {
        return (ranks + gpusPerHost - 1) / gpusPerHost;
    }

    private static void check(int rank, int ranks, String side) {
        if (rank < 0 || rank >= ranks) {
            throw new IllegalArgumentException(side + " rank " + rank + " outside [0, " + ranks + ")");
        }
    }
}
