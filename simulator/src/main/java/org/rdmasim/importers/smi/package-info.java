/**
 * The text of {@code nvidia-smi topo -m}: {@link org.rdmasim.importers.smi.SmiTopologyReader} reads
 * the matrix, its affinity columns and NIC Legend, infers a PCIe tree (sockets, host bridges,
 * switches) that reproduces every cell, and reports the first cell no tree can reproduce.
 */
package org.rdmasim.importers.smi;
