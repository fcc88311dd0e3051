/**
 * Memory registration and address-space model.
 *
 * <p>What lives here:
 * <ul>
 *   <li>Registration: which HCAs a buffer is registered on ({@code UCX_MAX_HCA_PER_GPU}), how many
 *       memory regions (MRs) each HCA gets ({@code UCX_IB_PCI_RELAXED_ORDERING} and the CPU), the
 *       translation bytes and firmware (ICM) host memory those MRs pin, and how long registering
 *       takes: {@link org.rdmasim.memory.RegistrationModel} producing
 *       {@link org.rdmasim.memory.RegistrationPlan}s.</li>
 *   <li>Limits: per-VF or per-VM firmware page caps, host memory, GPU BAR1, the HCA's MTT limit,
 *       checked over a set of plans in registration order; a failure carries the lines the real
 *       stack prints: {@link org.rdmasim.memory.RegistrationCheck},
 *       {@link org.rdmasim.memory.RegistrationVerdict}.</li>
 *   <li>MTT sizing for mlx4-era HCAs: {@link org.rdmasim.memory.MttSizing}.</li>
 *   <li>Virtual address space reserved by CUDA memory pools (NCCL shadow pools):
 *       {@link org.rdmasim.memory.CudaPoolAddressSpace}.</li>
 *   <li>The adapter from the rest of the model: {@link org.rdmasim.memory.HostRegistration} turns a
 *       built {@code hardware.Host} and a resolved {@code transport.config.EffectiveConfig} into HCA
 *       candidates (UCX_NET_DEVICES, UCX's distances from
 *       {@link org.rdmasim.transport.ucx.UcxTopoDistance}) and UCX settings;
 *       {@link org.rdmasim.memory.VariantRegistration#register} is the one call a variant makes to
 *       register its buffers and get totals and a verdict.</li>
 * </ul>
 *
 * <p>The model itself works on small records defined here ({@link org.rdmasim.memory.MemoryRegion},
 * {@link org.rdmasim.memory.HcaCandidate}, {@link org.rdmasim.memory.UcxRegistrationConfig}) and
 * uses the hardware package's CPU family and host, the transport configuration's memory types and
 * settings ({@code MemoryType}, {@code Ternary}, {@code HcaPerGpuLimit}) and UCX's distance records
 * ({@code transport.ucx.HcaDistance}); none of those depends on memory.
 * Sizes are bytes as {@code long}, times are seconds as {@code double}; decimal GB (1e9) and binary
 * GiB (2^30) are kept apart by name. Bad input throws {@link org.rdmasim.memory.MemoryInputException}.
 * Nothing here prints.
 */
package org.rdmasim.memory;
