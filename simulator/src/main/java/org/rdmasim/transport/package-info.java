/**
 * How bytes are moved: RDMA READ and WRITE between GPU (or host) buffers over lanes ((device, path)
 * pairs: one QP each), with the protocol costs UCX pays. {@link org.rdmasim.transport.GpuDirectDecision}
 * is the one place GPUDirect-or-staging is decided. A {@link org.rdmasim.transport.TransferEngine}
 * turns a transfer into one fluid flow per lane over the physical resources of its path, with the
 * per-QP caps a mechanism or a calibrated measurement supports.
 */
package org.rdmasim.transport;
