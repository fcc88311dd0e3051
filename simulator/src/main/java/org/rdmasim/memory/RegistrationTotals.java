package org.rdmasim.memory;

import java.util.Collection;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Totals over registrations, in the shape {@code summary.json}'s "registration" object reports: sums,
 * and the wall time the registrations take when their processes register side by side.
 *
 * <p>Who waits for whom: each GPU's buffers are registered by that GPU's own process, one after another
 * (one agent per GPU worker: ModelExpress creates a {@code NixlTransferManager}, and in it one
 * {@code NixlAgent}, per vLLM worker and its GPU, ai-dynamo/modelexpress v0.5.1
 * modelexpress_client/python/modelexpress/nixl_transfer.py L82-95 and L200, and registers through it,
 * L316-324; {@code nixlAgent::registerMem} holds the agent's own lock for the whole call, ai-dynamo/nixl
 * v1.4.0 src/core/nixl_agent.cpp L481-490, so one agent's registrations do not overlap, and agents in
 * other processes do not take that lock). So the processes of one host register side by side and the host
 * is done when its slowest process is; hosts register side by side too, and the run waits for the slowest.
 * Within one buffer, its HCAs are registered one after another ({@link RegistrationPlan}). A process is a
 * GPU's, for the GPU's memory and the host bounce fragments its backend registers for it, or a CPU socket's,
 * for a host buffer of its own ({@link RegistrationPlan#process()}). This is the one place the rule is
 * reasoned; {@link #RULE} says it to users.
 *
 * @param mrCount          memory regions
 * @param translationBytes translation entry bytes
 * @param firmwareBytes    host memory pinned by HCA firmware (translation + mkey contexts)
 * @param pinnedHostBytes  firmware bytes plus host buffers' own pinned pages
 * @param summedSeconds    every registration's time added up, over every HCA, process and host: the
 *                         registration work done, not a wait
 * @param wallSeconds      the wait: the slowest process's registrations (its buffers one after another,
 *                         each on its HCAs one after another), processes and hosts side by side
 */
public record RegistrationTotals(long mrCount, long translationBytes, long firmwareBytes, long pinnedHostBytes,
        double summedSeconds, double wallSeconds) {

    /**
     * The rule above in one clause, as users read it: the answer's ranking rule and the key-numbers note of a
     * report, and the memory command's legend, say it from here (README and summary.schema.json say the same
     * in their own text, which SummarySchemaTest holds to this).
     */
    public static final String RULE = "each worker process registers the buffers it moves, GPU or host memory "
            + "(one process per GPU, and one per CPU socket for host memory of its own), one buffer and one NIC after "
            + "another, while the host's other processes and the other hosts register side by side, so a pull waits "
            + "for the slowest process's registration (the wall, not the sum over processes)";

    public static final RegistrationTotals ZERO = new RegistrationTotals(0, 0, 0, 0, 0.0, 0.0);

    /** With registrations made side by side (another process, another host): sums, and the slower wall. */
    public RegistrationTotals plus(RegistrationTotals other) {
        return new RegistrationTotals(mrCount + other.mrCount, translationBytes + other.translationBytes,
                firmwareBytes + other.firmwareBytes, pinnedHostBytes + other.pinnedHostBytes,
                summedSeconds + other.summedSeconds, Math.max(wallSeconds, other.wallSeconds));
    }

    /** {@code count} identical hosts registering side by side: sums times {@code count}, the same wall. */
    public RegistrationTotals times(long count) {
        return new RegistrationTotals(mrCount * count, translationBytes * count, firmwareBytes * count,
                pinnedHostBytes * count, summedSeconds * count, count > 0 ? wallSeconds : 0.0);
    }

    /**
     * One host's registrations: sums over all, and as wall the slowest process's, each process's plans
     * one after another ({@link RegistrationPlan#process()}).
     */
    public static RegistrationTotals of(Collection<RegistrationPlan> plans) {
        return of(plans, RegistrationPlan::totals);
    }

    /**
     * As {@link #of(Collection)}, over the part of each plan {@code part} gives ({@link
     * RegistrationPlan#totalsByMemMap()} or {@link RegistrationPlan#totalsAtFirstUse()}).
     */
    public static RegistrationTotals of(Collection<RegistrationPlan> plans, Function<RegistrationPlan, RegistrationTotals> part) {
        RegistrationTotals sum = ZERO;
        // processes by name, so the wall does not depend on hash order
        Map<String, Double> perProcess = new TreeMap<>();
        for (RegistrationPlan plan : plans) {
            RegistrationTotals mine = part.apply(plan);
            sum = sum.plus(mine);
            perProcess.merge(plan.process(), mine.summedSeconds(), Double::sum);
        }
        double wall = perProcess.values().stream().mapToDouble(Double::doubleValue).max().orElse(0.0);
        return new RegistrationTotals(sum.mrCount, sum.translationBytes, sum.firmwareBytes, sum.pinnedHostBytes,
                sum.summedSeconds, wall);
    }
}
