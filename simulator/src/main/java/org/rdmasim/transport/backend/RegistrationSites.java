package org.rdmasim.transport.backend;

import java.util.List;
import org.rdmasim.transport.config.EffectiveConfig;

/**
 * Where a process registers one buffer, as its backend decides it. The registration model (package
 * {@code memory}) turns this into MRs, translation entries, firmware memory and time; the backend only
 * says where.
 */
public sealed interface RegistrationSites {
    /**
     * {@code ucp_mem_map} under the process's resolved UCX configuration: candidate HCAs from
     * {@code UCX_NET_DEVICES}, kept by {@code UCX_MAX_HCA_PER_GPU}, one MR each or two with relaxed
     * ordering ({@code UCX_IB_PCI_RELAXED_ORDERING} and the CPU).
     */
    record ByUcxConfig(EffectiveConfig config) implements RegistrationSites {
        public ByUcxConfig {
            if (config == null) {
                throw new IllegalArgumentException("a UCX configuration is required");
            }
        }
    }

    /** On no network device: {@code why} says which rule of the stack keeps the buffer off the NICs. */
    record NoNic(String why) implements RegistrationSites {
        public NoNic {
            if (why == null || why.isBlank()) {
                throw new IllegalArgumentException("a reason is required");
            }
        }
    }

    /**
     * Exactly these network devices, {@code mrsPerDevice} MRs on each, in strict PCIe order (no relaxed
     * ordering companion).
     */
    record OnDevices(List<String> devices, int mrsPerDevice) implements RegistrationSites {
        public OnDevices {
            devices = List.copyOf(devices);
            if (mrsPerDevice < 1) {
                throw new IllegalArgumentException("at least one MR per device, got " + mrsPerDevice);
            }
        }
    }
}
