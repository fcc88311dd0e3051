package org.rdmasim.importers.nccl;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.rdmasim.hardware.CpuFamily;
import org.rdmasim.hardware.GpuModel;
import org.rdmasim.hardware.NicModel;
import org.rdmasim.hardware.PcieGen;

/**
 * The words of NCCL's topology XML and what they mean here, both ways (reader and writer share it).
 * Sources: NVIDIA/nccl src/graph/topo.cc ({@code kvDictPciClass}, {@code kvDictPciGen}, the
 * {@code width == 0 -> 16} rule) and src/graph/xml.cc (which attributes the dump writes); PCI class
 * codes from the PCI-SIG code and ID assignment specification; NVIDIA device ids from the PCI ID
 * repository (pci-ids.ucw.cz).
 */
final class NcclVocabulary {
    private NcclVocabulary() {
    }

    /** What a {@code <pci>} element is, from its class code (NCCL matches class prefixes the same way). */
    enum PciRole { BRIDGE, HOST_BRIDGE, GPU, NIC, NVSWITCH, OTHER }

    static final String BRIDGE_CLASS = "0x060400";
    /** PCI class 06/00 is a host bridge; NCCL itself never writes one, our writer does to keep PHB. */
    static final String HOST_BRIDGE_CLASS = "0x060000";
    static final String GPU_CLASS = "0x030200";
    static final String IB_NIC_CLASS = "0x020700";
    static final String ETHERNET_NIC_CLASS = "0x020000";
    /** The NVSwitch target NCCL writes for GPUs of an NVLink domain (seen in GB200/GB300 dumps). */
    static final String NVSWITCH_TARGET = "fffffff:ff:ff.0";
    static final String NVSWITCH_CLASS = "0x068000";

    /** PCI vendor ids (PCI ID repository): NVIDIA, AMD/ATI, Mellanox/NVIDIA networking, Amazon (EFA). */
    static final String NVIDIA_VENDOR = "0x10de";
    static final String AMD_VENDOR = "0x1002";
    static final String MELLANOX_VENDOR = "0x15b3";
    static final String AMAZON_VENDOR = "0x1d0f";

    /**
     * What a {@code <pci>} is from its class and vendor. Besides display controllers (0x03, NCCL's
     * {@code kvDictPciClass} in src/graph/topo.cc), AMD Instinct GPUs carry class 0x120000 (processing
     * accelerator) in RCCL's topology files (ROCm/rccl tools/topo_expl/models/topo_8p_942vm.xml lists
     * MI300X so, with a {@code <gpu gcn>} child). ASSUMPTION: read as GPUs when the vendor is AMD's;
     * where RCCL's own parser maps that class was not checked.
     */
    static PciRole role(String pciClass, String vendor) {
        String c = pciClass.trim().toLowerCase(Locale.ROOT);
        if (c.startsWith("0x12") && vendor != null && vendor.trim().equalsIgnoreCase(AMD_VENDOR)) {
            return PciRole.GPU;
        }
        return role(c);
    }

    static PciRole role(String pciClass) {
        String c = pciClass.trim().toLowerCase(Locale.ROOT);
        if (c.startsWith("0x0604")) {
            return PciRole.BRIDGE;
        }
        if (c.startsWith("0x0600")) {
            return PciRole.HOST_BRIDGE;
        }
        if (c.startsWith("0x0680")) {
            return PciRole.NVSWITCH; // 0x068000 NVSwitch, 0x068001 the CPU end of a C2C link: not devices we model
        }
        if (c.startsWith("0x03")) {
            return PciRole.GPU;
        }
        if (c.startsWith("0x02")) {
            return PciRole.NIC;
        }
        return PciRole.OTHER;
    }

    /**
     * PCIe generation of a {@code link_speed} such as "32.0 GT/s PCIe" or, from kernels up to 5.6,
     * "16 GT/s". Empty when the speed is below Gen3 (2.5 and 5 GT/s: virtual bridges of cloud VMs
     * report these) or unknown.
     *
     * @throws IllegalArgumentException when the text is not a speed at all
     */
    static Optional<PcieGen> generation(String linkSpeed) {
        String t = linkSpeed.trim();
        if (t.isEmpty() || t.toLowerCase(Locale.ROOT).startsWith("unknown")) {
            return Optional.empty();
        }
        String number = t.split("\\s+")[0];
        double gts;
        try {
            gts = Double.parseDouble(number);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("link_speed '" + linkSpeed + "' is not a PCIe speed");
        }
        if (!t.contains("GT/s")) {
            throw new IllegalArgumentException("link_speed '" + linkSpeed + "' has no GT/s unit");
        }
        if (gts < 7.5) {
            return Optional.empty();
        }
        return Optional.of(PcieGen.fromGigatransfers(gts));
    }

    static String linkSpeed(PcieGen gen) {
        return String.format(Locale.ROOT, "%.1f GT/s PCIe", gen.gigatransfersPerSecond());
    }

    /** GPU model from compute capability and, where sm alone is ambiguous (H100 vs H200), the device id. */
    static Optional<GpuModel> gpuModel(int sm, String deviceId) {
        String dev = deviceId == null ? "" : deviceId.trim().toLowerCase(Locale.ROOT);
        return switch (sm) {
            case 75 -> Optional.of(GpuModel.T4);
            case 80 -> Optional.of(GpuModel.A100);
            // 0x2335 H200 SXM 141GB, 0x233b H200 NVL; 0x2330 H100 SXM5 and the rest of GH100 are H100
            case 90 -> Optional.of(dev.equals("0x2335") || dev.equals("0x233b") ? GpuModel.H200 : GpuModel.H100);
            case 100 -> Optional.of(GpuModel.B200);
            case 103 -> Optional.of(GpuModel.GB300);
            default -> Optional.empty();
        };
    }

    /** GPU model from the PCI device id alone (files such as Azure's ndv4-topo.xml carry no {@code <gpu>}). */
    static Optional<GpuModel> gpuModel(String deviceId) {
        if (deviceId == null) {
            return Optional.empty();
        }
        return switch (deviceId.trim().toLowerCase(Locale.ROOT)) {
            case "0x1eb8" -> Optional.of(GpuModel.T4);
            case "0x20b0", "0x20b2", "0x20b5" -> Optional.of(GpuModel.A100);
            case "0x2330", "0x2331", "0x2321" -> Optional.of(GpuModel.H100);
            case "0x2335", "0x233b" -> Optional.of(GpuModel.H200);
            case "0x2901" -> Optional.of(GpuModel.B200);
            default -> Optional.empty();
        };
    }

    static int sm(GpuModel m) {
        return switch (m) {
            case T4 -> 75;
            case A100 -> 80;
            case H100, H200 -> 90;
            case B200 -> 100;
            case GB300 -> 103;
        };
    }

    static String deviceId(GpuModel m) {
        return switch (m) {
            case T4 -> "0x1eb8";
            case A100 -> "0x20b2";
            case H100 -> "0x2330";
            case H200 -> "0x2335";
            case B200 -> "0x2901";
            case GB300 -> "0x0000"; // no public id found; sm 103 alone identifies it on reading
        };
    }

    /**
     * NIC product from PCI vendor and device id: ConnectX device ids from the PCI ID repository
     * (15b3:1017 ConnectX-5, 1019 ConnectX-5 Ex, 101b ConnectX-6, 101d ConnectX-6 Dx, 1021 ConnectX-7,
     * 1023 ConnectX-8); Amazon's EFA functions 1d0f:efa0..efa3 (Linux drivers/infiniband/hw/efa/efa_main.c
     * PCI_DEV_ID_EFA*_VF), named EFA, EFA2, EFA3, EFA4 by generation. Empty when the ids are not known.
     */
    static Optional<String> nicProduct(String vendor, String device) {
        String v = vendor == null ? "" : vendor.trim().toLowerCase(Locale.ROOT);
        String d = device == null ? "" : device.trim().toLowerCase(Locale.ROOT);
        if (v.equals(AMAZON_VENDOR)) {
            return switch (d) {
                case "0xefa0" -> Optional.of("EFA");
                case "0xefa1" -> Optional.of("EFA2");
                case "0xefa2" -> Optional.of("EFA3");
                case "0xefa3" -> Optional.of("EFA4");
                default -> Optional.of("EFA");
            };
        }
        if (v.equals(MELLANOX_VENDOR)) {
            return switch (d) {
                case "0x1017", "0x1019" -> Optional.of("CX5");
                case "0x101b", "0x101d", "0x101f" -> Optional.of("CX6");
                case "0x1021" -> Optional.of("CX7");
                case "0x1023" -> Optional.of("CX8");
                default -> Optional.empty();
            };
        }
        return Optional.empty();
    }

    /**
     * The simulator's model for a product name from {@link #nicProduct}: the model of that name, or for
     * an EFA generation any EFA model, preferring the one whose line rate is {@code gbps} (0: unknown).
     */
    static Optional<NicModel> nicModelFor(String product, double gbps) {
        for (NicModel m : NicModel.values()) {
            if (m.name().equalsIgnoreCase(product)) {
                return Optional.of(m);
            }
        }
        if (product.startsWith("EFA")) {
            NicModel any = null;
            for (NicModel m : NicModel.values()) {
                if (m.name().toUpperCase(Locale.ROOT).startsWith("EFA")) {
                    if (gbps > 0 && m.lineRateGbps() == gbps) {
                        return Optional.of(m);
                    }
                    any = any == null ? m : any;
                }
            }
            return Optional.ofNullable(any);
        }
        return Optional.empty();
    }

    /** The PCI vendor to write for a NIC model with no identity from a file. */
    static String vendorOf(NicModel m) {
        return m.name().toUpperCase(Locale.ROOT).startsWith("EFA") ? AMAZON_VENDOR : MELLANOX_VENDOR;
    }

    /** ConnectX generation from a port speed: the slowest generation that reaches it [connectx-briefs]. */
    static NicModel nicModel(double gbps) {
        if (gbps <= 100) {
            return NicModel.CX5;
        }
        if (gbps <= 200) {
            return NicModel.CX6;
        }
        if (gbps <= 400) {
            return NicModel.CX7;
        }
        return NicModel.CX8;
    }

    /**
     * ConnectX generation from the PCIe generation of its slot, for NICs a file lists without a
     * {@code <net>} (Azure's ndv4 and ndv5 files): Gen3 ConnectX-5, Gen4 ConnectX-6 (HDR, as NDv4 has),
     * Gen5 ConnectX-7 (NDR, as NDv5 has), Gen6 ConnectX-8.
     */
    static NicModel nicModel(PcieGen gen) {
        return switch (gen) {
            case GEN3 -> NicModel.CX5;
            case GEN4 -> NicModel.CX6;
            case GEN5 -> NicModel.CX7;
            case GEN6 -> NicModel.CX8;
        };
    }

    /** GPU model from the PCIe generation of its slot, when nothing better is known: Gen4 A100, Gen3 T4, else H100. */
    static GpuModel gpuModel(PcieGen gen) {
        return switch (gen) {
            case GEN3 -> GpuModel.T4;
            case GEN4 -> GpuModel.A100;
            default -> GpuModel.H100;
        };
    }

    /**
     * CPU family from a {@code <cpu>}'s arch, vendor, familyid and modelid (CPUID family 6 model 143 is
     * Sapphire Rapids, 207 Emerald Rapids; Intel's processor identification tables).
     */
    static CpuFamily cpuFamily(String arch, String vendor, String familyId, String modelId) {
        if (arch != null && (arch.equals("arm64") || arch.equals("aarch64"))) {
            // ASSUMPTION: the only arm64 GPU hosts modelled are Grace-based (GB200, GH200).
            return CpuFamily.NVIDIA_GRACE;
        }
        if ("AuthenticAMD".equals(vendor)) {
            return amdGeneration(familyId, modelId);
        }
        if ("GenuineIntel".equals(vendor)) {
            if ("6".equals(familyId) && "143".equals(modelId)) {
                return CpuFamily.INTEL_SAPPHIRE_RAPIDS;
            }
            if ("6".equals(familyId) && "207".equals(modelId)) {
                return CpuFamily.INTEL_EMERALD_RAPIDS;
            }
            return CpuFamily.INTEL_OTHER;
        }
        return CpuFamily.OTHER;
    }

    /**
     * The AMD generation UCX reads from CPUID family and model ({@code ucs_arch_get_cpu_model}, openucx/ucx v1.20.0
     * src/ucs/arch/x86_64/cpu.c L464-494; NCCL writes both in decimal); {@link CpuFamily#AMD_ZEN} for any other.
     */
    static CpuFamily amdGeneration(String familyId, String modelId) {
        int family;
        int model;
        try {
            family = Integer.parseInt(familyId == null ? "" : familyId.trim());
            model = Integer.parseInt(modelId == null ? "" : modelId.trim());
        } catch (NumberFormatException e) {
            return CpuFamily.AMD_ZEN;
        }
        if (family == 0x17) {
            return model == 0x29 ? CpuFamily.AMD_NAPLES : model == 0x31 ? CpuFamily.AMD_ROME : CpuFamily.AMD_ZEN;
        }
        if (family == 0x19) {
            return model <= 0x01 ? CpuFamily.AMD_MILAN : model == 0x11 || model == 0x90 ? CpuFamily.AMD_GENOA
                    : CpuFamily.AMD_ZEN;
        }
        if (family == 0x1a && (model <= 0x2f || model >= 0x40 && model <= 0x4f || model >= 0x60 && model <= 0x7f)) {
            return CpuFamily.AMD_TURIN;
        }
        return CpuFamily.AMD_ZEN;
    }

    /** arch, vendor, familyid, modelid to write for a family (nulls are left out). */
    static String[] cpuAttributes(CpuFamily f) {
        return switch (f) {
            case INTEL_SAPPHIRE_RAPIDS -> new String[] {"x86_64", "GenuineIntel", "6", "143"};
            case INTEL_EMERALD_RAPIDS -> new String[] {"x86_64", "GenuineIntel", "6", "207"};
            case INTEL_OTHER -> new String[] {"x86_64", "GenuineIntel", "6", "106"}; // Ice Lake server
            case AMD_ZEN -> new String[] {"x86_64", "AuthenticAMD", null, null}; // no generation stated
            case AMD_NAPLES -> new String[] {"x86_64", "AuthenticAMD", "23", "41"};
            case AMD_ROME -> new String[] {"x86_64", "AuthenticAMD", "23", "49"};
            case AMD_MILAN -> new String[] {"x86_64", "AuthenticAMD", "25", "1"};
            case AMD_GENOA -> new String[] {"x86_64", "AuthenticAMD", "25", "17"};
            case AMD_TURIN -> new String[] {"x86_64", "AuthenticAMD", "26", "17"};
            case NVIDIA_GRACE -> new String[] {"arm64", null, null, null};
            case OTHER -> new String[] {"x86_64", null, null, null};
        };
    }

    /**
     * CPU list ("0-55,112-167", as nvidia-smi prints it) from a Linux cpumask as NCCL writes it:
     * comma-separated 32-bit hex words, most significant first.
     *
     * @throws IllegalArgumentException when the text is not a cpumask
     */
    static String cpuList(String mask) {
        String hex = mask.trim().replace(",", "");
        if (hex.isEmpty() || !hex.matches("(?i)[0-9a-f]+")) {
            throw new IllegalArgumentException("affinity '" + mask + "' is not a cpumask");
        }
        BigInteger bits = new BigInteger(hex, 16);
        List<String> ranges = new ArrayList<>();
        int cpu = bits.getLowestSetBit();
        while (cpu >= 0 && cpu < bits.bitLength()) {
            int end = cpu;
            while (bits.testBit(end + 1)) {
                end++;
            }
            ranges.add(end == cpu ? Integer.toString(cpu) : cpu + "-" + end);
            cpu = nextSetBit(bits, end + 1);
        }
        return String.join(",", ranges);
    }

    private static int nextSetBit(BigInteger bits, int from) {
        for (int i = from; i < bits.bitLength(); i++) {
            if (bits.testBit(i)) {
                return i;
            }
        }
        return -1;
    }

    /** One range of a CPU list: "7" or "0-55". */
    private static final java.util.regex.Pattern CPU_RANGE = java.util.regex.Pattern.compile("\\d{1,5}(-\\d{1,5})?");

    /** The cpumask for a CPU list; empty when the list is empty or not a list of CPU ranges. */

    static Optional<String> cpuMask(String cpuList) {
        String t = cpuList.trim();
        if (t.isEmpty() || t.length() > 10_000) {
            return Optional.empty();
        }
        // Each range is checked on its own: one regex over the whole list recurses once per range in
        // java.util.regex and overflowed the stack on a list of a few thousand CPUs.
        String[] rangeList = t.split(",", -1);
        for (String part : rangeList) {
            if (!CPU_RANGE.matcher(part).matches()) {
                return Optional.empty();
            }
        }
        BigInteger bits = BigInteger.ZERO;
        for (String part : rangeList) {
            String[] ends = part.split("-");
            int lo = Integer.parseInt(ends[0]);
            int hi = ends.length > 1 ? Integer.parseInt(ends[1]) : lo;
            for (int c = lo; c <= hi; c++) {
                bits = bits.setBit(c);
            }
        }
        String hex = bits.toString(16);
        int words = (hex.length() + 7) / 8;
        hex = "0".repeat(words * 8 - hex.length()) + hex;
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < words; i++) {
            parts.add(hex.substring(i * 8, i * 8 + 8));
        }
        return Optional.of(String.join(",", parts));
    }
}
