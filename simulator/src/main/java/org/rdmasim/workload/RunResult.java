package org.rdmasim.workload;

import java.util.List;
import org.rdmasim.transport.TransferResult;

/**
 * What one run of one variant produced.
 *
 * @param nicSeries per NIC, what it transmitted over time, as steps (only NICs that sent anything)
 * @param events    simulation events fired
 * @param fanout    receivers, sources and refit cycles of a fan-out plan; null for a list of transfers
 * @param faultLog  the scheduled faults and the stack's reactions, in time order (empty without faults)
 * @param refit     stages, bytes and bounds of a refit workload; null for any other
 */
public record RunResult(List<TransferResult> transfers, List<NicTraffic> nics, List<ResourceUsage> resources,
        List<LoadSeries> nicSeries, long events, long flows, FanoutResult fanout, List<FaultRecord> faultLog,
        RefitSummary refit) {
    public RunResult {
        transfers = List.copyOf(transfers);
        nics = List.copyOf(nics);
        resources = List.copyOf(resources);
        nicSeries = List.copyOf(nicSeries);
        faultLog = List.copyOf(faultLog);
    }

    public RunResult(List<TransferResult> transfers, List<NicTraffic> nics, List<ResourceUsage> resources,
            List<LoadSeries> nicSeries, long events, long flows, FanoutResult fanout, List<FaultRecord> faultLog) {
        this(transfers, nics, resources, nicSeries, events, flows, fanout, faultLog, null);
    }

    public RunResult(List<TransferResult> transfers, List<NicTraffic> nics, List<ResourceUsage> resources,
            List<LoadSeries> nicSeries, long events, long flows, FanoutResult fanout) {
        this(transfers, nics, resources, nicSeries, events, flows, fanout, List.of());
    }

    /**
     * What happened when, for the fault timeline: a scheduled fault starting or ending ({@code fault}
     * true), or the stack's reaction to one (a transfer failing, a receiver trying another source).
     */
    public record FaultRecord(double atSeconds, String what, boolean fault) {
    }

    public RunResult(List<TransferResult> transfers, List<NicTraffic> nics, List<ResourceUsage> resources,
            List<LoadSeries> nicSeries, long events, long flows) {
        this(transfers, nics, resources, nicSeries, events, flows, null);
    }

    /** Bytes a NIC sent and received. */
    public record NicTraffic(String host, String name, long txBytes, long rxBytes) {
    }

    /**
     * Use of one resource over the run: capacity, bytes carried, the highest load seen and the mean
     * load over the run's makespan, as fractions of capacity. The resource is kept as its limit and
     * named when a table asks: a 128k-receiver run has ~900k of them, and their names held at once were
     * ~60 MB at the end of the run.
     */
    public record ResourceUsage(org.rdmasim.fluid.Limit limit, String kind, double capacityBytesPerSecond,
            double bytesCarried, double peakUtilisation, double meanUtilisation) {
        /** The resource's name, as resources.csv writes it. */
        public String name() {
            return limit.id();
        }
    }

    /**
     * Load steps of one NIC (or, with {@code nic} null, of a whole host): at {@code timeSeconds[i]} the
     * load became {@code gbps[i]}.
     */
    public record LoadSeries(String host, String nic, double[] timeSeconds, double[] gbps) {
        /** {@code host:nic}, or the host for a host's series, as tables and charts name it. */
        public String label() {
            return nic == null ? host : host + ":" + nic;
        }
    }
}
