package org.rdmasim.importers.smi;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import org.rdmasim.hardware.CpuFamily;
import org.rdmasim.hardware.GpuModel;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.HostSpec;
import org.rdmasim.hardware.LinkSpec;
import org.rdmasim.hardware.NicModel;
import org.rdmasim.hardware.PathType;
import org.rdmasim.hardware.TopologyNode;
import org.rdmasim.importers.ImportException;
import org.rdmasim.importers.ImportOptions;
import org.rdmasim.importers.ImportWarning;
import org.rdmasim.importers.ProductNames;
import org.rdmasim.importers.SocketDefaults;
import org.rdmasim.importers.SwitchUplinks;

/**
 * Builds the smallest PCIe tree whose relations, as {@link Host#relation} computes them, are the
 * matrix's. The levels nest, so each is a grouping of the one below:
 *
 * <ol>
 *   <li>sockets: devices joined by anything but SYS, plus GPUs sharing a NUMA Affinity (NV# cells say
 *       nothing about PCIe, so GPUs on an NVLink domain are placed through their NICs and NUMA node);</li>
 *   <li>PIX groups: devices joined by PIX share one switch as direct children;</li>
 *   <li>PXB groups: PIX groups (or lone devices, each in a switch of its own) joined by PXB sit as
 *       switches under one common parent switch;</li>
 *   <li>PHB groups: those joined by PHB share a host bridge; what is left hangs off the socket (NODE).</li>
 * </ol>
 *
 * The tree is then built and every cell checked against it. Real matrices do not always nest
 * (nvidia-smi prints SYS between two GPUs of one NUMA node on some boards; NVLink may join only pairs,
 * while the simulator's NVLink is one all-to-all domain), so the grouping is tried twice, with and
 * without the GPU-GPU cells, and the tree kept is the one that reproduces every GPU-NIC cell with the
 * fewest other cells wrong; each cell it does not reproduce is a warning naming its row's line. When no
 * tree keeps every GPU-NIC cell, the first such cell is an error.
 *
 * <p>Why one class of this size: one search, the nearest PCIe tree consistent with a relation matrix,
 * whose steps share the candidate tree and the cells it gives up.
 */
final class PcieTreeInference {
    private final ParsedMatrix m;
    private final ImportOptions options;
    private final GpuModel gpuModel;
    private final NicModel nicModel;
    private final CpuFamily family;
    /** The cells the grouping follows: the matrix's, or with GPU-GPU cells left out. */
    private final PathType[][] relation;
    /** Whether a shared NUMA Affinity puts devices on one socket (the last attempt does without). */
    private final boolean byNuma;
    private int switches;
    private int bridges;

    private PcieTreeInference(ParsedMatrix m, ImportOptions options, PathType[][] relation, boolean byNuma,
            List<ImportWarning> warnings) {
        this.m = m;
        this.options = options;
        this.relation = relation;
        this.byNuma = byNuma;
        boolean anyGpu = m.devices().stream().anyMatch(ParsedMatrix.Device::gpu);
        boolean anyNic = m.devices().stream().anyMatch(d -> !d.gpu());
        if (options.gpuModel() != null) {
            gpuModel = options.gpuModel();
        } else if (m.gpuProduct() != null && ProductNames.gpuModel(m.gpuProduct()).isPresent()) {
            gpuModel = ProductNames.gpuModel(m.gpuProduct()).get();
        } else {
            gpuModel = GpuModel.H100;
            if (warnings != null && anyGpu) {
                warnings.add(m.gpuProduct() != null
                        ? new ImportWarning(m.source(), m.gpuProductLine(), "GPU product '" + m.gpuProduct()
                                + "' is not modelled: its memory and PCIe figures are " + gpuModel.product()
                                + "'s; pass --gpu-model (scenario: gpuModel) to choose")
                        : new ImportWarning(m.source(), m.headerLine(), "the text does not name the GPU product: GPUs taken as "
                                + gpuModel.product() + "; pass --gpu-model (scenario: gpuModel), or paste nvidia-smi -L above the matrix"));
            }
        }
        nicModel = options.nicModel() != null ? options.nicModel() : NicModel.CX7;
        if (options.nicModel() == null && warnings != null && anyNic) {
            warnings.add(new ImportWarning(m.source(), m.headerLine(), "nvidia-smi does not say what the NICs are: taken as "
                    + nicModel.product() + " at " + (long) nicModel.lineRateGbps() + " Gb/s; pass --nic-model (scenario: nicModel, lineRate)"));
        }
        family = options.cpuFamily() != null ? options.cpuFamily() : CpuFamily.INTEL_SAPPHIRE_RAPIDS;
        if (options.cpuFamily() == null && warnings != null) {
            warnings.add(new ImportWarning(m.source(), m.headerLine(), "nvidia-smi does not say what the CPUs are: taken as "
                    + "Sapphire Rapids (memory and socket-link figures); pass --cpu (scenario: cpu)"));
        }
    }

    static HostSpec infer(ParsedMatrix m, ImportOptions options) {
        return infer(m, options, new ArrayList<>());
    }

    /** A cell of the matrix the built tree gives otherwise. */
    private record Miss(int row, int column, PathType got, int gotNv) {
    }

    private record Attempt(HostSpec spec, List<Miss> misses, ImportException failure) {
        boolean keepsGpuNicCells(ParsedMatrix m) {
            return failure == null && misses.stream().noneMatch(x -> m.devices().get(x.row()).gpu() != m.devices().get(x.column()).gpu());
        }
    }

    static HostSpec infer(ParsedMatrix m, ImportOptions options, List<ImportWarning> warnings) {
        new PcieTreeInference(m, options, m.relation(), true, warnings); // the model warnings, once
        PathType[][] withoutGpuPairs = new PathType[m.size()][];
        for (int i = 0; i < m.size(); i++) {
            withoutGpuPairs[i] = m.relation()[i].clone();
            for (int j = 0; j < m.size(); j++) {
                if (i != j && m.devices().get(i).gpu() && m.devices().get(j).gpu()) {
                    withoutGpuPairs[i][j] = PathType.SYS;
                }
            }
        }
        Attempt best = null;
        Attempt first = null;
        boolean splitNuma = false;
        // Third and last resort: devices that share a NUMA node but are SYS to each other (some boards and
        // VMs print that) go on sockets of their own, so that every GPU-NIC cell still holds.
        for (int k = 0; k < 3 && (k < 2 || best == null); k++) {
            Attempt a;
            try {
                PcieTreeInference t = new PcieTreeInference(m, options, k == 0 ? m.relation() : withoutGpuPairs, k < 2, null);
                HostSpec spec = t.build();
                a = new Attempt(spec, t.misses(spec), null);
            } catch (ImportException e) {
                a = new Attempt(null, List.of(), e);
            }
            first = first == null ? a : first;
            if (a.keepsGpuNicCells(m) && (best == null || a.misses().size() < best.misses().size())) {
                best = a;
                splitNuma = k == 2;
            }
        }
        if (splitNuma) {
            Map<Integer, Integer> socketsOfNode = new java.util.TreeMap<>();
            best.spec().sockets().forEach(s -> socketsOfNode.merge(s.numaNode(), 1, Integer::sum));
            socketsOfNode.values().removeIf(c -> c < 2);
            warnings.add(new ImportWarning(m.source(), m.headerLine(), "devices of one NUMA node are SYS to each other, which "
                    + "no single socket gives: NUMA node(s) " + socketsOfNode.keySet() + " are imported as several sockets "
                    + "each (with a socket's memory figures each), so that every GPU-NIC cell holds"));
        }
        if (best == null) {
            if (first.failure() != null) {
                throw first.failure();
            }
            Miss x = first.misses().stream().filter(y -> m.devices().get(y.row()).gpu() != m.devices().get(y.column()).gpu())
                    .findFirst().orElseThrow();
            ParsedMatrix.Device a = m.devices().get(x.row());
            throw new ImportException(m.source(), a.line(), "cell " + a.label() + "/" + m.devices().get(x.column()).label()
                    + " is " + MatrixTextParser.show(m.relation()[x.row()][x.column()], m.nvlinks()[x.row()][x.column()])
                    + " but the only PCIe tree the other cells allow gives " + MatrixTextParser.show(x.got(), x.gotNv()),
                    "cells that nest as a tree does (PIX inside PXB inside PHB inside NODE inside SYS; "
                            + "NV# the same for every pair of NVLink GPUs up to the smaller count)");
        }
        warnOrder(m, best.spec(), warnings);
        Map<Integer, List<Miss>> byRow = new LinkedHashMap<>();
        for (Miss x : best.misses()) {
            if (x.row() < x.column()) {
                byRow.computeIfAbsent(x.row(), k -> new ArrayList<>()).add(x);
            }
        }
        for (Map.Entry<Integer, List<Miss>> e : byRow.entrySet()) {
            ParsedMatrix.Device a = m.devices().get(e.getKey());
            List<String> cells = new ArrayList<>();
            for (Miss x : e.getValue()) {
                cells.add(a.label() + "/" + m.devices().get(x.column()).label() + " "
                        + MatrixTextParser.show(m.relation()[x.row()][x.column()], m.nvlinks()[x.row()][x.column()])
                        + " (imported as " + MatrixTextParser.show(x.got(), x.gotNv()) + ")");
            }
            warnings.add(new ImportWarning(m.source(), a.line(), "cells that do not nest as one PCIe tree "
                    + "(or NVLink that is not one all-to-all domain) are not honoured: " + String.join(", ", cells)));
        }
        return best.spec();
    }

    /** A built subtree with the matrix indices of the GPUs and NICs it holds (to order siblings). */
    private record Part(HostSpec.DeviceSpec spec, HostSpec.SocketSpec socket, TreeSet<Integer> gpus,
            TreeSet<Integer> nics) {
        static Part merge(HostSpec.DeviceSpec spec, List<Part> parts) {
            return merge(spec, null, parts);
        }

        static Part merge(HostSpec.DeviceSpec spec, HostSpec.SocketSpec socket, List<Part> parts) {
            TreeSet<Integer> g = new TreeSet<>();
            TreeSet<Integer> n = new TreeSet<>();
            parts.forEach(p -> {
                g.addAll(p.gpus);
                n.addAll(p.nics);
            });
            return new Part(spec, socket, g, n);
        }
    }

    private HostSpec build() {
        int n = m.size();
        UnionFind socket = new UnionFind(n);
        Map<Integer, Integer> firstOnNuma = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < i; j++) {
                PathType r = relation[i][j];
                if (r != PathType.SYS && r != PathType.NV) {
                    socket.union(i, j);
                }
            }
            int numa = m.devices().get(i).numaNode();
            if (numa >= 0 && byNuma) {
                Integer other = firstOnNuma.putIfAbsent(numa, i);
                if (other != null) {
                    socket.union(i, other);
                }
            }
        }
        List<List<Integer>> groups = socket.groups();
        // One NUMA node per socket: two NUMA ids in one group means non-SYS cells join different nodes.
        Set<Integer> used = new TreeSet<>();
        m.devices().stream().filter(d -> d.numaNode() >= 0).forEach(d -> used.add(d.numaNode()));
        List<Integer> numaOfGroup = new ArrayList<>();
        for (List<Integer> g : groups) {
            int numa = -1;
            int from = -1;
            for (int i : g) {
                int d = m.devices().get(i).numaNode();
                if (d >= 0 && numa >= 0 && d != numa) {
                    throw new ImportException(m.source(), m.devices().get(i).line(),
                            m.devices().get(i).label() + " is on NUMA node " + d + " but is joined by PIX/PXB/PHB/NODE cells to "
                                    + m.devices().get(from).label() + " on NUMA node " + numa,
                            "devices on different NUMA nodes to be SYS to each other");
                }
                if (d >= 0 && numa < 0) {
                    numa = d;
                    from = i;
                }
            }
            numaOfGroup.add(numa);
        }
        for (int k = 0; k < groups.size(); k++) {
            if (numaOfGroup.get(k) < 0) {
                int free = 0;
                while (used.contains(free)) {
                    free++;
                }
                used.add(free);
                numaOfGroup.set(k, free);
            }
        }
        SocketDefaults defaults = SocketDefaults.of(family);
        List<Part> socketParts = new ArrayList<>();
        for (int k = 0; k < groups.size(); k++) {
            List<Integer> g = groups.get(k);
            String affinity = g.stream().map(i -> m.devices().get(i).cpuAffinity()).filter(a -> !a.isEmpty())
                    .findFirst().orElse("");
            List<Part> children = socketChildren(g);
            HostSpec.SocketSpec s = new HostSpec.SocketSpec(numaOfGroup.get(k), defaults.memoryBandwidth(),
                    defaults.memoryBytes(), affinity, specs(children));
            socketParts.add(Part.merge(null, s, children));
        }
        List<HostSpec.SocketSpec> sockets = new ArrayList<>();
        for (Part p : order(socketParts)) {
            sockets.add(p.socket());
        }
        java.nio.file.Path file = java.nio.file.Path.of(m.source()).getFileName();
        return new HostSpec("imported from " + (file == null ? m.source() : file), family, defaults.interSocket(),
                sockets, m.source());
    }

    /** Devices of one socket: PHB groups under host bridges, the rest directly under the socket. */
    private List<Part> socketChildren(List<Integer> devices) {
        List<Part> out = new ArrayList<>();
        for (List<Integer> phb : groupBy(devices, r -> r == PathType.PIX || r == PathType.PXB || r == PathType.PHB)) {
            List<Part> units = new ArrayList<>();
            for (List<Integer> pxb : groupBy(phb, r -> r == PathType.PIX || r == PathType.PXB)) {
                units.add(pxbUnit(pxb));
            }
            if (units.size() == 1) {
                out.add(units.get(0));
            } else {
                List<Part> ordered = order(units);
                out.add(Part.merge(new HostSpec.HostBridgeSpec("host-bridge" + bridges++, specs(ordered)), ordered));
            }
        }
        return out;
    }

    /** A set of devices all PIX or PXB to each other: one switch, or a parent switch over one switch per PIX group. */
    private Part pxbUnit(List<Integer> devices) {
        List<List<Integer>> pix = groupBy(devices, r -> r == PathType.PIX);
        if (pix.size() == 1) {
            List<Integer> only = pix.get(0);
            if (only.size() == 1) {
                return leaf(only.get(0));
            }
            return switchOf(only);
        }
        List<Part> leaves = new ArrayList<>();
        for (List<Integer> g : pix) {
            leaves.add(switchOf(g));
        }
        List<Part> ordered = order(leaves);
        List<HostSpec.DeviceSpec> below = specs(ordered);
        return Part.merge(new HostSpec.SwitchSpec("pcie-switch" + switches++, uplink(below), below), ordered);
    }

    private Part switchOf(List<Integer> devices) {
        List<Part> leaves = new ArrayList<>();
        for (int i : devices) {
            leaves.add(leaf(i));
        }
        List<Part> ordered = order(leaves);
        List<HostSpec.DeviceSpec> below = specs(ordered);
        return Part.merge(new HostSpec.SwitchSpec("pcie-switch" + switches++, uplink(below), below), ordered);
    }

    private LinkSpec uplink(List<HostSpec.DeviceSpec> below) {
        return options.switchUplink() != null ? options.switchUplink() : SwitchUplinks.fastestBelow(below);
    }

    private Part leaf(int i) {
        ParsedMatrix.Device d = m.devices().get(i);
        TreeSet<Integer> g = new TreeSet<>();
        TreeSet<Integer> n = new TreeSet<>();
        HostSpec.DeviceSpec spec;
        if (d.gpu()) {
            int nv = 0;
            for (int j = 0; j < m.size(); j++) {
                nv = Math.max(nv, m.nvlinks()[i][j]);
            }
            spec = new HostSpec.GpuSpec(d.name(), gpuModel, gpuModel.hostLink(), gpuModel.hbmBytes(), gpuModel.bar1Bytes(), nv);
            g.add(i);
        } else {
            spec = new HostSpec.NicSpec(d.name(), nicModel, options.linkLayer(), nicModel.hostLink(), 1,
                    nicModel.lineRateGbps(), true);
            n.add(i);
        }
        return new Part(spec, null, g, n);
    }

    /** Connected groups of {@code devices} under the cells accepted by {@code joins}, in first-index order. */
    private List<List<Integer>> groupBy(List<Integer> devices, Predicate<PathType> joins) {
        UnionFind uf = new UnionFind(m.size());
        for (int a : devices) {
            for (int b : devices) {
                if (a < b && joins.test(relation[a][b])) {
                    uf.union(a, b);
                }
            }
        }
        Map<Integer, List<Integer>> byRoot = new LinkedHashMap<>();
        for (int d : devices) {
            byRoot.computeIfAbsent(uf.find(d), k -> new ArrayList<>()).add(d);
        }
        return new ArrayList<>(byRoot.values());
    }

    /**
     * Siblings in an order that lists GPUs and NICs by index when the host walks the tree depth first:
     * a sibling must come before another whose lowest GPU index (or, when one of them has no GPU,
     * lowest NIC index) is higher. Kahn's algorithm; should the constraints cycle, the rest follows by
     * lowest index and the check afterwards reports the order.
     */
    private static List<Part> order(List<Part> parts) {
        int n = parts.size();
        boolean[][] before = new boolean[n][n];
        int[] incoming = new int[n];
        for (int a = 0; a < n; a++) {
            for (int b = 0; b < n; b++) {
                Part p = parts.get(a);
                Part q = parts.get(b);
                boolean edge;
                if (!p.gpus.isEmpty() && !q.gpus.isEmpty()) {
                    edge = p.gpus.first() < q.gpus.first();
                } else if (!p.nics.isEmpty() && !q.nics.isEmpty()) {
                    edge = p.nics.first() < q.nics.first();
                } else {
                    edge = false;
                }
                if (edge) {
                    before[a][b] = true;
                    incoming[b]++;
                }
            }
        }
        Comparator<Integer> lowest = Comparator.comparing((Integer k) -> key(parts.get(k).gpus))
                .thenComparing(k -> key(parts.get(k).nics));
        List<Part> out = new ArrayList<>();
        boolean[] done = new boolean[n];
        for (int step = 0; step < n; step++) {
            Integer pick = null;
            for (int k = 0; k < n; k++) {
                if (!done[k] && incoming[k] == 0 && (pick == null || lowest.compare(k, pick) < 0)) {
                    pick = k;
                }
            }
            if (pick == null) {
                for (int k = 0; k < n; k++) {
                    if (!done[k] && (pick == null || lowest.compare(k, pick) < 0)) {
                        pick = k;
                    }
                }
            }
            done[pick] = true;
            out.add(parts.get(pick));
            for (int b = 0; b < n; b++) {
                if (before[pick][b]) {
                    incoming[b]--;
                }
            }
        }
        return out;
    }

    private static int key(TreeSet<Integer> s) {
        return s.isEmpty() ? Integer.MAX_VALUE : s.first();
    }

    private static List<HostSpec.DeviceSpec> specs(List<Part> parts) {
        return parts.stream().map(Part::spec).toList();
    }

    /** The cells the built host gives otherwise than the matrix, devices matched by name. */
    private List<Miss> misses(HostSpec spec) {
        Host host = new Host("import", spec);
        List<TopologyNode> nodes = new ArrayList<>();
        for (ParsedMatrix.Device d : m.devices()) {
            nodes.add(d.gpu() ? host.gpu(d.name()) : host.nic(d.name()));
        }
        List<Miss> out = new ArrayList<>();
        for (int i = 0; i < m.size(); i++) {
            for (int j = 0; j < m.size(); j++) {
                PathType want = m.relation()[i][j];
                PathType got = host.relation(nodes.get(i), nodes.get(j));
                int wantNv = m.nvlinks()[i][j];
                int gotNv = got == PathType.NV ? host.nvlinkCount(nodes.get(i), nodes.get(j)) : 0;
                if (want != got || wantNv != gotNv) {
                    out.add(new Miss(i, j, got, gotNv));
                }
            }
        }
        return out;
    }

    /**
     * The host lists devices depth first. NIC columns may come in any order (mlx5 index rather than PCI
     * order; the names keep each NIC itself); GPUs out of tree order are listed by the tree, with a warning.
     */
    private static void warnOrder(ParsedMatrix m, HostSpec spec, List<ImportWarning> warnings) {
        Host host = new Host("import", spec);
        List<String> gpus = host.gpus().stream().map(TopologyNode::name).toList();
        List<String> wantGpus = m.devices().stream().filter(ParsedMatrix.Device::gpu).map(ParsedMatrix.Device::name).toList();
        if (!gpus.equals(wantGpus)) {
            warnings.add(new ImportWarning(m.source(), m.headerLine(), "no PCIe tree consistent with the cells lists the GPUs "
                    + "in column order: the host lists them " + String.join(" ", gpus)));
        }
    }

    /** Disjoint sets over matrix indices. */
    private static final class UnionFind {
        private final int[] parent;

        UnionFind(int n) {
            parent = new int[n];
            for (int i = 0; i < n; i++) {
                parent[i] = i;
            }
        }

        int find(int i) {
            while (parent[i] != i) {
                parent[i] = parent[parent[i]];
                i = parent[i];
            }
            return i;
        }

        void union(int a, int b) {
            int ra = find(a);
            int rb = find(b);
            if (ra != rb) {
                parent[Math.max(ra, rb)] = Math.min(ra, rb);
            }
        }

        List<List<Integer>> groups() {
            Map<Integer, List<Integer>> byRoot = new LinkedHashMap<>();
            for (int i = 0; i < parent.length; i++) {
                byRoot.computeIfAbsent(find(i), k -> new ArrayList<>()).add(i);
            }
            return new ArrayList<>(byRoot.values());
        }
    }
}
