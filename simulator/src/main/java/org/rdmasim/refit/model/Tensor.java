package org.rdmasim.refit.model;

import java.util.List;

/**
 * One weight tensor as a HuggingFace checkpoint names it.
 *
 * @param shape  dimensions, outermost first ({@code [out, in]} for a linear weight)
 * @param layer  decoder layer index, -1 for model-level tensors (embedding, final norm, lm_head); pipeline
 *               stages are assigned by layer
 * @param expert routed expert index, -1 for everything else
 * @param scaleOf for a block-scale tensor, the name of the weight it scales ({@code null} otherwise); a
 *               scale is cut along the same dimensions as its weight, in blocks
 */
public record Tensor(String name, List<Long> shape, DType dtype, TensorRole role, int layer, int expert,
        String scaleOf) {
    public Tensor {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a tensor needs a name");
        }
        shape = List.copyOf(shape);
        if (shape.isEmpty() || shape.stream().anyMatch(d -> d < 1)) {
            throw new IllegalArgumentException(name + ": every dimension must be >= 1, got " + shape);
        }
    }

    public Tensor(String name, List<Long> shape, DType dtype, TensorRole role, int layer, int expert) {
        this(name, shape, dtype, role, layer, expert, null);
    }

    public long elements() {
        long n = 1;
        for (long d : shape) {
            n = Math.multiplyExact(n, d);
        }
        return n;
    }

    public long bytes() {
        return Math.multiplyExact(elements(), dtype.bytesPerElement());
    }
}
