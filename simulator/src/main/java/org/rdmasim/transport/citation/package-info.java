/**
 * Where a modelled decision comes from in the real stack's code: {@link org.rdmasim.transport.citation.Citation}
 * (repository, tag or commit, file, line or lines, and the function or symbol), the one form every
 * {@code source:} that {@code explain} prints and every citation object of {@code explain --json} take.
 */
package org.rdmasim.transport.citation;
