/**
 * How a refit moves the slice map's bytes, as real systems do it (receiver-driven RDMA pull, NCCL
 * broadcast per bucket, a static RDMA WRITE schedule, a checkpoint engine through host memory), and the
 * stages around the wire (pause, gather, conversion, host copies, install, barrier, resume).
 */
package org.rdmasim.refit.method;
