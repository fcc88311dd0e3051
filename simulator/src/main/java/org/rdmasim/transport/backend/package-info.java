/**
 * The NIXL backend plugin that carries a variant's transfers, behind one interface
 * ({@link org.rdmasim.transport.backend.TransferBackend}): where a buffer is registered, which lanes a
 * transfer takes and how its bytes split, what a fault does, and what {@code explain} says. The
 * scenario names the backend once ({@code transport.backend}); everything else asks the interface.
 * The implementations are NIXL's UCX plugin ({@link org.rdmasim.transport.backend.UcxBackend}, lanes by
 * {@code transport.ucx}) and its libfabric plugin ({@link org.rdmasim.transport.backend.LibfabricBackend},
 * rails by {@code transport.libfabric}). The package sits beside {@code ucx} and {@code libfabric}
 * rather than in {@code transport} itself because a sealed interface outside a named module must live
 * in its implementations' package, and {@code ucx} and {@code libfabric} already depend on
 * {@code transport}.
 */
package org.rdmasim.transport.backend;
