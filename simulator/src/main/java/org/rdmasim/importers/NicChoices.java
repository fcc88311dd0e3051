package org.rdmasim.importers;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.HostSpec;
import org.rdmasim.hardware.LinkLayer;
import org.rdmasim.hardware.NicModel;
import org.rdmasim.hardware.NicRole;
import org.rdmasim.hardware.PathType;
import org.rdmasim.hardware.TopologyNode;

/**
 * What a user tells an importer about single NICs, as {@code --nic-model mlx5_1=cx7:storage,mlx5_2=storage}
 * (scenario: {@code nics}): a model, a role ({@link NicRole}), or both, per device name. Neither
 * {@code nvidia-smi topo -m} nor an NCCL topology says which ports are wired to storage or management;
 * where the user does not say, a NIC that is PIX or PXB to no GPU, on a host where other NICs are, is taken
 * as a storage or management port (the DGX H100's storage cards sit on root ports, NODE from every GPU,
 * while each compute port shares its GPU's switch), with a warning naming it.
 */
public final class NicChoices {
    /** One device's choice; either part may be null (left to the file or the inference). */
    public record Choice(NicModel model, NicRole role) {
    }

    private static final NicChoices NONE = new NicChoices(Map.of());

    private final Map<String, Choice> byName;

    private NicChoices(Map<String, Choice> byName) {
        this.byName = Collections.unmodifiableMap(new LinkedHashMap<>(byName));
    }

    public static NicChoices none() {
        return NONE;
    }

    public Map<String, Choice> byName() {
        return byName;
    }

    /**
     * Parses {@code NAME=MODEL[:ROLE]} or {@code NAME=ROLE} entries separated by commas.
     *
     * @throws IllegalArgumentException naming the entry and what was expected
     */
    public static NicChoices parse(String text) {
        Map<String, Choice> out = new LinkedHashMap<>();
        for (String raw : text.split(",")) {
            String entry = raw.strip();
            if (entry.isEmpty()) {
                continue;
            }
            int eq = entry.indexOf('=');
            if (eq <= 0 || eq == entry.length() - 1) {
                throw new IllegalArgumentException("NIC choice '" + entry + "': expected NAME=MODEL[:ROLE] or NAME=ROLE, "
                        + "as in mlx5_1=cx7:storage or mlx5_1=storage");
            }
            String name = entry.substring(0, eq).strip();
            NicModel model = null;
            NicRole role = null;
            for (String part : entry.substring(eq + 1).split(":")) {
                String p = part.strip().toLowerCase(Locale.ROOT);
                if (p.equals("compute") || p.equals("storage")) {
                    if (role != null) {
                        throw new IllegalArgumentException("NIC choice '" + entry + "' names two roles");
                    }
                    role = NicRole.parse(p);
                } else {
                    if (model != null) {
                        throw new IllegalArgumentException("NIC choice '" + entry + "' names two models");
                    }
                    model = NicModel.parse(p);
                }
            }
            if (out.put(name, new Choice(model, role)) != null) {
                throw new IllegalArgumentException("NIC choice for " + name + " given twice");
            }
        }
        return new NicChoices(out);
    }

    /**
     * {@code spec} with the user's choices applied and, where the user gave no role, storage ports
     * inferred (see the class comment), each inference a warning.
     *
     * @throws ImportException when a choice names a device the file does not have
     */
    public HostSpec apply(HostSpec spec, String source, int line, List<ImportWarning> warnings) {
        List<String> names = spec.nicSpecs().stream().map(HostSpec.NicSpec::name).toList();
        for (String name : byName.keySet()) {
            if (!names.contains(name)) {
                throw new ImportException(source, line, "--nic-model names " + name + ", which the file does not have",
                        "one of " + String.join(", ", names));
            }
        }
        List<String> inferredStorage = inferStorage(spec);
        if (!inferredStorage.isEmpty()) {
            // "taken as" marks an importer default, which the report lists under what the answer rests on
            warnings.add(new ImportWarning(source, line, "ASSUMED: " + String.join(", ", inferredStorage)
                    + " taken as storage/management port(s), PIX or PXB to no GPU while other NICs are: they carry GPU "
                    + "traffic only where UCX_NET_DEVICES or a lane names them. If they are compute ports, pass --nic-model "
                    + inferredStorage.get(0) + "=compute (scenario: nics: \"" + inferredStorage.get(0) + "=compute\")"));
        }
        return spec.withDevices(d -> d instanceof HostSpec.NicSpec n ? chosen(n, inferredStorage) : d);
    }

    private List<String> inferStorage(HostSpec spec) {
        Host host = new Host("import", spec);
        List<String> near = new ArrayList<>();
        List<String> far = new ArrayList<>();
        for (TopologyNode nic : host.nics()) {
            boolean close = host.gpus().stream().map(g -> host.relation(g, nic))
                    .anyMatch(r -> r == PathType.PIX || r == PathType.PXB);
            (close ? near : far).add(nic.name());
        }
        if (near.isEmpty()) {
            return List.of();
        }
        return far.stream().filter(n -> Optional.ofNullable(byName.get(n)).map(Choice::role).isEmpty()).toList();
    }

    private HostSpec.NicSpec chosen(HostSpec.NicSpec n, List<String> inferredStorage) {
        Choice c = byName.get(n.name());
        HostSpec.NicSpec r = n;
        if (c != null && c.model() != null && c.model() != n.model()) {
            LinkLayer layer = c.model().isEfa() ? LinkLayer.EFA : n.linkLayer();
            r = new HostSpec.NicSpec(n.name(), c.model(), layer, c.model().hostLink(), n.port(),
                    c.model().lineRateGbps(), n.relaxedOrdering(), n.role());
        }
        NicRole role = c != null && c.role() != null ? c.role()
                : inferredStorage.contains(n.name()) ? NicRole.STORAGE : r.role();
        return r.withRole(role);
    }
}
