package org.rdmasim.transport.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class NcclIbHcaTest {

    private static final List<String> HOST = List.of("mlx5_0", "mlx5_1", "mlx5_10", "mlx5_11", "mlx5_bond_0");

    private static List<String> select(String raw) {
        return NcclIbHca.parse(raw).resolve(HOST).devices();
    }

    @Test
    void namesArePrefixes() {
        assertEquals(HOST, select("mlx5"));
        assertEquals(List.of("mlx5_1", "mlx5_10", "mlx5_11"), select("mlx5_1"));
    }

    @Test
    void equalsSignAsksForExactNames() {
        assertEquals(List.of("mlx5_1"), select("=mlx5_1"));
        assertTrue(NcclIbHca.parse("=mlx5_1").exactMatch());
    }

    @Test
    void caretExcludes() {
        assertEquals(List.of("mlx5_0", "mlx5_bond_0"), select("^mlx5_1"));
        assertEquals(List.of("mlx5_0", "mlx5_10", "mlx5_11", "mlx5_bond_0"), select("^=mlx5_1"));
    }

    @Test
    void portsMustMatchWhenGiven() {
        assertEquals(List.of("mlx5_0"), select("mlx5_0:1"));
        assertThrows(ConfigValueException.class, () -> select("mlx5_0:2"));
    }

    @Test
    void itemsMatchingNothingAreReportedAndAnEmptyResultIsAnError() {
        DeviceSelection s = NcclIbHca.parse("=mlx5_0,mlx5_9").resolve(HOST);
        assertEquals(List.of("mlx5_0"), s.devices());
        assertEquals(1, s.warnings().size());
        assertTrue(s.warnings().get(0).startsWith("NCCL_IB_HCA item 'mlx5_9' matches no device"));
        ConfigValueException e = assertThrows(ConfigValueException.class, () -> select("^mlx5"));
        assertTrue(e.getMessage().contains("NET/IB : No device found."), e.getMessage());
    }

    /**
     * An empty port: up to v2.30.4-1 {@code atoi("")} makes it port 0, which no device port is; from v2.30.7-1
     * {@code parseStringList} reads an empty field as -1, any port (NVIDIA/nccl src/misc/utils.cc).
     */
    @Test
    void anEmptyPortIsPortZeroBefore2307AndAnyPortFromIt() {
        EffectiveValue v = new EffectiveValue("NCCL_IB_HCA", "mlx5_0:,mlx5_11", ConfigLayer.USER, "s.yaml:3");
        assertEquals(List.of("mlx5_11"), NcclIbHca.of(v, new StackVersion(2, 30, 4)).resolve(HOST).devices());
        assertEquals(List.of("mlx5_0", "mlx5_11"), NcclIbHca.of(v, new StackVersion(2, 30, 7)).resolve(HOST).devices());
        // a third field is the rail (v2.30.7-1), not part of the port
        EffectiveValue rail = new EffectiveValue("NCCL_IB_HCA", "=mlx5_1:1:3", ConfigLayer.USER, "s.yaml:3");
        assertEquals(List.of("mlx5_1"), NcclIbHca.of(rail, new StackVersion(2, 30, 7)).resolve(HOST).devices());
    }

    @Test
    void unsetOrEmptySelectsEveryDeviceAndACaretAloneNone() {
        assertEquals(HOST, NcclIbHca.unset().resolve(HOST).devices());
        assertTrue(!NcclIbHca.unset().restricts() && !NcclIbHca.parse(",").restricts());
        // matchIfList matches everything for an empty list, so '^' with nothing after it excludes every device
        assertThrows(ConfigValueException.class, () -> select("^"));
    }

    @Test
    void aStoragePortIsAGpuNicOnlyWhenNamedInFull() {
        java.util.Set<String> storage = java.util.Set.of("mlx5_bond_0");
        assertEquals(List.of("mlx5_0", "mlx5_1", "mlx5_10", "mlx5_11"),
                NcclIbHca.parse("mlx5").gpuNics("h", HOST, storage));
        assertEquals(List.of("mlx5_0", "mlx5_bond_0"), NcclIbHca.parse("mlx5_0,mlx5_bond_0").gpuNics("h", HOST, storage));
        ConfigValueException e = assertThrows(ConfigValueException.class,
                () -> NcclIbHca.parse("mlx5_b").gpuNics("h", HOST, storage));
        assertTrue(e.getMessage().contains("host h"), e.getMessage());
    }
}
