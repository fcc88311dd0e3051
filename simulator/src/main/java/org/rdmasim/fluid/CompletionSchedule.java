package org.rdmasim.fluid;

import java.util.function.Consumer;
import org.rdmasim.engine.SimulationClock;

/**
 * Puts each flow's completion event (and each {@link FlowGroup}'s one event) on the clock at the
 * flow's current rate, and moves it when the rate changes. What happens when one is due is the
 * network's ({@link CompletionEvents#fire} and {@link CompletionEvents#fireGroup}), handed in as
 * {@code due} and {@code groupDue}.
 */
final class CompletionSchedule {
    private final SimulationClock clock;
    private final Consumer<Flow> due;
    private final Consumer<FlowGroup> groupDue;

    CompletionSchedule(SimulationClock clock, Consumer<Flow> due, Consumer<FlowGroup> groupDue) {
        this.clock = clock;
        this.due = due;
        this.groupDue = groupDue;
    }

    /** Puts {@code f}'s completion at its current rate (cancels it when the flow stands still). */
    void schedule(Flow f, double now) {
        if (f.rate <= 0) {
            if (f.completion != null) {
                f.completion.cancel();
            }
            return;
        }
        double delay = f.remaining / f.rate;
        if (f.completion == null) {
            f.completion = clock.schedule(delay, new FlowCompletion(due, f));
        } else {
            f.completion.moveTo(delay);
        }
    }

    /**
     * Puts a completion for {@code f}, which has none, {@code delaySeconds} from now at the place
     * {@code reservedSequence} took in the order of one instant ({@link SimulationClock#reserveSequence}).
     */
    void scheduleReserved(Flow f, double delaySeconds, long reservedSequence) {
        f.completion = clock.scheduleReserved(delaySeconds, new FlowCompletion(due, f), reservedSequence);
    }

    /** Puts the group's one event at its smallest tag's finish (cancels it when none is due). */
    void scheduleGroup(FlowGroup g, double now) {
        Flow p = g.pseudo;
        double delay = g.nextDelay(now);
        if (Double.isInfinite(delay)) {
            if (p.completion != null) {
                p.completion.cancel();
            }
            return;
        }
        if (p.completion == null) {
            p.completion = clock.schedule(delay, new GroupCompletion(groupDue, g));
        } else {
            p.completion.moveTo(delay);
        }
    }
}
