package org.rdmasim.refit.layout;

/**
 * What one inference rank needs of a tensor: a box, {@code copies} times (more than once only when EPLB
 * redundant experts put two physical copies of one logical expert on the same rank).
 */
record Need(int rank, Box box, int copies) {
}
