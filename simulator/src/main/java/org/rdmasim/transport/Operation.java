package org.rdmasim.transport;

/** One-sided RDMA operations. READ is a pull (the receiver initiates), WRITE a push. */
public enum Operation {
    READ, WRITE
}
