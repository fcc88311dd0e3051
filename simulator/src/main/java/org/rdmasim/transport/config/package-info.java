/**
 * The UCX, NIXL, ModelExpress and NCCL configuration a process actually runs with, worked out the
 * way the real stack works it out. {@link org.rdmasim.transport.config.KnownVariables} lists the
 * variables the simulator models with their defaults and the source file each comes from;
 * {@link org.rdmasim.transport.config.ConfigResolver} replays the order in which UCX's defaults, its
 * installed {@code ucx.conf}, the user's environment, ModelExpress's NIC pin and NIXL's UCX overrides
 * (one release table) are applied and produces an
 * {@link org.rdmasim.transport.config.EffectiveConfig} that remembers which layer set every value;
 * the value types ({@link org.rdmasim.transport.config.MemUnits},
 * {@link org.rdmasim.transport.config.NetDevices}, ...) parse the variables with the same syntax
 * the libraries accept. Nothing here depends on the hardware model: the host's NICs and the
 * GPU-to-NIC distances come in through {@link org.rdmasim.transport.config.NicTopologyView}.
 */
package org.rdmasim.transport.config;
