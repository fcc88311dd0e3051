package org.rdmasim.fluid;

import java.util.List;

/**
 * A flow to start, as {@link FluidNetwork#start(List)} takes several at one instant (the lanes of one
 * transfer whose first fragments leave together): its bytes use {@code usage.get(i)} bytes of
 * {@code path.get(i)} each ({@code usage} null means 1 everywhere), {@code rateCap} is
 * {@code +Infinity} for none.
 */
public record FlowStart(String label, List<Resource> path, List<Double> usage, double weight, double rateCap,
        long bytes, FlowListener listener) {
}
