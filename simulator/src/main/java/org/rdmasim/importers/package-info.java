/**
 * Readers for descriptions users already have: NCCL topology XML ({@code nccl}), the text of
 * {@code nvidia-smi topo -m} ({@code smi}) and environment blocks ({@code env}). Each turns a file into
 * the simulator's values ({@link org.rdmasim.hardware.HostSpec}, env entries) or fails with an
 * {@link org.rdmasim.importers.ImportException} naming the file and line. {@link
 * org.rdmasim.importers.HostFiles} picks the host reader from the file; {@link
 * org.rdmasim.importers.DotWriter} draws a host's tree for Graphviz.
 */
package org.rdmasim.importers;
