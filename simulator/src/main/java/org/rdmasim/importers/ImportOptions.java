package org.rdmasim.importers;

import org.rdmasim.hardware.CpuFamily;
import org.rdmasim.hardware.GpuModel;
import org.rdmasim.hardware.LinkLayer;
import org.rdmasim.hardware.LinkSpec;
import org.rdmasim.hardware.NicModel;

/**
 * What an importer cannot read from a file and takes from the user instead. A null field means
 * "infer": from the file where it says (an NCCL {@code <gpu sm>} or {@code <net speed>}), otherwise
 * from the defaults named in each reader, each one reported as an {@link ImportWarning}.
 *
 * @param gpuModel     model of every GPU; null: from the file, else H100
 * @param nicModel     model of every NIC; null: from the file's line rate, else ConnectX-7
 * @param linkLayer    wire of every NIC; neither file format says, so InfiniBand unless told
 * @param switchUplink uplink of every PCIe switch; null: the fastest link below the switch
 * @param cpuFamily    CPU of the host; null: from the file, else Sapphire Rapids
 * @param nics         per-device model and role ({@link NicChoices}); none: the defaults above, storage ports inferred
 */
public record ImportOptions(GpuModel gpuModel, NicModel nicModel, LinkLayer linkLayer, LinkSpec switchUplink,
        CpuFamily cpuFamily, NicChoices nics) {
    public ImportOptions {
        if (linkLayer == null) {
            linkLayer = LinkLayer.INFINIBAND;
        }
        if (nics == null) {
            nics = NicChoices.none();
        }
    }

    public ImportOptions(GpuModel gpuModel, NicModel nicModel, LinkLayer linkLayer, LinkSpec switchUplink,
            CpuFamily cpuFamily) {
        this(gpuModel, nicModel, linkLayer, switchUplink, cpuFamily, NicChoices.none());
    }

    public static ImportOptions defaults() {
        return new ImportOptions(null, null, LinkLayer.INFINIBAND, null, null);
    }

    public ImportOptions withNics(NicChoices choices) {
        return new ImportOptions(gpuModel, nicModel, linkLayer, switchUplink, cpuFamily, choices);
    }

    public ImportOptions withGpuModel(GpuModel model) {
        return new ImportOptions(model, nicModel, linkLayer, switchUplink, cpuFamily, nics);
    }

    public ImportOptions withNicModel(NicModel model) {
        return new ImportOptions(gpuModel, model, linkLayer, switchUplink, cpuFamily, nics);
    }

    public ImportOptions withLinkLayer(LinkLayer layer) {
        return new ImportOptions(gpuModel, nicModel, layer, switchUplink, cpuFamily, nics);
    }

    public ImportOptions withCpuFamily(CpuFamily family) {
        return new ImportOptions(gpuModel, nicModel, linkLayer, switchUplink, family, nics);
    }
}
