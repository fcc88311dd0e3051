/**
 * The command line (picocli): {@code run}, {@code explain}, {@code validate}, {@code size},
 * {@code topo}, {@code demo}, {@code bench}, {@code memory} ({@code register}, {@code mtt},
 * {@code va}). The only
 * package that prints; exit codes are 0 success, 1 a variant failed in simulation, 2 bad input.
 */
package org.rdmasim.cli;
