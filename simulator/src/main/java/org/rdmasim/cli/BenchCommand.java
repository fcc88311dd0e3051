package org.rdmasim.cli;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.PriorityQueue;
import java.util.concurrent.Callable;
import org.rdmasim.engine.RandomStreams;
import org.rdmasim.engine.SimulationClock;
import org.rdmasim.fluid.FluidNetwork;
import org.rdmasim.fluid.Resource;
import org.rdmasim.fluid.ResourceKind;
import umontreal.ssj.rng.RandomStream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code rdmasim bench}: speed of the event engine against a bare PriorityQueue loop on the same
 * events (the classic hold model), and of the whole fluid model on a synthetic run of many flows.
 */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = {"Measure the speed of the event engine and the fluid model.", "",
                "Measure the engine (events/s, against a bare java.util.PriorityQueue loop on the same",
                "events) and the fluid model (a synthetic run of --flows flows between --hosts hosts)."})
public final class BenchCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--flows", defaultValue = "100000", description = "flows in the fluid run (default ${DEFAULT-VALUE})")
    int flows;

    @Option(names = "--hosts", defaultValue = "512", description = "hosts in the fluid run (default ${DEFAULT-VALUE})")
    int hosts;

    @Option(names = "--pending", defaultValue = "100000",
            description = "events pending at once in the hold model (default ${DEFAULT-VALUE})")
    int pending;

    @Option(names = "--events", defaultValue = "2000000", description = "events fired in the hold model (default ${DEFAULT-VALUE})")
    int events;

    @Option(names = "--repeats", defaultValue = "3", description = "timed repetitions, best kept (default ${DEFAULT-VALUE})")
    int repeats;

    @Option(names = "--seed", defaultValue = "1", description = "random seed (default ${DEFAULT-VALUE})")
    long seed;

    /** Who talks to whom in the fluid run. */
    enum Pattern { pairs, random }

    @Option(names = "--pattern", defaultValue = "pairs",
            description = {"fluid run traffic: 'pairs' (host i sends to host i+1: contention stays local, like",
                    "rail-aligned lanes) or 'random' (any host to any host: one coupled network, the worst case",
                    "for incremental max-min) (default ${DEFAULT-VALUE})"})
    Pattern pattern;

    @Override
    public Integer call() {
        if (flows < 1 || hosts < 2 || pending < 1 || events < pending || repeats < 1) {
            throw new BadInputException("bench needs --flows >= 1, --hosts >= 2, --pending >= 1, --events >= --pending, --repeats >= 1");
        }
        PrintWriter out = spec.commandLine().getOut();
        double[] delays = new double[events + pending];
        RandomStream rng = new RandomStreams(seed, 0).stream("bench-hold");
        for (int i = 0; i < delays.length; i++) {
            delays[i] = -Math.log(1 - rng.nextDouble());
        }
        out.printf(Locale.ROOT, "hold model: %,d pending events, %,d fired, same delays for both loops%n", pending, events);
        double bestEngine = Double.MAX_VALUE;
        double bestQueue = Double.MAX_VALUE;
        for (int r = 0; r <= repeats; r++) {
            double e = holdEngine(delays);
            double q = holdQueue(delays);
            if (r > 0) { // the first round warms the JIT up
                bestEngine = Math.min(bestEngine, e);
                bestQueue = Math.min(bestQueue, q);
            }
        }
        out.printf(Locale.ROOT, "  %-40s %10.3f s %14.0f events/s%n", "rdmasim engine (SSJ Henriksen)", bestEngine, events / bestEngine);
        out.printf(Locale.ROOT, "  %-40s %10.3f s %14.0f events/s%n", "bare java.util.PriorityQueue loop", bestQueue, events / bestQueue);
        out.printf(Locale.ROOT, "  engine / PriorityQueue time ratio: %.2f (target <= 2.0)%n", bestEngine / bestQueue);
        out.flush();

        out.printf(Locale.ROOT, "fluid model: %,d flows between %d hosts, pattern %s (Poisson arrivals, NIC tx/rx per host)%n",
                flows, hosts, pattern);
        FluidRun best = null;
        for (int r = 0; r < Math.max(1, repeats - 1) + 1; r++) {
            FluidRun f = fluid();
            if (r > 0 && (best == null || f.seconds < best.seconds)) {
                best = f;
            }
        }
        out.printf(Locale.ROOT, "  wall %.3f s, %,d events, %.0f events/s, %,d component solves covering %,d flows "
                + "(%.1f flows per solve)%n", best.seconds, best.events, best.events / best.seconds, best.solves,
                best.flowsSolved, (double) best.flowsSolved / Math.max(1, best.solves));
        out.printf(Locale.ROOT, "  simulated %.3f s; heap used after run %.0f MB%n", best.simulated, best.heapMb);
        out.flush();
        return Main.OK;
    }

    private double holdEngine(double[] delays) {
        SimulationClock clock = new SimulationClock();
        int[] next = {pending};
        long[] fired = {0};
        Runnable[] action = new Runnable[1];
        action[0] = () -> {
            if (++fired[0] + pending <= events) {
                clock.schedule(delays[next[0]++], action[0]);
            }
        };
        long t0 = System.nanoTime();
        for (int i = 0; i < pending; i++) {
            clock.schedule(delays[i], action[0]);
        }
        clock.run();
        return (System.nanoTime() - t0) / 1e9;
    }

    private record Pending(double time, long seq) implements Comparable<Pending> {
        @Override
        public int compareTo(Pending o) {
            int c = Double.compare(time, o.time);
            return c != 0 ? c : Long.compare(seq, o.seq);
        }
    }

    private double holdQueue(double[] delays) {
        long t0 = System.nanoTime();
        PriorityQueue<Pending> q = new PriorityQueue<>();
        long seq = 0;
        for (int i = 0; i < pending; i++) {
            q.add(new Pending(delays[i], seq++));
        }
        int next = pending;
        long fired = 0;
        while (!q.isEmpty()) {
            Pending p = q.poll();
            if (++fired + pending <= events) {
                q.add(new Pending(p.time() + delays[next++], seq++));
            }
        }
        return (System.nanoTime() - t0) / 1e9;
    }

    private record FluidRun(double seconds, long events, long solves, long flowsSolved, double simulated, double heapMb) {
    }

    private FluidRun fluid() {
        System.gc();
        RandomStream rng = new RandomStreams(seed, 0).stream("bench-fluid");
        SimulationClock clock = new SimulationClock();
        FluidNetwork net = new FluidNetwork(clock);
        Resource[] tx = new Resource[hosts];
        Resource[] rx = new Resource[hosts];
        double nic = 400e9 / 8 * 0.989;
        for (int h = 0; h < hosts; h++) {
            tx[h] = net.addResource("h" + h + " tx", ResourceKind.NIC_TX, nic);
            rx[h] = net.addResource("h" + h + " rx", ResourceKind.NIC_RX, nic);
        }
        // Offered load ~60% of the NICs: mean flow 64 MB, arrivals spread so each host sees ~0.6 load.
        double meanBytes = 64e6;
        double rate = 0.6 * hosts * nic / meanBytes;
        double t = 0;
        long t0 = System.nanoTime();
        for (int i = 0; i < flows; i++) {
            t += -Math.log(1 - rng.nextDouble()) / rate;
            int a = rng.nextInt(0, hosts - 1);
            int b;
            if (pattern == Pattern.pairs) {
                b = (a + 1) % hosts;
            } else {
                b = rng.nextInt(0, hosts - 2);
                if (b >= a) {
                    b++;
                }
            }
            long bytes = (long) (-Math.log(1 - rng.nextDouble()) * meanBytes) + 1;
            List<Resource> path = List.of(tx[a], rx[b]);
            clock.scheduleAt(t, () -> net.start("f", path, 1.0, Double.POSITIVE_INFINITY, bytes, f -> { }));
        }
        clock.run();
        double secs = (System.nanoTime() - t0) / 1e9;
        Runtime rt = Runtime.getRuntime();
        double heap = (rt.totalMemory() - rt.freeMemory()) / 1e6;
        return new FluidRun(secs, clock.eventsFired(), net.solves(), net.flowsSolved(), clock.now(), heap);
    }
}
