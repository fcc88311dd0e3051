package org.rdmasim.fluid;

import java.util.List;
import java.util.function.Supplier;

/**
 * A flow to start, as {@link FluidNetwork#start(List)} takes several at one instant (the lanes of one
 * transfer whose first fragments leave together): its bytes use {@code usage.get(i)} bytes of
 * {@code path.get(i)} each ({@code usage} null means 1 everywhere), {@code rateCap} is
 * {@code +Infinity} for none. {@code label} names the flow when something asks (a message, a log of
 * the run): a lane's name is made from its transfer and lane only then, not at every lane start, where
 * it was ~5% of a large fan-out's allocation and ~70 bytes kept per running lane.
 */
public record FlowStart(Supplier<String> label, List<Resource> path, List<Double> usage, double weight, double rateCap,
        long bytes, FlowListener listener) {
}
