package org.rdmasim.transport.config;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code NCCL_IB_HCA}: which IB devices NCCL's IB transport uses, read as
 * {@code ncclIbInitDevices} in {@code src/transport/net_ib.cc} reads it:
 * a leading {@code ^} excludes the listed devices instead of selecting them; then a leading
 * {@code =} asks for exact names instead of prefixes; the rest is split by {@code parseStringList}
 * ({@code src/misc/utils.cc}) into {@code name[:port]} items, the port read with {@code atoi}.
 * A device is used when {@code matchIfList(...) ^ searchNot}; {@code matchIfList} compares names
 * by prefix ({@code mlx5} matches {@code mlx5_0}..{@code mlx5_7}) or exactly, and a missing port
 * matches any port. NCCL does not warn about items that match nothing; rdmasim does.
 * If nothing is left NCCL prints "NET/IB : No device found." and falls back to sockets, which the
 * simulator does not model, so that is an error here.
 */
public final class NcclIbHca {

    private record Item(String prefix, int port) {
    }

    private final EffectiveValue setting;
    private final boolean exclude;
    private final boolean exact;
    private final List<Item> items;

    private NcclIbHca(EffectiveValue setting) {
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
        items = parseStringList(s);
    }

    public static NcclIbHca parse(String raw) {
        return of(new EffectiveValue("NCCL_IB_HCA", raw, ConfigLayer.USER, ""));
    }

    public static NcclIbHca of(EffectiveValue setting) {
        return new NcclIbHca(setting);
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

    /** NCCL's {@code parseStringList}: text after ':' up to ',' is the port ({@code atoi}). */
    private static List<Item> parseStringList(String s) {
        List<Item> out = new ArrayList<>();
        for (String raw : s.split(",", -1)) {
            int colon = raw.indexOf(':');
            String prefix = colon < 0 ? raw : raw.substring(0, colon);
            if (prefix.isEmpty()) {
                continue;
            }
            int port = colon < 0 ? -1 : atoi(raw.substring(colon + 1));
            out.add(new Item(prefix, port));
        }
        return out;
    }

    private static int atoi(String s) {
        NcclNumbers.Parsed p = NcclNumbers.strtoll(s.replaceFirst("^0+(?=\\d)", ""));
        return (int) p.value();
    }

    @Override
    public String toString() {
        return setting.rawValue();
    }
}
