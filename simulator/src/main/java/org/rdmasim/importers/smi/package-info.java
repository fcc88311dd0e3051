/**
 * The text of {@code nvidia-smi topo -m}: {@link org.rdmasim.importers.smi.SmiTopologyReader} reads
 * the matrix as nvidia-smi printed it (tabs or blanks, legend variants, NIC Legend or mlx5 columns in
 * any order, CPU / NUMA / GPU NUMA ID columns with empty cells, the older SOC, prompts and terminal
 * escapes around it), infers a PCIe tree (sockets, host bridges, switches) that reproduces every cell,
 * and where the cells do not nest as one tree keeps every GPU-NIC cell and warns naming the cells it
 * could not honour.
 */
package org.rdmasim.importers.smi;
