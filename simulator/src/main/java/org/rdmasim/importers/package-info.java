/**
 * Readers for descriptions users already have: NCCL topology XML ({@code nccl}), the text of
 * {@code nvidia-smi topo -m} ({@code smi}) and environment blocks ({@code env}). Each turns a file into
 * the simulator's values ({@link org.rdmasim.hardware.HostSpec}, env entries) or fails with an
 * {@link org.rdmasim.importers.ImportException} naming the file and line. What a reader assumes or
 * cannot honour is an {@link org.rdmasim.importers.ImportWarning} with its line, collected on the
 * {@link org.rdmasim.importers.ImportResult} that the commands print.
 * {@link org.rdmasim.importers.host.HostFileReader} picks the host reader from the file's format;
 * {@link org.rdmasim.importers.HostFiles} reads a file's text within the input limits for every reader;
 * {@link org.rdmasim.importers.DotWriter} draws a host's tree for Graphviz.
 */
package org.rdmasim.importers;
