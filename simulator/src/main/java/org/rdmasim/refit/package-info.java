/**
 * Refit with resharding: an RL trainer hands fresh weights to inference engines after a training step.
 *
 * <ul>
 *   <li>{@link org.rdmasim.refit.model}: the model inventory, one {@link org.rdmasim.refit.model.Tensor}
 *       per HuggingFace tensor, read from a {@code config.json} or an explicit tensor list;</li>
 *   <li>{@link org.rdmasim.refit.layout}: trainer and inference layouts placed on GPUs, and the slice map
 *       (which byte runs of which tensor each inference rank needs from which trainer rank), summed into
 *       {@link org.rdmasim.refit.layout.SliceRoute}s;</li>
 *   <li>{@link org.rdmasim.refit.method}: the transfer methods real systems use (receiver-driven RDMA
 *       pull, NCCL broadcast per bucket, a static RDMA WRITE schedule, a checkpoint engine through host
 *       memory) and the stages of a refit around the wire.</li>
 * </ul>
 *
 * <p>The package sits beside {@code importers} in the layering: it uses {@code workload} and below and is
 * read by {@code scenario}.
 */
package org.rdmasim.refit;
