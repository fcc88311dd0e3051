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
     * ordering ({@code UCX_IB_PCI_RELAXED_ORDERING} and the CPU); and on {@code atFirstUse}, HCAs a
     * lane registers the buffer on when it first uses it.
     */
    record ByUcxConfig(EffectiveConfig config, List<String> atFirstUse) implements RegistrationSites {
        public ByUcxConfig {
            if (config == null) {
                throw new IllegalArgumentException("a UCX configuration is required");
            }
            atFirstUse = List.copyOf(atFirstUse);
        }

        /** {@code ucp_mem_map}'s registration only. */
        public ByUcxConfig(EffectiveConfig config) {
            this(config, List.of());
        }

        /**
         * The same, and on {@code nics} too: HCAs a lane uses though {@code ucp_mem_map} left them out, on which
         * UCX registers the buffer when that lane first uses it ({@code ucp_datatype_iter_mem_reg_single}).
         */
        public ByUcxConfig withFirstUse(java.util.Collection<String> nics) {
            return new ByUcxConfig(config, nics.stream().sorted().toList());
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
