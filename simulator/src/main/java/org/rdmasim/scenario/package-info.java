/**
 * Scenarios: YAML files that compose hosts, fabric, transport configuration and workload, with
 * variants that override any part. Loaded through SnakeYAML's node graph only (no object
 * construction, so no arbitrary types), read against the schema by hand so every error carries the
 * file, line, column and field. One reader per section (hosts, fabric, protocol, transport, registration,
 * transfers or fan-out, faults, claim, sweep). A scenario is a description; the {@code run} package
 * executes it.
 */
package org.rdmasim.scenario;
