package org.rdmasim.hardware;

import java.util.Optional;

/**
 * The calibration-profile parameters the hardware model reads, each with the quantity its unit must
 * express. A key the code reads is one of these, so a misspelt key does not compile; a profile file
 * whose parameter is one of these but whose unit says something else fails {@link #check}.
 */
public enum ProfileKey {
    /** The delivered RDMA READ rate of one NIC, whatever the number of QPs. */
    NIC_READ_RATE("nicReadRate", Quantity.RATE),
    /**
     * Whether {@link #NIC_READ_RATE} holds the NIC that answers an RDMA READ (1) rather than the one that issues it
     * (0): the measurement it is fitted to had one reader and one responder, so it cannot tell them apart.
     */
    NIC_READ_AT_RESPONDER("nicReadAtResponder", Quantity.FLAG),
    /** The RDMA READ rate one QP delivers. */
    QP_READ_RATE("qpReadRate", Quantity.RATE),
    /** A NIC's writes into GPU memory without PCIe relaxed ordering, on a CPU that routes them slowly. */
    STRICT_ORDER_GPU_WRITE_RATE("strictOrderGpuWriteRate", Quantity.RATE),
    /** The link between the two Grace CPUs of one tray, per direction. */
    GRACE_TO_GRACE("graceToGrace", Quantity.RATE),
    /** The link between the two sockets of a host, per direction. */
    INTER_SOCKET("interSocket", Quantity.RATE),
    /** Payload over bytes on the wire of AWS EFA's SRD. */
    EFA_WIRE_EFFICIENCY("efaWireEfficiency", Quantity.FRACTION),
    /** Whether each GPU of the preset sits behind its NIC's PCIe switch (1) or not (0). */
    GPU_BEHIND_NIC_SWITCH("gpuBehindNicSwitch", Quantity.FLAG);

    /** What a parameter's value and unit express. */
    public enum Quantity {
        /** Bytes per second through a bandwidth unit ({@code Gbps}, {@code GB/s}, ...). */
        RATE,
        /** A share of a line rate, in (0, 1], unit {@code of line rate}. */
        FRACTION,
        /**
         * 0 or 1, its unit saying in words what each value means, {@code (0: ...; 1: ...)}: a bare "1 = yes"
         * after "= 0" leaves a reader to work out what no is.
         */
        FLAG
    }

    static final String FRACTION_UNIT = "of line rate";
    /** A flag's unit: what 0 and what 1 mean, in words. */
    static final java.util.regex.Pattern FLAG_UNIT = java.util.regex.Pattern.compile("\\(0: [^;]+; 1: [^;]+\\)");

    private final String key;
    private final Quantity quantity;

    ProfileKey(String key, Quantity quantity) {
        this.key = key;
        this.quantity = quantity;
    }

    /** The key as the profile file spells it ({@code nicReadRate} for {@code nicReadRate.value=...}). */
    public String key() {
        return key;
    }

    public Quantity quantity() {
        return quantity;
    }

    /** {@code profile.key}, as a validation row names the parameter it depends on. */
    public String in(String profile) {
        return profile + "." + key;
    }

    /** The key the profile file spells {@code key}, if the code reads one so spelt. */
    public static Optional<ProfileKey> of(String key) {
        for (ProfileKey k : values()) {
            if (k.key.equals(key)) {
                return Optional.of(k);
            }
        }
        return Optional.empty();
    }

    /**
     * Checks that {@code p}'s unit and value express this key's quantity.
     *
     * @throws IllegalStateException naming the parameter, its unit and what was expected
     */
    public void check(CalibrationProfile.Parameter p) {
        String where = "calibration parameter " + p.key() + " (unit '" + p.unit() + "')";
        switch (quantity) {
            case RATE -> p.bytesPerSecond();
            case FRACTION -> {
                if (!p.unit().equals(FRACTION_UNIT) || !(p.value() > 0 && p.value() <= 1)) {
                    throw new IllegalStateException(where + ": expected a share of the line rate in (0, 1], unit '"
                            + FRACTION_UNIT + "', got " + p.value());
                }
            }
            case FLAG -> {
                if (!FLAG_UNIT.matcher(p.unit()).matches() || (p.value() != 0 && p.value() != 1)) {
                    throw new IllegalStateException(where + ": expected 0 or 1 with a unit saying what each means, "
                            + "'(0: WORDS; 1: WORDS)', got " + p.value());
                }
            }
            default -> throw new AssertionError(quantity);
        }
    }
}
