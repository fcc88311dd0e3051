package org.rdmasim.hardware;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;

/** The built-in hosts, each with the source of its shape and figures. */
public final class Presets {
    private static final Map<String, Supplier<HostSpec>> PRESETS = new TreeMap<>();

    static {
        PRESETS.put("dgx-h100", Presets::dgxH100);
        PRESETS.put("hgx-h200", () -> hopperEightWay("HGX H200", GpuModel.H200));
        PRESETS.put("dgx-b200", Presets::dgxB200);
        PRESETS.put("gb200-tray", Presets::gb200Tray);
        PRESETS.put("dgx-gb200-tray", Presets::dgxGb200Tray);
        PRESETS.put("gb300-tray", Presets::gb300Tray);
        PRESETS.put("p5.48xlarge", Presets::p5);
        PRESETS.put("p5en.48xlarge", Presets::p5en);
        PRESETS.put("p6-b200.48xlarge", Presets::p6b200);
        PRESETS.put("azure-ndv5", Presets::azureNdv5);
        PRESETS.put("generic", () -> generic(GenericHost.defaults()));
    }

    private Presets() {
    }

    public static List<String> names() {
        return new ArrayList<>(PRESETS.keySet());
    }

    public static boolean exists(String name) {
        return PRESETS.containsKey(name.toLowerCase(Locale.ROOT));
    }

    public static HostSpec get(String name) {
        Supplier<HostSpec> s = PRESETS.get(name.toLowerCase(Locale.ROOT));
        if (s == null) {
            throw new IllegalArgumentException("unknown preset '" + name + "' (expected one of " + names() + ")");
        }
        return s.get();
    }

    // Intel Xeon Platinum 8480C (Sapphire Rapids): 8 channels of DDR5-4800 per socket = 307.2 GB/s,
    // 4 UPI 2.0 links at 16 GT/s, ~32 GB/s per direction each (Intel product specifications).
    private static final double SPR_MEMORY_BW = 307.2e9;
    private static final double SPR_UPI_BW = 4 * 32e9;

    /**
     * HGX H200 (and the DGX H100's compute side, {@link #dgxH100}): 2 Sapphire Rapids sockets, 8 GPUs and 8 single-port ConnectX-7 400G
     * (NDR InfiniBand) for the compute fabric; each GPU and its NIC share one PCIe Gen5 switch (PIX),
     * 4 GPU/NIC pairs per socket, every switch uplinked Gen5 x16 (NVIDIA DGX H100 user guide
     * [dgx-h100-guide]). GPUs join one NVLink domain with 18 links each (NV18). 1 TiB of DDR5 per socket.
     * An HGX board's port names are its server maker's; they are given here in GPU order.
     */
    static HostSpec hopperEightWay(String model, GpuModel gpu) {
        return new HostSpec(model, CpuFamily.INTEL_SAPPHIRE_RAPIDS, SPR_UPI_BW,
                fourPixPairsPerSocket(gpu, "mlx5_", SPR_MEMORY_BW, 1L << 40, "0-55,112-167", "56-111,168-223"),
                "NVIDIA DGX H100 user guide (system topology) [dgx-h100-guide]");
    }

    /** Where the DGX H100's port names come from. */
    static final String DGX_H100_GUIDE = "NVIDIA DGX H100/H200 User Guide, \"Network Connections, Cables, and "
            + "Adaptors\" > \"Network Modules\", Table 6 (https://docs.nvidia.com/dgx/dgxh100-user-guide/"
            + "introduction-to-dgxh100.html)";

    /**
     * DGX H100 with its devices named as DGX OS names them. The user guide's Table 6 (see
     * {@link #DGX_H100_GUIDE}) gives each GPU's compute port: GPU0 mlx5_0 (ibp24s0), GPU1 mlx5_3 (ibp64s0),
     * GPU2 mlx5_4 (ibp79s0), GPU3 mlx5_5 (ibp94s0) on CPU 0; GPU4 mlx5_6 (ibp154s0), GPU5 mlx5_9
     * (ibp192s0), GPU6 mlx5_10 (ibp206s0), GPU7 mlx5_11 (ibp220s0) on CPU 1, each a single-port
     * ConnectX-7 behind its GPU's PCIe switch. The names left out, mlx5_1-2 and mlx5_7-8, are the two
     * dual-port ConnectX-7 cards (QSFP112, slots 1 and 2) that the DGX BasePOD deployment guide
     * ("DGX H200/H100 System Network Ports") wires to storage and in-band management, not to the
     * compute fabric. The same guide's Table 5 ("Network Ports", Network Port Mapping) gives their
     * buses: slot 2 at 29:00.0/.1 is mlx5_1/mlx5_2 (CPU 0, between the compute ports at 0x18 and 0x40),
     * slot 1 at aa:00.0/.1 is mlx5_7/mlx5_8 (CPU 1, between 0x9a and 0xc0); each card's two ports share
     * its Gen5 x16 link, modelled as a switch, directly under the CPU's root ports. Table 5's default
     * port designations set the link layers: port 1 of each card is InfiniBand (ibp41s0f0,
     * ibp170s0f0: mlx5_1, mlx5_7) and port 2 Ethernet (enp41s0f1np1, enp170s0f1np1: mlx5_2, mlx5_8),
     * the ports BasePOD bonds for storage and in-band management. They are {@link NicRole#STORAGE}
     * ports, lane candidates only where a user names them.
     */
    static HostSpec dgxH100() {
        String[][] compute = {{"mlx5_0", "mlx5_3", "mlx5_4", "mlx5_5"}, {"mlx5_6", "mlx5_9", "mlx5_10", "mlx5_11"}};
        String[][] storage = {{"mlx5_1", "mlx5_2"}, {"mlx5_7", "mlx5_8"}};
        List<HostSpec.SocketSpec> sockets = new ArrayList<>();
        for (int s = 0; s < 2; s++) {
            List<HostSpec.DeviceSpec> devices = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                int k = s * 4 + i;
                devices.add(pixPair("pcie-switch" + k, GpuModel.H100, "GPU" + k,
                        HostSpec.NicSpec.of(compute[s][i], NicModel.CX7, LinkLayer.INFINIBAND)));
                if (i == 0) {
                    // PCI order: the storage card's buses follow the first compute port's on each socket
                    List<HostSpec.DeviceSpec> ports = new ArrayList<>();
                    for (int port = 0; port < storage[s].length; port++) {
                        // Table 5 defaults: port 1 InfiniBand (ibp...f0), port 2 Ethernet (enp...f1np1)
                        LinkLayer layer = port == 0 ? LinkLayer.INFINIBAND : LinkLayer.ROCE;
                        ports.add(HostSpec.NicSpec.of(storage[s][port], NicModel.CX7, layer).withRole(NicRole.STORAGE));
                    }
                    devices.add(new HostSpec.SwitchSpec("storage-card" + s, NicModel.CX7.hostLink(), ports));
                }
            }
            sockets.add(new HostSpec.SocketSpec(s, SPR_MEMORY_BW, 1L << 40, s == 0 ? "0-55,112-167" : "56-111,168-223",
                    devices));
        }
        return new HostSpec("DGX H100", CpuFamily.INTEL_SAPPHIRE_RAPIDS, SPR_UPI_BW, sockets,
                DGX_H100_GUIDE + "; DGX BasePOD deployment guide (storage ports) [dgx-h100-guide]");
    }

    // Intel Xeon Platinum 8570 (Emerald Rapids): 4 UPI 2.0 links at 20 GT/s, ~40 GB/s per direction each
    // (scaled from Sapphire Rapids' 16 GT/s; Intel product specifications give the transfer rate).
    private static final double EMR_UPI_BW = 4 * 40e9;

    /** The public DGX B200 dumps the {@code dgx-b200} preset's device names come from. */
    static final String DGX_B200_DUMPS = "NVIDIA/nccl issue #1646 (NCCL_IB_HCA on a DGX B200, "
            + "https://github.com/NVIDIA/nccl/issues/1646); nvidia-smi topo -m of 8 x B200 hosts with 16 mlx5 "
            + "devices in vllm-project/vllm issues #32862 and #42186 (https://github.com/vllm-project/vllm/issues/32862, "
            + "https://github.com/vllm-project/vllm/issues/42186)";

    /**
     * DGX B200: 2 Intel Xeon Platinum 8570 (Emerald Rapids, 56 cores each), 8 B200 and 8 single-port
     * ConnectX-7 cards, InfiniBand 400G by default, 2 TB of DDR5, 2 dual-port BlueField-3 for storage and
     * in-band management (NVIDIA DGX B200 user guide, hardware overview,
     * https://docs.nvidia.com/dgx/dgxb200-user-guide/introduction-to-dgxb200.html). Its calibration
     * profile is emr-connectx (strict-order writes into GPU memory on Emerald Rapids).
     *
     * <p>Device names, from public dumps ({@link #DGX_B200_DUMPS}), not from an NVIDIA port table (none
     * was found for the DGX B200):
     * <ul>
     *   <li>NVIDIA/nccl #1646, an NCCL_DEBUG=INFO log from a DGX B200, sets {@code NCCL_IB_HCA} to
     *       mlx5_4, 7, 8, 9, 10, 13, 14, 15: the eight compute ports among sixteen mlx5 devices.</li>
     *   <li>vllm #32862 ({@code nvidia-smi topo -m}, 8 B200, 16 NICs, CPU affinity 0-55,112-167 and
     *       56-111,168-223 as on two Xeon 8570): GPU0 is PXB to mlx5_4 and GPU1 to mlx5_7; mlx5_0-9 are
     *       NODE to GPU0 (socket 0), mlx5_10-15 SYS (socket 1); the NIC rows give mlx5_13 PXB to GPU5,
     *       mlx5_14 to GPU6, mlx5_15 to GPU7.</li>
     *   <li>vllm #42186 (a later comment's topology of the same 16-device shape): mlx5_8 PXB to GPU2,
     *       mlx5_9 to GPU3, mlx5_10 to GPU4; mlx5_5 and mlx5_6 PIX to each other (one dual-port card on
     *       socket 0), NODE to every GPU of socket 0.</li>
     * </ul>
     * So GPU0 mlx5_4, GPU1 mlx5_7, GPU2 mlx5_8, GPU3 mlx5_9 on CPU 0 and GPU4 mlx5_10, GPU5 mlx5_13, GPU6
     * mlx5_14, GPU7 mlx5_15 on CPU 1, the same eight NCCL #1646 lists. The vllm hosts are not said to be
     * DGX systems; that their compute ports are exactly #1646's eight is what ties them to it. nvidia-smi
     * reports each GPU/NIC pair as PXB (several bridges, no host bridge): the pair shares one PCIe switch
     * tree, modelled, as on {@link #dgxH100}, as one Gen5 switch (PIX in the model; the switch's inner
     * bridges carry no separate limit here).
     *
     * <p>The other eight devices join no lane unless named ({@link NicRole#STORAGE}): mlx5_5-6, the
     * dual-port card above, and mlx5_11-12 on socket 1 are taken to be the two BlueField-3 (the guide's
     * storage and in-band management cards; that mlx5_11-12 share one card is ASSUMED by symmetry, the
     * dumps seen show only that both are on socket 1; a 12-NIC 8 x B200 host in vllm #16336, numbered
     * another way (NIC0-7 the compute ports), has likewise two non-compute NICs per socket). mlx5_0-3 are
     * on socket 0, NODE to every GPU; what they are is NOT ESTABLISHED by the dumps, so each is modelled as
     * a lone ConnectX-7 port under the socket's root ports. Link layers of all eight are ASSUMED Ethernet
     * (RoCE), the networks BasePOD gives storage and in-band management; each port is given ConnectX-7's
     * 400G. Devices are listed in mlx5 order, taken (ASSUMED) to follow PCI order.
     */
    static HostSpec dgxB200() {
        String[][] compute = {{"mlx5_4", "mlx5_7", "mlx5_8", "mlx5_9"}, {"mlx5_10", "mlx5_13", "mlx5_14", "mlx5_15"}};
        List<HostSpec.SocketSpec> sockets = new ArrayList<>();
        for (int s = 0; s < 2; s++) {
            List<HostSpec.DeviceSpec> devices = new ArrayList<>();
            if (s == 0) {
                for (String other : List.of("mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3")) {
                    devices.add(storagePort(other));
                }
            }
            for (int i = 0; i < 4; i++) {
                int k = s * 4 + i;
                devices.add(pixPair("pcie-switch" + k, GpuModel.B200, "GPU" + k,
                        HostSpec.NicSpec.of(compute[s][i], NicModel.CX7, LinkLayer.INFINIBAND)));
                // PCI order: socket 0's dual-port card (mlx5_5-6) follows GPU0's port, socket 1's (mlx5_11-12) GPU4's
                if (i == 0) {
                    String[] card = s == 0 ? new String[] {"mlx5_5", "mlx5_6"} : new String[] {"mlx5_11", "mlx5_12"};
                    devices.add(new HostSpec.SwitchSpec("bf3-" + s, NicModel.CX7.hostLink(),
                            List.of(storagePort(card[0]), storagePort(card[1]))));
                }
            }
            sockets.add(new HostSpec.SocketSpec(s, EMR_MEMORY_BW, 1L << 40, s == 0 ? "0-55,112-167" : "56-111,168-223",
                    devices));
        }
        return new HostSpec("DGX B200", CpuFamily.INTEL_EMERALD_RAPIDS, EMR_UPI_BW, sockets,
                "NVIDIA DGX B200 user guide (hardware overview); device names and GPU/NIC pairs from " + DGX_B200_DUMPS
                        + "; non-compute ports' roles and link layers assumed");
    }

    /** A port off the compute fabric, Ethernet (assumed), a lane only where named. */
    private static HostSpec.NicSpec storagePort(String name) {
        return HostSpec.NicSpec.of(name, NicModel.CX7, LinkLayer.ROCE).withRole(NicRole.STORAGE);
    }

    /**
     * Two sockets (memory bandwidth {@code memoryBandwidth} each) with four PCIe Gen5 switches each, behind each switch GPU{@code k} and
     * one ConnectX-7 400G InfiniBand port named {@code nicPrefix + k}.
     */
    private static List<HostSpec.SocketSpec> fourPixPairsPerSocket(GpuModel gpu, String nicPrefix, double memoryBandwidth,
            long memoryPerSocket, String socket0Cpus, String socket1Cpus) {
        List<HostSpec.SocketSpec> sockets = new ArrayList<>();
        for (int s = 0; s < 2; s++) {
            List<HostSpec.DeviceSpec> switches = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                int k = s * 4 + i;
                switches.add(pixPair("pcie-switch" + k, gpu, "GPU" + k,
                        HostSpec.NicSpec.of(nicPrefix + k, NicModel.CX7, LinkLayer.INFINIBAND)));
            }
            sockets.add(new HostSpec.SocketSpec(s, memoryBandwidth, memoryPerSocket, s == 0 ? socket0Cpus : socket1Cpus,
                    switches));
        }
        return sockets;
    }

    /** One GPU (on its own host link, 18 NVLinks) and one NIC behind one PCIe switch uplinked Gen5 x16: PIX. */
    private static HostSpec.SwitchSpec pixPair(String switchName, GpuModel gpu, String gpuName, HostSpec.NicSpec nic) {
        return new HostSpec.SwitchSpec(switchName, LinkSpec.pcie(PcieGen.GEN5, 16), List.of(
                new HostSpec.GpuSpec(gpuName, gpu, gpu.hostLink(), gpu.hbmBytes(), gpu.bar1Bytes(), 18), nic));
    }

    // NVIDIA Grace: up to 512 GB/s LPDDR5X per CPU (Grace CPU datasheet); NVLink-C2C 900 GB/s
    // bidirectional between Grace and its Blackwell GPUs (GB200 NVL72 specifications), taken here as
    // one 450 GB/s-per-direction link per GPU.
    private static final double GRACE_MEMORY_BW = 512e9;
    private static final double C2C_PER_DIRECTION = 450e9;
    // ASSUMPTION, held in the gb200-roce calibration profile: bandwidth between the two Grace CPUs of
    // one compute tray, per direction (no public figure was found). A tray whose own profile has a
    // graceToGrace takes that one instead (HostSpec.interSocket(profile)).
    private static final double GRACE_TO_GRACE = CalibrationProfile.named("gb200-roce")
            .require(ProfileKey.GRACE_TO_GRACE).bytesPerSecond();

    /**
     * GB200 NVL72 compute tray as a cloud VM shows it: 2 Grace CPUs (one NUMA node each), 2 B200 per
     * Grace over NVLink-C2C, 4 ConnectX-7 400G reached through the Grace root complexes, 2 per Grace:
     * GPU/NIC relations are NODE (same Grace) or SYS (other Grace), never PIX (Mellanox/ngc_multinode_perf
     * PR #129 [ngc-perf-129]). RoCE, as in the GKE pod of ai-dynamo/modelexpress #449 [mx-issue-449],
     * which exposes only the four ConnectX-7s. Their names, mlx5_0-1 on the first Grace and mlx5_2-3 on
     * the second, are those of that deployment: an ASSUMPTION, since the VM's naming is not published.
     * The tray as NVIDIA documents it, BlueField-3 ports and all, is {@link #dgxGb200Tray}.
     */
    static HostSpec gb200Tray() {
        List<HostSpec.SocketSpec> sockets = new ArrayList<>();
        for (int s = 0; s < 2; s++) {
            List<HostSpec.DeviceSpec> devices = new ArrayList<>(graceGpus(s));
            for (int i = 0; i < 2; i++) {
                int k = s * 2 + i;
                devices.add(HostSpec.NicSpec.of("mlx5_" + k, NicModel.CX7, LinkLayer.ROCE));
            }
            sockets.add(graceSocket(s, devices));
        }
        return new HostSpec("GB200 NVL72 compute tray", CpuFamily.NVIDIA_GRACE, GRACE_TO_GRACE, sockets,
                "NVIDIA GB200 NVL72 specifications [gb200-spec]; Mellanox/ngc_multinode_perf PR #129 [ngc-perf-129]")
                .withInterSocketFrom(ProfileKey.GRACE_TO_GRACE, "gb200-roce");
    }

    /** Where the DGX GB200 compute tray's port names come from. */
    static final String DGX_GB200_GUIDE = "NVIDIA Mission Control North-South Network GB200 Deployment Guide 2.3.0, "
            + "\"Compute Tray Network Ports\" > \"GB200 Compute Tray\", table of network interface names "
            + "(https://docs.nvidia.com/mission-control/docs/ext-north-south-network-gb200-deploy-guide/2.3.0/"
            + "ext-north-south-network-gb200-intro.html)";

    /**
     * The NVIDIA DGX GB200 compute tray with its ports named as NVIDIA documents them ({@link #DGX_GB200_GUIDE}):
     * <ul>
     *   <li>the four ConnectX-7 InfiniBand compute ports (OSFP, 400G): Left Bay OSFP P3, PCIe 00:03:00.0,
     *       mlx5_0; Left Bay OSFP P4, 02:03:00.0, mlx5_1; Right Bay OSFP P3, 10:03:00.0, mlx5_4; Right Bay
     *       OSFP P4, 12:03:00.0, mlx5_5;</li>
     *   <li>the BlueField-3 ports (QSFP, Ethernet): Left Bay BF3 P1, 06:03:00.0, mlx5_2; Left Bay BF3 P2,
     *       06:03:00.1, mlx5_3; Right Bay BF3 P1, 16:03:00.0, mlx5_6; and Right Bay BF3 P2 as mlx5_7 at
     *       16:03:00.1, INFERRED (that last row was not checked against the guide) from the left card's
     *       second function and from mlx5 numbers following PCI order (00, 02, 06.0, 06.1, 10, 12, 16.0, 16.1).</li>
     * </ul>
     * PCI domains 0x00-0x06 are put on the first Grace and 0x10-0x16 on the second: ASSUMED (the guide
     * gives no NUMA node; the split matches two ConnectX-7 per Grace, Mellanox/ngc_multinode_perf PR #129
     * [ngc-perf-129], and the domain's high digit as the socket). The GB200 NVL Multi-Node Tuning Guide
     * ("Understanding Your Grace-Blackwell Systems", Network Overview,
     * https://docs.nvidia.com/multi-node-nvlink-systems/multi-node-tuning-guide/system.html) wires the two
     * BlueField-3 NICs to the Ethernet external network (400G ports) and in-band management network (200G
     * ports), not to the InfiniBand compute fabric: they are {@link NicRole#STORAGE} ports, lane candidates
     * only where a user names them, as on {@link #dgxH100}. Which port runs at 200G is not said, so each is
     * given a ConnectX-7 port's 400G (BlueField-3's network interfaces are ConnectX-7 compatible: NVIDIA
     * DOCA, "DPU Functional Diagram"); each card's two ports share its Gen5 x16 link. Grace, NVLink-C2C and
     * B200 are {@link #gb200Tray}'s.
     */
    static HostSpec dgxGb200Tray() {
        String[][] compute = {{"mlx5_0", "mlx5_1"}, {"mlx5_4", "mlx5_5"}};
        String[][] blueField = {{"mlx5_2", "mlx5_3"}, {"mlx5_6", "mlx5_7"}};
        String[] bay = {"left", "right"};
        List<HostSpec.SocketSpec> sockets = new ArrayList<>();
        for (int s = 0; s < 2; s++) {
            List<HostSpec.DeviceSpec> devices = new ArrayList<>(graceGpus(s));
            for (String name : compute[s]) {
                devices.add(HostSpec.NicSpec.of(name, NicModel.CX7, LinkLayer.INFINIBAND));
            }
            List<HostSpec.DeviceSpec> ports = new ArrayList<>();
            for (String name : blueField[s]) {
                ports.add(HostSpec.NicSpec.of(name, NicModel.CX7, LinkLayer.ROCE).withRole(NicRole.STORAGE));
            }
            devices.add(new HostSpec.SwitchSpec("bf3-" + bay[s] + "-bay", NicModel.CX7.hostLink(), ports));
            sockets.add(graceSocket(s, devices));
        }
        return new HostSpec("DGX GB200 compute tray", CpuFamily.NVIDIA_GRACE, GRACE_TO_GRACE, sockets,
                DGX_GB200_GUIDE + "; NVIDIA GB200 NVL Multi-Node Tuning Guide (BlueField-3 networks); "
                        + "Grace per PCI domain assumed").withInterSocketFrom(ProfileKey.GRACE_TO_GRACE, "gb200-roce");
    }

    /** Grace {@code grace}'s two B200, GPU{@code 2g} and GPU{@code 2g+1}, each on its own NVLink-C2C link. */
    private static List<HostSpec.DeviceSpec> graceGpus(int grace) {
        return graceGpus(grace, GpuModel.B200);
    }

    /** Grace {@code grace}'s two GPUs of {@code model}, each on its own NVLink-C2C link. */
    private static List<HostSpec.DeviceSpec> graceGpus(int grace, GpuModel model) {
        List<HostSpec.DeviceSpec> gpus = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            gpus.add(new HostSpec.GpuSpec("GPU" + (grace * 2 + i), model, LinkSpec.c2c(C2C_PER_DIRECTION),
                    model.hbmBytes(), model.bar1Bytes(), 18));
        }
        return gpus;
    }

    /** One Grace of a GB200 or GB300 tray: its LPDDR5X, 480 GiB, its 72 cores, and the devices below it. */
    private static HostSpec.SocketSpec graceSocket(int grace, List<HostSpec.DeviceSpec> devices) {
        return new HostSpec.SocketSpec(grace, GRACE_MEMORY_BW, 480L << 30, grace == 0 ? "0-71" : "72-143", devices);
    }

    /**
     * GB300 NVL72 compute tray: 2 Grace, 4 B300 (Blackwell Ultra), 4 ConnectX-8 800G XDR InfiniBand. Where
     * each B300 sits is the gb300-ib profile's assumption {@code gpuBehindNicSwitch}: 1 (shipped), behind
     * its own ConnectX-8's integrated PCIe Gen6 switch (GPU-NIC PIX), the switch reaching its Grace at Gen5
     * x16; 0, as on the GB200 tray, GPUs on NVLink-C2C and NICs on the Grace root complexes (GPU-NIC
     * NODE or SYS), each NIC held to Grace's Gen5 x16.
     */
    static HostSpec gb300Tray() {
        boolean behind = CalibrationProfile.named("gb300-ib").require(ProfileKey.GPU_BEHIND_NIC_SWITCH).value() == 1;
        // the other layout rides along, so a host bound to a profile whose flag differs is laid out as it says
        return gb300Tray(behind).withLayout(ProfileKey.GPU_BEHIND_NIC_SWITCH, behind, gb300Tray(!behind));
    }

    static HostSpec gb300Tray(boolean gpuBehindNicSwitch) {
        List<HostSpec.SocketSpec> sockets = new ArrayList<>();
        for (int s = 0; s < 2; s++) {
            List<HostSpec.DeviceSpec> devices = new ArrayList<>();
            if (!gpuBehindNicSwitch) {
                devices.addAll(graceGpus(s, GpuModel.GB300));
            }
            for (int i = 0; i < 2; i++) {
                int k = s * 2 + i;
                HostSpec.NicSpec cx8 = HostSpec.NicSpec.of("mlx5_" + k, NicModel.CX8, LinkLayer.INFINIBAND);
                devices.add(gpuBehindNicSwitch ? pixPair("cx8-switch" + k, GpuModel.GB300, "GPU" + k, cx8)
                        // Grace is a Gen5 root complex: the NIC's own Gen6 x16 port trains at Gen5 x16
                        : new HostSpec.NicSpec(cx8.name(), cx8.model(), cx8.linkLayer(), LinkSpec.pcie(PcieGen.GEN5, 16),
                                cx8.port(), cx8.lineRateGbps(), cx8.relaxedOrdering()));
            }
            sockets.add(graceSocket(s, devices));
        }
        double graceToGrace = CalibrationProfile.named("gb300-ib").require(ProfileKey.GRACE_TO_GRACE).bytesPerSecond();
        return new HostSpec("GB300 NVL72 compute tray", CpuFamily.NVIDIA_GRACE, graceToGrace, sockets,
                "NVIDIA GB300 NVL72 enterprise reference architecture (compute tray: 2 Grace, 4 Blackwell Ultra, "
                        + "4 ConnectX-8); GPU " + (gpuBehindNicSwitch ? "behind its ConnectX-8's PCIe switch"
                                : "on NVLink-C2C, NICs on the Grace root complexes") + " assumed (profile gb300-ib)")
                .withInterSocketFrom(ProfileKey.GRACE_TO_GRACE, "gb300-ib");
    }

    // AMD EPYC 7R13 (Milan, p5.48xlarge): 8 channels of DDR4-3200 per socket = 204.8 GB/s (AMD EPYC 7003
    // specifications); p5.48xlarge has 2 TiB of memory and 192 vCPUs (AWS EC2 P5 instance page).
    private static final double MILAN_MEMORY_BW = 204.8e9;
    // Intel Xeon 5th generation (Emerald Rapids, p6-b200): 8 channels of DDR5-5600 per socket = 358.4 GB/s.
    private static final double EMR_MEMORY_BW = 358.4e9;
    /** The hwloc dumps of AWS instances that NIXL ships: ai-dynamo/nixl v1.4.0 test/unit/utils/libfabric/topo/. */
    private static final String NIXL_TOPO = "ai-dynamo/nixl v1.4.0 test/unit/utils/libfabric/topo/";

    /**
     * p5.48xlarge, following {@code p5.48xl-topo.xml} (an hwloc dump, Apache-2.0). Two sockets, each with
     * four PCIe trees; each tree ends in one switch holding four EFA devices (1d0f:efa1, 15.75 GB/s =
     * Gen4 x8, named {@code rdmapBBs0} after their decimal bus), one H100 (10de:2330, Gen5 x16) and an
     * NVMe drive (not modelled; nor the ENA functions 1d0f:ec20 beside the EFAs, which carry no RDMA).
     */
    static HostSpec p5() {
        return awsInstance("AWS p5.48xlarge", GpuModel.H100, NicModel.EFA2, CpuFamily.AMD_MILAN, MILAN_MEMORY_BW,
                "0-47,96-143", "48-95,144-191", 1, new int[][] {{79, 80, 81, 82}, {96, 97, 98, 99}, {113, 114, 115, 116},
                        {130, 131, 132, 133}, {147, 148, 149, 150}, {164, 165, 166, 167}, {181, 182, 183, 184},
                        {198, 199, 200, 201}},
                NIXL_TOPO + "p5.48xl-topo.xml; AWS EC2 user guide (P5: 32 network cards, 3200 Gbps)");
    }

    /**
     * p5en.48xlarge, following {@code p5en.48xl-topo.xml}: four switches, two per socket, each holding
     * four EFA devices (1d0f:efa2, 31.5 GB/s) and two H200 (10de:2335); NIXL's grouping gives each GPU
     * two of its switch's four devices. AWS: 3200 Gbps over 16 devices, Sapphire Rapids CPUs.
     */
    static HostSpec p5en() {
        return awsInstance("AWS p5en.48xlarge", GpuModel.H200, NicModel.EFA3, CpuFamily.INTEL_SAPPHIRE_RAPIDS,
                SPR_MEMORY_BW, "0-47,96-143", "48-95,144-191", 2, new int[][] {{85, 86, 87, 88}, {110, 111, 112, 113},
                        {135, 136, 137, 138}, {160, 161, 162, 163}},
                NIXL_TOPO + "p5en.48xl-topo.xml; AWS EC2 user guide (P5en: 3200 Gbps)");
    }

    /**
     * p6-b200.48xlarge, following {@code p6-b200.48xl-topo.xml}: four switches, two per socket, each
     * holding two EFA devices (1d0f:efa3, 63.0 GB/s = Gen5 x16) and two B200 (10de:2901): one device per
     * GPU. AWS: 3200 Gbps over 8 devices, Emerald Rapids CPUs.
     */
    static HostSpec p6b200() {
        return awsInstance("AWS p6-b200.48xlarge", GpuModel.B200, NicModel.EFA4, CpuFamily.INTEL_EMERALD_RAPIDS,
                EMR_MEMORY_BW, "0-47,96-143", "48-95,144-191", 2, new int[][] {{79, 80}, {96, 97}, {113, 114}, {132, 133}},
                NIXL_TOPO + "p6-b200.48xl-topo.xml; AWS EC2 user guide (P6-B200: 3200 Gbps)");
    }

    /**
     * An AWS GPU instance as its hwloc dump shows it: two sockets (the CPU lists of the dumps' Package
     * cpusets), half the switches on each, behind each switch {@code gpusPerSwitch} GPUs and the EFA
     * devices whose decimal bus numbers {@code efaBuses} lists. 1 TiB per socket (the dumps'
     * local_memory). The switch uplink is reported at the VM's virtual bridges' speed; its physical
     * width is not public and is taken as Gen5 x16 (GPU memory does not cross it: each GPU's EFA devices
     * share its switch).
     */
    private static HostSpec awsInstance(String model, GpuModel gpu, NicModel efa, CpuFamily cpu, double memoryBandwidth,
            String socket0Cpus, String socket1Cpus, int gpusPerSwitch, int[][] efaBuses, String source) {
        List<HostSpec.SocketSpec> sockets = new ArrayList<>();
        int perSocket = efaBuses.length / 2;
        int gpuIndex = 0;
        for (int s = 0; s < 2; s++) {
            List<HostSpec.DeviceSpec> switches = new ArrayList<>();
            for (int i = 0; i < perSocket; i++) {
                int k = s * perSocket + i;
                List<HostSpec.DeviceSpec> under = new ArrayList<>();
                for (int g = 0; g < gpusPerSwitch; g++) {
                    under.add(new HostSpec.GpuSpec("GPU" + gpuIndex++, gpu, gpu.hostLink(), gpu.hbmBytes(),
                            gpu.bar1Bytes(), 18));
                }
                for (int bus : efaBuses[k]) {
                    under.add(HostSpec.NicSpec.of("rdmap" + bus + "s0", efa, LinkLayer.EFA));
                }
                switches.add(new HostSpec.SwitchSpec("pcie-switch" + k, LinkSpec.pcie(PcieGen.GEN5, 16), under));
            }
            sockets.add(new HostSpec.SocketSpec(s, memoryBandwidth, 1L << 40, s == 0 ? socket0Cpus : socket1Cpus,
                    switches));
        }
        double interSocket = CalibrationProfile.named("aws-efa").require(ProfileKey.INTER_SOCKET).bytesPerSecond();
        return new HostSpec(model, cpu, interSocket, sockets, source).withInterSocketFrom(ProfileKey.INTER_SOCKET, "aws-efa");
    }

    /**
     * Azure ND H100 v5 (Standard_ND96isr_H100_v5), following the topology file Azure publishes for NCCL:
     * Azure/azhpc-images {@code topology/ndv5-topo.xml}. Two Sapphire Rapids 8480C sockets (NUMA 0 and
     * 1), each with four PCIe Gen5 switches; behind each switch one H100 and one ConnectX-7 400G NDR
     * InfiniBand port (class 0x020700, Gen5 x16, named mlx5_ib0..7 in the file's order), GPU-NIC PIX. The
     * file gives NUMA node 0 the CPUs 48-95 and node 1 the CPUs 0-47 (its affinity masks). 1.9 TiB of
     * memory in all.
     */
    static HostSpec azureNdv5() {
        List<HostSpec.SocketSpec> sockets = fourPixPairsPerSocket(GpuModel.H100, "mlx5_ib", SPR_MEMORY_BW, 950L << 30, "48-95", "0-47");
        return new HostSpec("Azure ND H100 v5", CpuFamily.INTEL_SAPPHIRE_RAPIDS, SPR_UPI_BW, sockets,
                "Azure/azhpc-images topology/ndv5-topo.xml; Azure ND H100 v5 series documentation");
    }

    /** Shape of a parameterised host. */
    public record GenericHost(int sockets, int gpusPerSocket, int nicsPerGpu, GpuModel gpu, NicModel nic,
            LinkLayer linkLayer, PathType gpuNicRelation, CpuFamily cpu, double memoryBandwidth,
            double interSocket) {
        public static GenericHost defaults() {
            return new GenericHost(2, 4, 1, GpuModel.H100, NicModel.CX7, LinkLayer.INFINIBAND, PathType.PIX,
                    CpuFamily.INTEL_SAPPHIRE_RAPIDS, SPR_MEMORY_BW, SPR_UPI_BW);
        }
    }

    /**
     * A host with {@code gpusPerSocket} GPUs per socket, each with {@code nicsPerGpu} NICs placed so
     * that the GPU/NIC relation is PIX (same switch), PXB (two switch levels), PHB (same host bridge)
     * or NODE (separate root ports).
     */
    public static HostSpec generic(GenericHost g) {
        if (g.sockets() < 1 || g.gpusPerSocket() < 0 || g.nicsPerGpu() < 0) {
            throw new IllegalArgumentException("generic host needs sockets >= 1, gpusPerSocket >= 0, nicsPerGpu >= 0");
        }
        List<HostSpec.SocketSpec> sockets = new ArrayList<>();
        int nicIndex = 0;
        for (int s = 0; s < g.sockets(); s++) {
            List<HostSpec.DeviceSpec> devices = new ArrayList<>();
            for (int i = 0; i < g.gpusPerSocket(); i++) {
                int k = s * g.gpusPerSocket() + i;
                HostSpec.GpuSpec gpu = new HostSpec.GpuSpec("GPU" + k, g.gpu(), g.gpu().hostLink(), g.gpu().hbmBytes(),
                        g.gpu().bar1Bytes(), 0);
                List<HostSpec.DeviceSpec> nics = new ArrayList<>();
                for (int j = 0; j < g.nicsPerGpu(); j++) {
                    nics.add(HostSpec.NicSpec.of("mlx5_" + nicIndex++, g.nic(), g.linkLayer()));
                }
                LinkSpec uplink = LinkSpec.pcie(PcieGen.GEN5, 16);
                switch (g.gpuNicRelation()) {
                    case PIX -> {
                        List<HostSpec.DeviceSpec> under = new ArrayList<>();
                        under.add(gpu);
                        under.addAll(nics);
                        devices.add(new HostSpec.SwitchSpec("pcie-switch" + k, uplink, under));
                    }
                    case PXB -> devices.add(new HostSpec.SwitchSpec("pcie-switch" + k, uplink, List.of(
                            new HostSpec.SwitchSpec("pcie-switch" + k + "a", uplink, List.of(gpu)),
                            new HostSpec.SwitchSpec("pcie-switch" + k + "b", uplink, nics))));
                    case PHB -> {
                        List<HostSpec.DeviceSpec> under = new ArrayList<>();
                        under.add(gpu);
                        under.addAll(nics);
                        devices.add(new HostSpec.HostBridgeSpec("host-bridge" + k, under));
                    }
                    case NODE -> {
                        devices.add(gpu);
                        devices.addAll(nics);
                    }
                    default -> throw new IllegalArgumentException(
                            "generic host: gpuNicRelation must be PIX, PXB, PHB or NODE, got " + g.gpuNicRelation());
                }
            }
            sockets.add(new HostSpec.SocketSpec(s, g.memoryBandwidth(), 1L << 40, "", devices));
        }
        return new HostSpec("generic host", g.cpu(), g.interSocket(), sockets, "parameterised generic host");
    }
}
