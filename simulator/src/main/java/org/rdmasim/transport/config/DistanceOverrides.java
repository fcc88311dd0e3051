package org.rdmasim.transport.config;

import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The value of {@code UCX_DISTANCE_BW} or {@code UCX_DISTANCE_LAT} (UCX >= 1.18.0, openucx/ucx
 * {@code src/ucs/config/global_opts.c}, "dist" table): {@code auto} keeps the built-in distance, and
 * {@code KIND:VALUE} items replace it for one kind of relation ({@code phb}, {@code node}, {@code sys}).
 * Example from UCX's installed {@code ucx.conf} for Grace: {@code auto,sys:16500MBs}.
 *
 * @param values per relation kind, bytes per second (bandwidth) or seconds (latency)
 */
public record DistanceOverrides(Map<Kind, Double> values) {

    /** The relation kinds UCX's distance table names. */
    public enum Kind { PHB, NODE, SYS }

    public static final DistanceOverrides NONE = new DistanceOverrides(Map.of());

    public DistanceOverrides {
        values = values.isEmpty() ? Map.of() : Map.copyOf(new EnumMap<>(values));
    }

    public Optional<Double> get(Kind kind) {
        return Optional.ofNullable(values.get(kind));
    }

    /** Parses a bandwidth list: sizes per second with UCX's binary units (MBs = 2^20 B/s). */
    public static DistanceOverrides parseBandwidth(String raw) {
        return parse(raw, DistanceOverrides::bandwidth);
    }

    /** Parses a latency list: {@code 300ns}, {@code 1us}, {@code 5e-7}. */
    public static DistanceOverrides parseLatency(String raw) {
        return parse(raw, DistanceOverrides::latency);
    }

    private static DistanceOverrides parse(String raw, java.util.function.ToDoubleFunction<String> unit) {
        Map<Kind, Double> out = new EnumMap<>(Kind.class);
        for (String item : raw.split(",")) {
            String t = item.trim();
            if (t.isEmpty() || t.equalsIgnoreCase("auto")) {
                continue;
            }
            int colon = t.indexOf(':');
            if (colon < 0) {
                throw new IllegalArgumentException("auto or KIND:VALUE items (KIND phb, node or sys), got '"
                        + t + "'");
            }
            Kind kind;
            try {
                kind = Kind.valueOf(t.substring(0, colon).trim().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("a distance kind phb, node or sys before the colon, got '"
                        + t.substring(0, colon) + "'");
            }
            out.put(kind, unit.applyAsDouble(t.substring(colon + 1).trim()));
        }
        return new DistanceOverrides(out);
    }

    static double bandwidth(String v) {
        String t = v.replace("/s", "s");
        String[][] units = {{"TBs", "40"}, {"GBs", "30"}, {"MBs", "20"}, {"KBs", "10"}, {"Bs", "0"}};
        for (String[] u : units) {
            if (t.regionMatches(true, t.length() - u[0].length(), u[0], 0, u[0].length())) {
                double number = number(t.substring(0, t.length() - u[0].length()), v);
                return number * Math.pow(2, Integer.parseInt(u[1]));
            }
        }
        return number(t, v);
    }

    static double latency(String v) {
        String[][] units = {{"ns", "1e-9"}, {"us", "1e-6"}, {"ms", "1e-3"}, {"s", "1"}};
        for (String[] u : units) {
            if (v.endsWith(u[0])) {
                return number(v.substring(0, v.length() - u[0].length()), v) * Double.parseDouble(u[1]);
            }
        }
        return number(v, v);
    }

    private static double number(String digits, String whole) {
        try {
            double d = Double.parseDouble(digits.trim());
            if (!(d > 0) || Double.isInfinite(d)) {
                throw new NumberFormatException();
            }
            return d;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("a positive number with a unit, got '" + whole + "'");
        }
    }
}
