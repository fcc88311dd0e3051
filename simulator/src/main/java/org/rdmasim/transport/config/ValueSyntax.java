package org.rdmasim.transport.config;

import java.util.Optional;

/**
 * How a variable's text is read. UCX rejects a value it cannot parse ({@code ucp_config_read}
 * fails and so does {@code ucp_init}), so UCX syntaxes throw. NCCL and ModelExpress never reject a
 * value: they read what they can and fall back otherwise, so their syntaxes return a note saying
 * what the library will actually do.
 */
public enum ValueSyntax {
    UCX_UNSIGNED("an unsigned integer or 'inf'"),
    UCX_UNSIGNED_AUTO("an unsigned integer or 'auto'"),
    UCX_DECIMAL("a decimal number"),
    UCX_TIME("a time such as 1.0s, 500ms or 20us"),
    UCX_DISTANCE_BW("auto and KIND:BANDWIDTH items such as auto,sys:16500MBs (KIND phb, node, sys)"),
    UCX_DISTANCE_LAT("auto and KIND:LATENCY items such as auto,sys:500ns (KIND phb, node, sys)"),
    UCX_MEMUNITS("a size such as 8k or 4M, 'inf' or 'auto'"),
    UCX_FRAG_SIZES("MEMTYPE:SIZE items such as host:512K,cuda:4M"),
    UCX_TERNARY_AUTO("y, n, try or auto"),
    UCX_RNDV_SCHEME("a rendezvous scheme"),
    UCX_RC_FENCE("none, weak or auto"),
    UCX_HCA_LIMIT("'inf', 'auto' or a count"),
    UCX_DEVICE_LIST("a device list such as mlx5_0:1,mlx5_1:1 or all"),
    UCX_STRING("any text"),
    MX_NIC_PIN("off, auto, stripe or a comma list of NICs"),
    MX_DECIMAL("a number of Gb/s"),
    MX_SECONDS("a number of seconds"),
    NCCL_HCA_LIST("[^][=]name[:port],..."),
    NCCL_PATH_LEVEL("a path type LOC..SYS or a number 0..5"),
    NCCL_INTEGER("an integer");

    private final String description;

    ValueSyntax(String description) {
        this.description = description;
    }

    public String description() {
        return description;
    }

    /**
     * Checks {@code raw} for variable {@code name}.
     *
     * @return a note when a lenient library reads the text differently from what it says
     * @throws IllegalArgumentException with what was expected, when UCX would reject the text
     */
    public Optional<String> check(String name, String raw) {
        switch (this) {
            case UCX_UNSIGNED -> UcxNumbers.unsigned(raw);
            case UCX_UNSIGNED_AUTO -> {
                if (!raw.trim().equalsIgnoreCase("auto")) {
                    UcxNumbers.unsigned(raw);
                }
            }
            case UCX_DECIMAL -> UcxNumbers.decimal(raw);
            case UCX_TIME -> UcxNumbers.time(raw);
            case UCX_DISTANCE_BW -> DistanceOverrides.parseBandwidth(raw);
            case UCX_DISTANCE_LAT -> DistanceOverrides.parseLatency(raw);
            case UCX_MEMUNITS -> MemUnits.parse(raw);
            case UCX_FRAG_SIZES -> FragSizes.parse(raw);
            case UCX_TERNARY_AUTO -> Ternary.parse(raw);
            case UCX_RNDV_SCHEME -> RndvScheme.parse(raw);
            case UCX_RC_FENCE -> RcFence.parse(raw);
            case UCX_HCA_LIMIT -> HcaPerGpuLimit.parse(raw);
            case UCX_DEVICE_LIST, UCX_STRING, NCCL_HCA_LIST -> {
                // any text is accepted; devices are checked against a host later
            }
            case MX_NIC_PIN -> {
                return NicPin.note(raw);
            }
            case MX_SECONDS -> {
                // rdma_strategy.py _transfer_timeout_seconds: float(raw); not finite or <= 0 -> 300 s
                try {
                    double d = Double.parseDouble(raw.strip());
                    if (!(d > 0) || Double.isInfinite(d)) {
                        return Optional.of(name + "='" + raw + "' is not finite and positive; ModelExpress "
                                + "uses 300 s for the RDMA receive budget");
                    }
                } catch (NumberFormatException e) {
                    return Optional.of(name + "='" + raw + "' is not a number; ModelExpress uses 300 s for "
                            + "the RDMA receive budget");
                }
            }
            case MX_DECIMAL -> {
                try {
                    Double.parseDouble(raw.strip());
                } catch (NumberFormatException e) {
                    return Optional.of(name + "='" + raw + "' is not a float; ModelExpress falls back "
                            + "to its max-rate auto-detect");
                }
            }
            case NCCL_PATH_LEVEL -> {
                if (NcclPathType.parseLevel(raw) == null) {
                    return Optional.of(name + "='" + raw + "' is not a path type NCCL knows (names are "
                            + "case-sensitive: LOC NVL NVB C2C PIX PXB P2C PXN PHB SYS, or 0-5); "
                            + "NCCL ignores it and keeps its default");
                }
            }
            case NCCL_INTEGER -> {
                NcclNumbers.Parsed p = NcclNumbers.strtoll(raw);
                if (p.overflow()) {
                    return Optional.of("Invalid value " + raw + " for " + name
                            + ", using default (NCCL: strtoll overflow)");
                }
                if (!raw.isEmpty() && !p.complete(raw)) {
                    return Optional.of(name + "='" + raw + "' is read by NCCL as " + p.value()
                            + " (strtoll stops at the first character that is not a digit)");
                }
            }
            default -> throw new IllegalStateException(this.name());
        }
        return Optional.empty();
    }
}
