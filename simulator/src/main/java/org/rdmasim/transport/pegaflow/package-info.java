/**
 * pegaflow's RDMA transfer engine (novitalabs/pegaflow {@code pegaflow-transfer/src/rc_backend}): which HCA
 * each descriptor of a batch goes out on, by the NUMA node of its local pages, and how many RC QPs join
 * each pair of HCAs.
 */
package org.rdmasim.transport.pegaflow;
