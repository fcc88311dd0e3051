/**
 * Sizing ({@code rdmasim size}): the smallest setting of one knob (sources, NICs, rails, tree degree of a
 * fan-out; senders, NICs, bucket, inference TP of a refit) that meets a p99 pull-time or refit-cycle target.
 * The knobs and how each is applied to a variant ({@link org.rdmasim.sizing.FanoutSizing},
 * {@link org.rdmasim.sizing.RefitSizing}), the order values are tried in ({@link org.rdmasim.sizing.SizingSearch}),
 * the two targets with their tables, CSV, JSON and charts, and the search run to its end or to Ctrl-C
 * ({@link org.rdmasim.sizing.SizingSweep}). Sits above {@code run}, whose variants it runs, and below {@code cli},
 * which parses the options and prints what the search hands it: nothing here prints.
 */
package org.rdmasim.sizing;
