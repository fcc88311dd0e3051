package org.rdmasim.transport.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * {@code NCCL_IB_HCA}: which IB devices NCCL's IB transport uses, read as NCCL's IB device set-up reads it
 * (NVIDIA/nccl v2.30.7-1 {@code src/transport/net_ib/init.cc} L317-324 and L370, the file since v2.29.2-1; up to
 * v2.28.9-1 the same code sat in {@code ncclIbInitDevices}, {@code src/transport/net_ib.cc}, L701 there):
 * a leading {@code ^} excludes the listed devices instead of selecting them; then a leading
 * {@code =} asks for exact names instead of prefixes; the rest is split by {@code parseStringList}
 * ({@code src/misc/utils.cc}) into {@code name[:port]} items. A device port is used when
 * {@code matchIfList(...) ^ searchNot}; {@code matchIfList} compares names by prefix ({@code mlx5} matches
 * {@code mlx5_0}..{@code mlx5_7}) or, with {@code =}, exactly (v2.30.7-1 utils.cc L218-222), a missing port
 * matches any port (L224-229), and an empty list matches every device (L234), so {@code ^} alone leaves none.
 * NCCL does not warn about items that match nothing; rdmasim does.
 * If nothing is left NCCL prints "NET/IB : No device found." and falls back to sockets, which the
 * simulator does not model, so that is an error here.
 *
 * <p>The port field is read two ways: up to v2.30.4-1 {@code parseStringList} reads it with
 * {@code atoi(ptr+1)}, so {@code mlx5_0:} is port 0 and matches no port (v2.29.2-1 utils.cc L157); from
 * v2.30.7-1 it splits fields with {@code ncclOsStrSep} and an empty port is -1, any port (v2.30.7-1
 * utils.cc L189-216, where a third and fourth field are the rail and plane, not read here).
 */
public final class NcclIbHca {
    /** The first release whose {@code parseStringList} reads an empty port as any port. */
    static final StackVersion EMPTY_PORT_IS_ANY = new StackVersion(2, 30, 7);

    private record Item(String prefix, int port) {
    }

    private final EffectiveValue setting;
    private final boolean exclude;
    private final boolean exact;
    private final List<Item> items;

    private NcclIbHca(EffectiveValue setting, StackVersion release) {
        this.setting = setting;
        String s = setting.rawValue();
        exclude = s.startsWith("^");
        if (exclude) {
            s = s.substring(1);
        }
        exact = s.startsWith("=");
        if (exact) {
            s = s.substring(1);
        }
        items = parseStringList(s, release.atLeast(EMPTY_PORT_IS_ANY));
    }

    /** {@code raw} as the user's, read at the NCCL release rdmasim assumes when a scenario names none. */
    public static NcclIbHca parse(String raw) {
        return of(new EffectiveValue("NCCL_IB_HCA", raw, ConfigLayer.USER, ""), new StackVersion(2, 28, 9));
    }

    /** The variable unset: every device (NCCL's {@code userIbEnv == NULL}). */
    public static NcclIbHca unset() {
        return new NcclIbHca(new EffectiveValue("NCCL_IB_HCA", "", ConfigLayer.DEFAULT, "not set"),
                EMPTY_PORT_IS_ANY);
    }

    /** {@code setting} read as NCCL {@code release} reads it. */
    public static NcclIbHca of(EffectiveValue setting, StackVersion release) {
        return new NcclIbHca(setting, release);
    }

    /** Whether the variable is set to a list (an unset or empty one selects every device). */
    public boolean restricts() {
        return exclude || !items.isEmpty();
    }

    public boolean excludes() {
        return exclude;
    }

    public boolean exactMatch() {
        return exact;
    }

    /** Port 1 is assumed on every host NIC. */
    public DeviceSelection resolve(List<String> hostNics) {
        List<String> selected = new ArrayList<>();
        boolean[] used = new boolean[items.size()];
        for (String nic : hostNics) {
            boolean match = items.isEmpty(); // matchIfList: no list matches everything
            for (int i = 0; i < items.size(); i++) {
                Item it = items.get(i);
                boolean name = exact ? nic.equals(it.prefix()) : nic.startsWith(it.prefix());
                boolean port = it.port() == -1 || it.port() == 1;
                if (name && port) {
                    match = true;
                    used[i] = true;
                }
            }
            if (match ^ exclude) {
                selected.add(nic);
            }
        }
        List<String> warnings = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            if (!used[i]) {
                warnings.add("NCCL_IB_HCA item '" + items.get(i).prefix()
                        + (items.get(i).port() == -1 ? "" : ":" + items.get(i).port())
                        + "' matches no device on this host (NCCL ignores it silently)");
            }
        }
        if (selected.isEmpty()) {
            throw new ConfigValueException(setting.name(), setting.rawValue(), setting.layer(),
                    setting.origin(), "a list that leaves at least one of " + hostNics
                    + "; NCCL would report 'NET/IB : No device found.' and fall back to sockets");
        }
        return new DeviceSelection(selected, warnings);
    }

    /** This setting refused, at the layer and line that set it: {@code expected} says what would do. */
    public ConfigValueException refused(String expected) {
        return new ConfigValueException(setting.name(), setting.rawValue(), setting.layer(), setting.origin(), expected);
    }

    /**
     * The NICs of host {@code host} NCCL may hand to a GPU's channels: those the list selects among all its
     * ports ({@code hostNics}, as NCCL enumerates every IB device), a port in {@code listedOnly} (a storage
     * port) only when an item names it in full, as rdmasim takes a storage port for GPU traffic only when
     * named. A list that leaves none is the error NCCL's "No device found" would be.
     */
    public List<String> gpuNics(String host, List<String> hostNics, Set<String> listedOnly) {
        List<String> out = new ArrayList<>();
        for (String nic : resolve(hostNics).devices()) {
            if (!listedOnly.contains(nic) || (!exclude && items.stream().anyMatch(i -> i.prefix().equals(nic)))) {
                out.add(nic);
            }
        }
        if (out.isEmpty()) {
            throw new ConfigValueException(setting.name(), setting.rawValue(), setting.layer(), setting.origin(),
                    "a list that leaves host " + host + " a GPU NIC (it selects only the storage port(s) "
                    + resolve(hostNics).devices() + ", taken for GPU traffic only when named in full)");
        }
        return out;
    }

    /**
     * NCCL's {@code parseStringList}: items split at ',' (empty ones skipped), the text after ':' the
     * port, read with {@code atoi}; an empty port is port 0 before {@link #EMPTY_PORT_IS_ANY}, any port from it.
     */
    private static List<Item> parseStringList(String s, boolean emptyPortIsAny) {
        List<Item> out = new ArrayList<>();
        for (String raw : s.split(",", -1)) {
            int colon = raw.indexOf(':');
            String prefix = colon < 0 ? raw : raw.substring(0, colon);
            if (prefix.isEmpty()) {
                continue;
            }
            int port = -1;
            if (colon >= 0) {
                String field = raw.substring(colon + 1);
                if (emptyPortIsAny) {
                    int next = field.indexOf(':');
                    field = next < 0 ? field : field.substring(0, next);
                    port = field.isEmpty() ? -1 : atoi(field);
                } else {
                    port = atoi(field);
                }
            }
            out.add(new Item(prefix, port));
        }
        return out;
    }

    private static int atoi(String s) {
        NcclNumbers.Parsed p = NcclNumbers.strtoll(s.replaceFirst("^0+(?=\\d)", ""));
        return (int) p.value();
    }

    /** Where the value came from ({@code file:line} for a scenario's own), for messages. */
    public String origin() {
        return setting.origin();
    }

    @Override
    public String toString() {
        return setting.rawValue();
    }
}
