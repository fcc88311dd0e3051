/**
 * Output: {@code summary.json} (the contract in DESIGN.md), CSV tables, JFreeChart charts as PNG and
 * SVG, and an {@code index.html} that shows them with the key numbers. Everything written here is
 * a pure function of the results, so the same run always writes the same bytes.
 */
package org.rdmasim.report;
