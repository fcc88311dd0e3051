/**
 * The command line (picocli, {@link org.rdmasim.cli.Main}): {@code run}, {@code size}, {@code explain},
 * {@code validate}, {@code compare}, {@code topo}, {@code demo}, {@code bench} and {@code memory}
 * ({@code register}, {@code mtt}, {@code va}). The only package that prints; exit codes are 0 success,
 * 1 a variant failed in simulation (for {@code validate}: a counted row failed), 2 bad input.
 */
package org.rdmasim.cli;
