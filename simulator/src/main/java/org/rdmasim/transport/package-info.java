/**
 * How bytes are moved: RDMA READ and WRITE between GPU (or host) buffers over lanes (NIC pairs),
 * with the protocol costs UCX pays and the choice of GPUDirect or host staging per side. A
 * {@link org.rdmasim.transport.TransferEngine} turns a transfer into one fluid flow per lane over the
 * physical resources of its path.
 */
package org.rdmasim.transport;
