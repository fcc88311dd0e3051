/**
 * Holding the model against published figures: {@link org.rdmasim.validation.ValidationCatalog} lists
 * one row per figure (the figures of the five public documents the project answers, such as
 * ai-dynamo/modelexpress #449, and published measurements), each with its source and that source's
 * id in {@code simulator/SOURCES.md}, the setup as published and a way to compute the modelled value;
 * {@link org.rdmasim.validation.Validation} runs them and {@link org.rdmasim.validation.ValidationReport}
 * writes validation.json and a page with modelled / published charted per row. Entry point:
 * {@code rdmasim validate}.
 */
package org.rdmasim.validation;
