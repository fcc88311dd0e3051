package org.rdmasim.hardware;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Properties;

/**
 * A platform's calibration profile, the one place where numbers that are not derived from a
 * mechanism live ({@code src/main/resources/profiles/NAME.properties}). Each parameter says whether it
 * is derived (datasheet or source code), calibrated (fitted to a named measurement) or assumed (no
 * public source decides it), and where it comes from. Every output that depends on a calibrated or
 * assumed parameter names it.
 *
 * @param name        the profile's name, e.g. {@code gb200-roce}
 * @param description one line
 * @param parameters  its parameters, in file order
 */
public record CalibrationProfile(String name, String description, List<Parameter> parameters) {

    /** How a parameter's value was obtained. */
    public enum Kind { DERIVED, CALIBRATED, ASSUMED }

    /** One parameter of a profile. */
    public record Parameter(String key, double value, String unit, Kind kind, String source, String assumption) {
        /** One line for reports: {@code nicReadRate = 308 Gbps, calibrated (ai-dynamo/modelexpress #449 ...)}. */
        public String describe() {
            return key + " = " + Units.number(value) + " " + unit + ", " + kind.name().toLowerCase(Locale.ROOT)
                    + " (" + source + ")";
        }

        /**
         * The value as a rate in bytes per second, through its unit ({@code Gbps}, {@code GB/s}, ...: the unit
         * table scenario bandwidths use).
         *
         * @throws IllegalStateException when the unit is not a bandwidth unit (the profile file is wrong)
         */
        public double bytesPerSecond() {
            try {
                return value * Units.bandwidthUnitBytesPerSecond(unit);
            } catch (IllegalArgumentException e) {
                throw new IllegalStateException("calibration parameter " + key + ": " + e.getMessage(), e);
            }
        }
    }

    /** Profiles in the order hosts are matched against them; the last matches every host. */
    public static final List<String> NAMES = List.of("gb200-roce", "gb300-ib", "aws-efa", "emr-connectx", "connectx7",
            "generic");

    /** The parameter spelt {@code key} (a key outside the hardware model's, such as {@code refit.*}). */
    public Optional<Parameter> parameter(String key) {
        return parameters.stream().filter(p -> p.key().equals(key)).findFirst();
    }

    /** The parameter {@code key}, when this profile has it. */
    public Optional<Parameter> parameter(ProfileKey key) {
        return parameter(key.key());
    }

    /**
     * The parameter {@code key}, which the caller needs this profile to have.
     *
     * @throws IllegalStateException naming the profile and the key when the profile lacks it
     */
    public Parameter require(ProfileKey key) {
        return parameter(key).orElseThrow(() -> new IllegalStateException("calibration profile " + name
                + " has no parameter " + key.key()));
    }

    /** The calibrated or assumed parameters: what an answer on this platform rests on. */
    public List<Parameter> assumptions() {
        return parameters.stream().filter(p -> p.kind() != Kind.DERIVED).toList();
    }

    /** The delivered RDMA READ rate per NIC, bytes per second, when the profile calibrates one. */
    public Optional<Parameter> nicReadRate() {
        return parameter(ProfileKey.NIC_READ_RATE);
    }

    private static final java.util.Map<String, Properties> FILES = new java.util.concurrent.ConcurrentHashMap<>();
    private static final java.util.Map<String, CalibrationProfile> LOADED = new java.util.concurrent.ConcurrentHashMap<>();

    private static Properties file(String name) {
        return FILES.computeIfAbsent(name, n -> {
            Properties p = new Properties();
            try (InputStream in = CalibrationProfile.class.getResourceAsStream("/profiles/" + n + ".properties")) {
                if (in == null) {
                    throw new IllegalStateException("profile " + n + " is missing from the jar");
                }
                p.load(in);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return p;
        });
    }

    /**
     * What a NIC's writes into GPU memory reach when its registration lacks relaxed ordering, on a CPU
     * that routes strict-order peer writes slowly, when the profile calibrates it.
     */
    public Optional<Parameter> strictOrderGpuWriteRate() {
        return parameter(ProfileKey.STRICT_ORDER_GPU_WRITE_RATE);
    }

    /** The RDMA READ rate one QP delivers, when the profile calibrates one. */
    public Optional<Parameter> qpReadRate() {
        return parameter(ProfileKey.QP_READ_RATE);
    }

    public static CalibrationProfile named(String name) {
        if (!NAMES.contains(name)) {
            throw new IllegalArgumentException("unknown calibration profile '" + name + "' (expected one of "
                    + String.join(", ", NAMES) + ")");
        }
        // Not computeIfAbsent: loading a profile that extends another loads that one too (a nested update).
        CalibrationProfile loaded = LOADED.get(name);
        if (loaded == null) {
            LOADED.putIfAbsent(name, load(name));
            loaded = LOADED.get(name);
        }
        return loaded;
    }

    private static CalibrationProfile load(String name) {
        Properties p = file(name);
        List<Parameter> params = new ArrayList<>();
        // A profile may extend another: it takes the other's parameters, then adds or replaces its own.
        String parent = p.getProperty("extends");
        if (parent != null) {
            for (Parameter inherited : named(parent.trim()).parameters()) {
                if (p.getProperty(inherited.key() + ".value") == null) {
                    params.add(inherited);
                }
            }
        }
        for (String key : p.stringPropertyNames().stream().filter(k -> k.endsWith(".value")).sorted().toList()) {
            String base = key.substring(0, key.length() - ".value".length());
            Parameter param = new Parameter(base, Double.parseDouble(p.getProperty(key)), p.getProperty(base + ".unit", ""),
                    Kind.valueOf(p.getProperty(base + ".kind", "derived").toUpperCase(Locale.ROOT)),
                    p.getProperty(base + ".source", ""), p.getProperty(base + ".assumption", ""));
            // a key the model reads must carry the quantity it reads (a rate in a bandwidth unit, ...)
            ProfileKey.of(base).ifPresent(k -> {
                try {
                    k.check(param);
                } catch (IllegalStateException e) {
                    throw new IllegalStateException("profile " + name + ": " + e.getMessage(), e);
                }
            });
            params.add(param);
        }
        return new CalibrationProfile(name, p.getProperty("description", name), List.copyOf(params));
    }

    /**
     * The profile the host names, else the first profile whose {@code match.*} keys all fit the host
     * (CPU family, NIC model, link layer).
     */
    public static CalibrationProfile forHost(HostSpec host) {
        if (host.profile() != null) {
            return named(host.profile());
        }
        for (String name : NAMES) {
            if (matches(file(name), host)) {
                return named(name);
            }
        }
        return named("generic");
    }

    private static boolean matches(Properties p, HostSpec host) {
        String cpu = p.getProperty("match.cpu");
        String nic = p.getProperty("match.nic");
        String layer = p.getProperty("match.linkLayer");
        if (cpu != null && host.cpuFamily() != CpuFamily.valueOf(cpu)) {
            return false;
        }
        List<HostSpec.NicSpec> nics = host.nicSpecs();
        if (nics.isEmpty()) {
            return cpu == null && nic == null && layer == null;
        }
        return nics.stream().allMatch(n -> (nic == null || n.model() == NicModel.valueOf(nic))
                && (layer == null || n.linkLayer() == LinkLayer.valueOf(layer)));
    }
}
