/**
 * How bytes are moved: RDMA READ and WRITE between GPU (or host) buffers over lanes ((device, path)
 * pairs: one QP each), with the protocol costs UCX pays. {@link org.rdmasim.transport.GpuDirectDecision}
 * is the one place GPUDirect-or-staging is decided. A {@link org.rdmasim.transport.TransferEngine}
 * turns a transfer into one fluid flow per lane over the physical resources of its path
 * ({@link org.rdmasim.transport.LanePhysics}), with the per-QP caps a mechanism or a calibrated
 * measurement supports; a lane whose port goes down stalls and its QP retries and fails as
 * {@link org.rdmasim.transport.QpRetry} says. Lanes are chosen by UCX's rules ({@code ucx}) or by NIXL's
 * libfabric backend over EFA ({@code libfabric}); which of them carries a variant, and where it
 * registers memory, is one {@code backend.TransferBackend}.
 */
package org.rdmasim.transport;
