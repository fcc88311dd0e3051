package org.rdmasim.workload;

/**
 * How an arriving receiver picks the source it pulls from.
 *
 * <ul>
 *   <li>{@code ROUND_ROBIN}: sources in turn, in the order they were published;</li>
 *   <li>{@code LEAST_LOADED}: the source with the fewest pulls in progress at the arrival, ties to the
 *       earliest published.</li>
 * </ul>
 */
public enum SourceAssignment { ROUND_ROBIN, LEAST_LOADED }
