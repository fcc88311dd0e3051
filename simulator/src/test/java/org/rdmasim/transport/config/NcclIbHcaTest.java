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
}
