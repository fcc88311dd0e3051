/**
 * Scenarios: YAML files that compose hosts, fabric, transport configuration and workload, with
 * variants that override any part. Loaded through SnakeYAML's node graph only (no object
 * construction, so no arbitrary types), read against the schema by hand so every error carries the
 * file, line, column and field. {@link org.rdmasim.scenario.VariantRunner} runs one variant.
 */
package org.rdmasim.scenario;
