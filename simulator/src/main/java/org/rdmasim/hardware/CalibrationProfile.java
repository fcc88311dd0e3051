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
    public enum Kind {
        DERIVED, CALIBRATED, ASSUMED;

        /** The kind as reports write it: {@code derived}, {@code calibrated}, {@code assumed}. */
        public String word() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * What an answer would be without a parameter, as its profile file says ({@code KEY.without} and
     * {@code KEY.withoutMeans}): the parameter taken out of the profile (the cap or route it adds is absent), or
     * another value in its place (a layout flag's other setting).
     *
     * @param takenOut true when the parameter is removed ({@code KEY.without=none})
     * @param value    the value in its place when not taken out (NaN when taken out)
     * @param means    what that is, in a few words, for reports ("one QP reads at the wire rate after framing")
     */
    public record Without(boolean takenOut, double value, String means) {
        public Without {
            if (means == null || means.isBlank()) {
                throw new IllegalArgumentException("a 'without' needs a few words saying what it means");
            }
            if (!takenOut && !Double.isFinite(value)) {
                throw new IllegalArgumentException("a 'without' that replaces the value needs a finite one, got " + value);
            }
        }
    }

    /**
     * One parameter of a profile.
     *
     * @param without what "without it" means, or null when nothing can stand in for its absence (an inter-socket
     *                link has some rate, framing some overhead: no public figure takes the assumed one's place)
     */
    public record Parameter(String key, double value, String unit, Kind kind, String source, String assumption,
            Without without) {
        /** A parameter with no "without" (see {@link #without}). */
        public Parameter(String key, double value, String unit, Kind kind, String source, String assumption) {
            this(key, value, unit, kind, source, assumption, null);
        }

        /** What "without it" means, when the profile says. */
        public Optional<Without> absence() {
            return Optional.ofNullable(without);
        }

        /** One line for reports: {@code nicReadRate = 308 Gbps, calibrated (ai-dynamo/modelexpress #449 ...)}. */
        public String describe() {
            return valued() + " (" + source + ")";
        }

        /** The parameter, its value and its kind, without its source: {@code nicReadRate = 308 Gbps, calibrated}. */
        public String valued() {
            return key + " = " + shown() + ", " + kind.word();
        }

        /** The value with its unit, as reports write it: {@code 308 Gbps}, {@code 92.0 us}. */
        public String shown() {
            // a duration reads in its own scale (92.0 us), not as a fraction of a second (0.00009199 s)
            return unit.equals("s") ? Units.duration(value) : Units.number(value) + " " + unit;
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

    /**
     * This profile without its parameter {@code key}, as the parameter's {@link Without} says: a copy (same name)
     * with the parameter taken out or its value replaced; empty when the profile lacks the key or the key has no
     * "without". A rerun binds the copy to its hosts ({@link HostSpec#withCalibration}).
     */
    public Optional<CalibrationProfile> without(String key) {
        Optional<Parameter> param = parameter(key);
        if (param.isEmpty() || param.get().without() == null) {
            return Optional.empty();
        }
        Without w = param.get().without();
        List<Parameter> kept = new ArrayList<>();
        for (Parameter p : parameters) {
            if (!p.key().equals(key)) {
                kept.add(p);
            } else if (!w.takenOut()) {
                kept.add(new Parameter(p.key(), w.value(), p.unit(), p.kind(), p.source(), p.assumption(), null));
            }
        }
        return Optional.of(new CalibrationProfile(name, description + ", without " + key + " (" + w.means() + ")",
                List.copyOf(kept)));
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
                    p.getProperty(base + ".source", ""), p.getProperty(base + ".assumption", ""),
                    without(name, base, p));
            // a key the model reads must carry the quantity it reads (a rate in a bandwidth unit, ...), and so
            // must the value a 'without' puts in its place
            ProfileKey.of(base).ifPresent(k -> {
                try {
                    k.check(param);
                    if (param.without() != null && !param.without().takenOut()) {
                        k.check(new Parameter(base, param.without().value(), param.unit(), param.kind(), "", ""));
                    }
                } catch (IllegalStateException e) {
                    throw new IllegalStateException("profile " + name + ": " + e.getMessage(), e);
                }
            });
            params.add(param);
        }
        return new CalibrationProfile(name, p.getProperty("description", name), List.copyOf(params));
    }

    /** {@code KEY.without} ({@code none} or a number) with {@code KEY.withoutMeans}, or null when the file gives none. */
    private static Without without(String profile, String key, Properties p) {
        String raw = p.getProperty(key + ".without");
        if (raw == null) {
            return null;
        }
        String where = "profile " + profile + ": " + key + ".without";
        String means = p.getProperty(key + ".withoutMeans", "");
        try {
            if (raw.trim().equals("none")) {
                return new Without(true, Double.NaN, means);
            }
            return new Without(false, Double.parseDouble(raw.trim()), means);
        } catch (NumberFormatException e) {
            throw new IllegalStateException(where + ": expected 'none' or a number, got '" + raw + "'", e);
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException(where + ": " + e.getMessage() + " (" + key + ".withoutMeans)", e);
        }
    }

    /**
     * The profile bound to the host ({@link HostSpec#withCalibration}), else the one it names, else the first profile whose {@code match.*} keys all fit the host
     * (CPU family, NIC model, link layer).
     */
    public static CalibrationProfile forHost(HostSpec host) {
        if (host.calibration() != null) {
            return host.calibration();
        }
        if (host.profile() != null) {
            return named(host.profile());
        }
        return matching(host);
    }

    /**
     * The first profile whose {@code match.*} keys all fit the host's hardware (CPU family, NIC model, link layer),
     * whatever profile the scenario names for it: the host's own ({@link HostSpec#otherProfile}).
     */
    public static CalibrationProfile matching(HostSpec host) {
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
