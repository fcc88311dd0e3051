/**
 * Output: {@code summary.json} ({@link org.rdmasim.report.SummaryJson}; the golden files under
 * {@code reports/} pin its fields), CSV tables, JFreeChart charts as PNG and SVG, and an
 * {@code index.html} rendered from a Mustache template ({@link org.rdmasim.report.PageTemplate},
 * {@code templates/*.mustache}) that opens with a computed verdict ({@code Verdict}) and says what limited each
 * transfer in plain words (each {@link org.rdmasim.hardware.Bottleneck} knows its words, its stable id
 * for the tables and the calibration profile it rests on). Everything written here is a pure function
 * of the results, so the same run always writes the same bytes.
 */
package org.rdmasim.report;
