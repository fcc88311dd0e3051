package org.rdmasim.run;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.Hosts;
import org.rdmasim.scenario.VariantSpec;
import org.rdmasim.transport.GpuDirectDecision;
import org.rdmasim.transport.LanePolicy;
import org.rdmasim.transport.TransferSpec;
import org.rdmasim.transport.ucx.LaneDecision;
import org.rdmasim.transport.ucx.UcxLaneSelection;
import org.rdmasim.workload.TransferItem;
import org.rdmasim.workload.VariantOutcome;

/**
 * UCX's lane decision for the first transfer {@code explain} shows of a variant (a fan-out's first pull, a
 * transfer list's first transfer, a refit's first RDMA transfer of its run), made by the selection the run's
 * backend uses, over the HCAs holding the buffers' registrations: the decision {@code explain} prints lane by
 * lane and {@link ListedNicsLeftOut} words, asked for once more rather than decided again elsewhere.
 */
public final class FirstLaneDecision {
    private FirstLaneDecision() {
    }

    /**
     * The decision, or empty when the scenario gives the lanes, the backend is not UCX's lane selection, or
     * there is no transfer to show (a refit that failed); over {@code held}, the registrations of the run that
     * gave {@code outcome} ({@link VariantRunner.Run}).
     */
    public static Optional<Shown> of(VariantSpec v, VariantOutcome outcome, VariantRunner.Held held) {
        List<TransferItem> items;
        if (v.isRefit()) {
            if (outcome == null || outcome.result() == null) {
                return Optional.empty();
            }
            items = outcome.result().transfers().stream().limit(1).map(t -> new TransferItem(t.spec().id(),
                    t.spec().source(), t.spec().sink(), t.spec().bytes(), 0, t.spec().operation(),
                    t.spec().descriptors())).toList();
        } else {
            items = v.isFanout() ? v.fanoutPlan().firstPull() : v.transfers();
        }
        if (items.isEmpty()) {
            return Optional.empty();
        }
        TransferItem first = items.get(0);
        return of(v, first, held).map(d -> new Shown(first, d));
    }

    /** The transfer shown and UCX's decision for it. */
    public record Shown(TransferItem transfer, LaneDecision decision) {
        /** The process that initiates the transfer (a READ's sink, a WRITE's source), e.g. {@code receiver:GPU0}. */
        public String process() {
            return (transfer.operation() == org.rdmasim.transport.Operation.READ ? transfer.to() : transfer.from())
                    .toString();
        }
    }

    /** UCX's decision for transfer {@code first} of {@code v}, as {@link #of(VariantSpec, VariantOutcome, VariantRunner.Held)}. */
    static Optional<LaneDecision> of(VariantSpec v, TransferItem first, VariantRunner.Held held) {
        if (!v.transport().lanes().isEmpty()) {
            return Optional.empty();
        }
        LanePolicy policy = v.transport().backend().lanes(v.transport().stack(), held.lanes());
        if (!(policy instanceof UcxLaneSelection selection)) {
            return Optional.empty();
        }
        // only the two hosts the transfer joins are built, not every host of a large scenario
        Map<String, Host> built = new HashMap<>();
        Hosts hosts = name -> built.computeIfAbsent(name, n -> new Host(n, v.hosts().get(n)));
        return Optional.of(selection.decide(hosts, spec(v, hosts, first)));
    }

    /** The transfer as the run posts it: GPUDirect where the variant and each end's device allow it. */
    public static TransferSpec spec(VariantSpec v, Hosts hosts, TransferItem t) {
        boolean gpudirect = v.transport().gpudirect();
        boolean rma = v.transport().backend().ucxRma();
        return new TransferSpec(t.id(), t.from(), t.to(), t.bytes(), t.operation(), t.descriptors(),
                GpuDirectDecision.of(hosts.host(t.from().host()), t.from().device(), gpudirect, rma),
                GpuDirectDecision.of(hosts.host(t.to().host()), t.to().device(), gpudirect, rma), false, 0);
    }
}
