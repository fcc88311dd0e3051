/**
 * Holding the model against published figures: {@link org.rdmasim.validation.ValidationCatalog} lists
 * one row per figure (the seeds' S1-S12 and published measurements, FACTS.md sections 1 and 6), each
 * with its source, the setup as published and a way to compute the modelled value;
 * {@link org.rdmasim.validation.Validation} runs them and {@link org.rdmasim.validation.ValidationReport}
 * writes validation.json and a page with the published-vs-modelled scatter. Entry point:
 * {@code rdmasim validate}.
 */
package org.rdmasim.validation;
