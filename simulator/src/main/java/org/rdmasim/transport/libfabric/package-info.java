/**
 * NIXL's libfabric backend (ai-dynamo/nixl {@code src/plugins/libfabric}, {@code src/utils/libfabric}),
 * the transport for AWS EFA: which EFA devices ("rails") each GPU's memory is registered on, chosen
 * from the PCIe topology as NIXL and aws-ofi-nccl do, and how a transfer is striped across them or
 * dealt to them descriptor by descriptor. Its decisions are printed in the plugin's own terms.
 */
package org.rdmasim.transport.libfabric;
