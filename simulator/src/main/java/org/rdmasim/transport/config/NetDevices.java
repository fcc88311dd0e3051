package org.rdmasim.transport.config;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code UCX_NET_DEVICES}: which network devices UCX may use.
 *
 * <p>Matching follows {@code ucp_is_resource_in_device_list} and {@code ucp_report_unavailable}
 * in {@code src/ucp/core/ucp_context.c}. A host's IB devices are UCX resources named
 * {@code dev:port} ({@code mlx5_0:1}); every NIC here is assumed to expose port 1.
 * <ul>
 *   <li>All UCX versions: a comma list of exact {@code dev:port} names; {@code all} anywhere in the
 *       list selects every device. An entry that matches nothing gets UCX's warning
 *       {@code network device 'X' is not available, please use one or more of: 'mlx5_0:1'(ib), ...}
 *       (the available names sorted, as {@code ucs_string_set_print_sorted} prints them), and a
 *       device matched by two entries gets {@code device 'X' is specified multiple times}.</li>
 *   <li>UCX 1.21 and later add three forms, merged in 2026 before the 1.21.0 release: an entry
 *       without a port matches every port of the device (openucx/ucx PR #11142); a leading
 *       {@code ^} negates the whole list (PR #11167; the unknown-device warning is then not
 *       printed); numeric ranges such as {@code mlx5_[0-3]:1} expand to one entry per number
 *       (PR #11340). Older UCX takes such entries literally, so they match nothing.</li>
 * </ul>
 * Selecting no device at all is an error: UCX fails {@code ucp_init} with
 * "no usable transports/devices".
 */
public final class NetDevices {

    /** First UCX release with port-less entries, {@code ^} and ranges (see class comment). */
    public static final StackVersion EXTENDED_SYNTAX_SINCE = new StackVersion(1, 21, 0);

    private static final Pattern RANGE = Pattern.compile("^(.*)\\[(\\d+)-(\\d+)](.*)$");

    private final EffectiveValue setting;

    private NetDevices(EffectiveValue setting) {
        this.setting = setting;
    }

    /** The value as a user would write it; errors name the USER layer. */
    public static NetDevices parse(String raw) {
        return of(new EffectiveValue("UCX_NET_DEVICES", raw, ConfigLayer.USER, ""));
    }

    /** A resolved setting; errors name its layer and origin. */
    public static NetDevices of(EffectiveValue setting) {
        return new NetDevices(setting);
    }

    public String raw() {
        return setting.rawValue();
    }

    /**
     * Selects among {@code hostNics} ({@code mlx5_0}, ..., each with port 1) as UCX {@code ucx}
     * would.
     *
     * @throws ConfigValueException when nothing is selected, or a range is malformed
     */
    public DeviceSelection resolve(List<String> hostNics, StackVersion ucx) {
        return resolve(hostNics, java.util.Set.of(), ucx);
    }

    /**
     * As {@link #resolve(List, StackVersion)}, where {@code listedOnly} are the host's storage and
     * management ports: {@code all} and a negated list leave them out, naming one selects it. Real UCX
     * opens every active port under {@code all}, but a lane also needs the peer reachable through it,
     * and these ports sit on the storage network, not the compute fabric the model carries
     * ({@code hardware.NicRole}); a lane through one is modelled only when the user asks for it.
     */
    public DeviceSelection resolve(List<String> hostNics, java.util.Set<String> listedOnly, StackVersion ucx) {
        boolean extended = ucx.atLeast(EXTENDED_SYNTAX_SINCE);
        String text = setting.rawValue().strip();
        boolean negate = extended && text.startsWith("^");
        if (negate) {
            text = text.substring(1);
        }
        List<String> items = new ArrayList<>();
        for (String item : text.split(",")) {
            if (item.isEmpty()) {
                continue; // UCX splits with strtok, which skips empty items
            }
            if (extended) {
                items.addAll(expandRange(item));
            } else {
                items.add(item);
            }
        }

        List<String> warnings = new ArrayList<>();
        boolean[] itemUsed = new boolean[items.size()];
        List<String> selected = new ArrayList<>();
        for (String nic : hostNics) {
            String resource = nic + ":1";
            List<Integer> matches = new ArrayList<>();
            for (int i = 0; i < items.size(); i++) {
                String item = items.get(i);
                boolean hit = item.equals(resource) || (extended && !item.contains(":") && item.equals(nic));
                if (hit) {
                    matches.add(i);
                }
            }
            boolean all = matches.isEmpty() && items.contains("all") && !listedOnly.contains(nic);
            List<Integer> fresh = matches.stream().filter(i -> !itemUsed[i]).toList();
            if (fresh.size() > 1) {
                warnings.add(where() + "UCX WARN device '" + items.get(fresh.get(fresh.size() - 1))
                        + "' is specified multiple times");
            }
            matches.forEach(i -> itemUsed[i] = true);
            boolean listed = !matches.isEmpty() || all;
            if (listed != negate && !(negate && listedOnly.contains(nic))) {
                selected.add(nic);
            }
        }

        if (!negate) {
            List<String> unknown = new ArrayList<>();
            for (int i = 0; i < items.size(); i++) {
                if (!itemUsed[i] && !items.get(i).equals("all")) {
                    unknown.add("'" + items.get(i) + "'");
                }
            }
            if (!unknown.isEmpty()) {
                TreeSet<String> available = new TreeSet<>();
                hostNics.forEach(n -> available.add("'" + n + ":1'(ib)"));
                boolean many = unknown.size() > 1;
                warnings.add(where() + "UCX WARN network device" + (many ? "s " : " ") + String.join(",", unknown)
                        + (many ? " are" : " is") + " not available, please use one or more of: "
                        + String.join(", ", available));
            }
        }
        if (selected.isEmpty()) {
            String portless = extended ? null
                    : items.stream().filter(i -> !i.contains(":") && hostNics.contains(i)).findFirst().orElse(null);
            throw error("at least one of the host's devices " + hostNics.stream().map(n -> n + ":1").toList()
                    + "; UCX would fail with 'no usable transports/devices'" + (portless == null ? ""
                            : " (UCX " + ucx + " needs each device with its port, '" + portless + ":1'; a device "
                            + "without one is taken from UCX " + EXTENDED_SYNTAX_SINCE + " on, openucx/ucx PR #11142: "
                            + "if you run that UCX, say so with transport.ucx: \"" + EXTENDED_SYNTAX_SINCE + "\")"));
        }
        return new DeviceSelection(selected, warnings);
    }

    private List<String> expandRange(String item) {
        Matcher m = RANGE.matcher(item);
        if (!m.matches()) {
            return List.of(item);
        }
        long low = Long.parseLong(m.group(2));
        long high = Long.parseLong(m.group(3));
        if (low > high || high - low > 1024) {
            throw error("a range [LOW-HIGH] with LOW <= HIGH, as in mlx5_[0-3]:1");
        }
        List<String> out = new ArrayList<>();
        for (long n = low; n <= high; n++) {
            out.add(m.group(1) + n + m.group(4));
        }
        return out;
    }

    /**
     * Where a warning's setting was written, as the user's file:line leading it ("UCX_NET_DEVICES
     * (pull.yaml:24): "), for a value the user set; nothing for a layer's own value.
     */
    private String where() {
        return setting.layer() == ConfigLayer.USER && !setting.origin().isEmpty()
                ? setting.name() + " (" + setting.origin() + "): " : "";
    }

    private ConfigValueException error(String expected) {
        return new ConfigValueException(setting.name(), setting.rawValue(), setting.layer(),
                setting.origin(), expected);
    }

    @Override
    public String toString() {
        return setting.rawValue();
    }
}
