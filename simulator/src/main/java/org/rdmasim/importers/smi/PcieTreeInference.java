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
 * The tree is then built and every cell checked against it; a cell the tree cannot reproduce is
 * reported with its line, as is a device order no tree can list (the host lists devices depth first).
 */
final class PcieTreeInference {
    private final ParsedMatrix m;
    private final ImportOptions options;
    private final GpuModel gpuModel;
    private final NicModel nicModel;
    private int switches;
    private int bridges;

    private PcieTreeInference(ParsedMatrix m, ImportOptions options) {
        this.m = m;
        this.options = options;
        this.gpuModel = options.gpuModel() != null ? options.gpuModel() : GpuModel.H100;
        this.nicModel = options.nicModel() != null ? options.nicModel() : NicModel.CX7;
    }

    static HostSpec infer(ParsedMatrix m, ImportOptions options) {
        PcieTreeInference t = new PcieTreeInference(m, options);
        HostSpec spec = t.build();
        t.verify(spec);
        return spec;
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
                PathType r = m.relation()[i][j];
                if (r != PathType.SYS && r != PathType.NV) {
                    socket.union(i, j);
                }
            }
            int numa = m.devices().get(i).numaNode();
            if (numa >= 0) {
                Integer other = firstOnNuma.putIfAbsent(numa, i);
                if (other != null) {
                    socket.union(i, other);
                }
            }
        }
        List<List<Integer>> groups = socket.groups();
        // One NUMA node per socket: two NUMA ids in one group means non-SYS cells join different nodes.
        Set<Integer> used = new TreeSet<>(firstOnNuma.keySet());
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
        CpuFamily family = options.cpuFamily() != null ? options.cpuFamily() : CpuFamily.INTEL_SAPPHIRE_RAPIDS;
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
                if (a < b && joins.test(m.relation()[a][b])) {
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

    /** Every cell, and the order of GPUs and NICs, must come back from the built host. */
    private void verify(HostSpec spec) {
        Host host = new Host("import", spec);
        List<String> gpus = host.gpus().stream().map(TopologyNode::name).toList();
        List<String> nics = host.nics().stream().map(TopologyNode::name).toList();
        List<String> wantGpus = m.devices().stream().filter(ParsedMatrix.Device::gpu).map(ParsedMatrix.Device::name).toList();
        List<String> wantNics = m.devices().stream().filter(d -> !d.gpu()).map(ParsedMatrix.Device::name).toList();
        if (!gpus.equals(wantGpus) || !nics.equals(wantNics)) {
            throw new ImportException(m.source(), m.headerLine(),
                    "no PCIe tree consistent with the cells lists the devices in this order (a tree walk gives "
                            + String.join(" ", gpus) + " " + String.join(" ", nics) + ")",
                    "columns in PCI order, as nvidia-smi prints them");
        }
        List<TopologyNode> nodes = new ArrayList<>(host.gpus());
        nodes.addAll(host.nics());
        for (int i = 0; i < m.size(); i++) {
            for (int j = 0; j < m.size(); j++) {
                PathType want = m.relation()[i][j];
                PathType got = host.relation(nodes.get(i), nodes.get(j));
                int wantNv = m.nvlinks()[i][j];
                int gotNv = got == PathType.NV ? host.nvlinkCount(nodes.get(i), nodes.get(j)) : 0;
                if (want != got || wantNv != gotNv) {
                    ParsedMatrix.Device a = m.devices().get(i);
                    throw new ImportException(m.source(), a.line(), "cell " + a.label() + "/" + m.devices().get(j).label()
                            + " is " + MatrixTextParser.show(want, wantNv) + " but the only PCIe tree the other cells allow gives "
                            + MatrixTextParser.show(got, gotNv),
                            "cells that nest as a tree does (PIX inside PXB inside PHB inside NODE inside SYS; "
                                    + "NV# the same for every pair of NVLink GPUs up to the smaller count)");
                }
            }
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
