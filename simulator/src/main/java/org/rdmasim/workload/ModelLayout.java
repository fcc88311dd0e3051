package org.rdmasim.workload;

/**
 * How the model sits on a source host's GPUs.
 *
 * <ul>
 *   <li>{@code WHOLE}: every listed GPU holds the whole model; each receiver GPU pulls all of it;</li>
 *   <li>{@code SHARDED}: the model is split evenly over the receiver's GPUs (tensor-parallel shards);
 *       receiver GPU k pulls shard k from source GPU k.</li>
 * </ul>
 */
public enum ModelLayout { WHOLE, SHARDED }
