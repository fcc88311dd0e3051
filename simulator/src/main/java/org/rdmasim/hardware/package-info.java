/**
 * The machines: hosts with CPU sockets (NUMA nodes), host bridges, PCIe switches, GPUs and ConnectX
 * NICs joined by full-duplex links, and the fabric between hosts. Described by value records
 * ({@link org.rdmasim.hardware.HostSpec}), built by {@link org.rdmasim.hardware.Cluster} into
 * {@link org.rdmasim.fluid.Resource}s, one per link direction. Also classifies GPU/NIC relations the
 * way {@code nvidia-smi topo -m} prints them, and holds the documented presets and the calibration
 * profiles ({@link org.rdmasim.hardware.CalibrationProfile}: every number not derived from a
 * mechanism, marked calibrated or assumed, with its source). What held a transfer back is a
 * {@link org.rdmasim.hardware.Bottleneck}, one record per kind (a resource here or a lane cap of the
 * transport), with its stable id, its plain words and the profile parameter it rests on
 * ({@link org.rdmasim.hardware.ProfileParameter}).
 */
package org.rdmasim.hardware;
