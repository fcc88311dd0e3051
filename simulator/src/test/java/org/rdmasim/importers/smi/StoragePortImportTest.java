package org.rdmasim.importers.smi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.NicModel;
import org.rdmasim.hardware.NicRole;
import org.rdmasim.importers.ImportException;
import org.rdmasim.importers.ImportOptions;
import org.rdmasim.importers.ImportResult;
import org.rdmasim.importers.NicChoices;

/** A topo -m matrix does not say which ports are storage: inferred with a loud warning, or told per device. */
class StoragePortImportTest {
    // Two GPUs, each with its own PIX port, and a dual-port card on the root ports (NODE from both GPUs),
    // as the DGX H100's storage card sits.
    private static final String MATRIX = "\tGPU0\tGPU1\tNIC0\tNIC1\tNIC2\tNIC3\tCPU Affinity\tNUMA Affinity\tGPU NUMA ID\n"
            + "GPU0\t X \tNV18\tPIX\tNODE\tNODE\tNODE\t0-31\t0\t\tN/A\n"
            + "GPU1\tNV18\t X \tNODE\tNODE\tNODE\tPIX\t0-31\t0\t\tN/A\n"
            + "NIC0\tPIX\tNODE\t X \tNODE\tNODE\tNODE\n"
            + "NIC1\tNODE\tNODE\tNODE\t X \tPIX\tNODE\n"
            + "NIC2\tNODE\tNODE\tNODE\tPIX\t X \tNODE\n"
            + "NIC3\tNODE\tPIX\tNODE\tNODE\tNODE\t X \n"
            + "\nNIC Legend:\n\n  NIC0: mlx5_0\n  NIC1: mlx5_1\n  NIC2: mlx5_2\n  NIC3: mlx5_3\n";

    private static ImportResult read(ImportOptions options) {
        return SmiTopologyReader.importText(MATRIX, "node.txt", options);
    }

    @Test
    void portsNearNoGpuAreTakenAsStorageWithAWarning() {
        ImportResult r = read(ImportOptions.defaults());
        Host h = new Host("h", r.single().spec());
        assertEquals(List.of("mlx5_0", "mlx5_3"), h.computeNics().stream().map(n -> n.name()).toList());
        assertEquals(java.util.Set.of("mlx5_1", "mlx5_2"), h.listedOnlyNics());
        assertTrue(r.warnings().stream().anyMatch(w -> w.message().startsWith("ASSUMED: mlx5_1, mlx5_2 taken as storage/management port(s)")
                && w.message().contains("--nic-model mlx5_1=compute")), r.warnings().toString());
    }

    @Test
    void perDeviceChoicesOverrideTheInferenceAndTheModel() {
        ImportResult r = read(ImportOptions.defaults().withNicModel(NicModel.CX7)
                .withNics(NicChoices.parse("mlx5_1=compute, mlx5_2=cx6:storage")));
        Host h = new Host("h", r.single().spec());
        assertEquals(NicRole.COMPUTE, h.nic("mlx5_1").nic().role());
        assertEquals(NicRole.STORAGE, h.nic("mlx5_2").nic().role());
        assertEquals(NicModel.CX6, h.nic("mlx5_2").nic().model());
        assertEquals(200.0, h.nic("mlx5_2").nic().lineRateGbps());
        assertTrue(r.warnings().stream().noneMatch(w -> w.message().contains("storage/management")), r.warnings().toString());
    }

    @Test
    void aChoiceForAMissingDeviceIsRefusedNamingTheDevices() {
        ImportException e = assertThrows(ImportException.class,
                () -> read(ImportOptions.defaults().withNics(NicChoices.parse("mlx5_9=storage"))));
        assertTrue(e.getMessage().contains("mlx5_9") && e.getMessage().contains("one of mlx5_0, mlx5_3, mlx5_1, mlx5_2"),
                e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> NicChoices.parse("mlx5_1"));
        assertThrows(IllegalArgumentException.class, () -> NicChoices.parse("mlx5_1=cx7:storage:compute"));
    }
}
