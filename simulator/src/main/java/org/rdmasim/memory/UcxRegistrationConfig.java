package org.rdmasim.memory;

import org.rdmasim.hardware.CpuFamily;
import org.rdmasim.transport.config.HcaPerGpuLimit;
import org.rdmasim.transport.config.StackVersion;
import org.rdmasim.transport.config.Ternary;

/**
 * The resolved UCX settings and host facts that decide where and how a buffer is registered.
 * {@link HostRegistration} reads them from a transport {@code EffectiveConfig} and a hardware host.
 *
 * @param maxHcaPerGpu     {@code UCX_MAX_HCA_PER_GPU}
 * @param relaxedOrdering  {@code UCX_IB_PCI_RELAXED_ORDERING}
 * @param cpu              the host CPU, for {@code auto}
 * @param ucx              the UCX release, whose CPU list {@code auto} reads ({@link RelaxedOrderingCpus})
 */
public record UcxRegistrationConfig(HcaPerGpuLimit maxHcaPerGpu, Ternary relaxedOrdering, CpuFamily cpu,
        StackVersion ucx) {

    public UcxRegistrationConfig {
        if (maxHcaPerGpu == null || relaxedOrdering == null || cpu == null || ucx == null) {
            throw new MemoryInputException(
                    "UCX registration config needs MAX_HCA_PER_GPU, PCI_RELAXED_ORDERING, a CPU and a UCX release");
        }
    }

    /** UCX's own defaults in release {@code ucx}: {@code MAX_HCA_PER_GPU=inf}, {@code PCI_RELAXED_ORDERING=auto}. */
    public static UcxRegistrationConfig ucxDefaults(CpuFamily cpu, StackVersion ucx) {
        return new UcxRegistrationConfig(HcaPerGpuLimit.INF, Ternary.AUTO, cpu, ucx);
    }

    public UcxRegistrationConfig withRelaxedOrdering(Ternary value) {
        return new UcxRegistrationConfig(maxHcaPerGpu, value, cpu, ucx);
    }
}
