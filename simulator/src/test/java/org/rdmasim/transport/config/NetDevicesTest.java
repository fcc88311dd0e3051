package org.rdmasim.transport.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class NetDevicesTest {

    private static final List<String> EIGHT = List.of("mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3",
            "mlx5_4", "mlx5_5", "mlx5_6", "mlx5_7");
    private static final StackVersion OLD = StackVersion.parse("1.19");
    private static final StackVersion NEW = StackVersion.parse("1.21");

    private static DeviceSelection select(String raw, StackVersion ucx) {
        return NetDevices.parse(raw).resolve(EIGHT, ucx);
    }

    @Test
    void allSelectsEveryDevice() {
        assertEquals(EIGHT, select("all", OLD).devices());
    }

    @Test
    void listSelectsInHostOrder() {
        DeviceSelection s = select("mlx5_3:1,mlx5_0:1", OLD);
        assertEquals(List.of("mlx5_0", "mlx5_3"), s.devices());
        assertTrue(s.warnings().isEmpty());
    }

    @Test
    void unknownDeviceGetsUcxsWarningWithTheSortedAvailableList() {
        DeviceSelection s = select("mlx5_0:1,mlx5_9:1", OLD);
        assertEquals(List.of("mlx5_0"), s.devices());
        assertEquals(List.of("UCX WARN network device 'mlx5_9:1' is not available, please use one or more of: "
                + "'mlx5_0:1'(ib), 'mlx5_1:1'(ib), 'mlx5_2:1'(ib), 'mlx5_3:1'(ib), 'mlx5_4:1'(ib), "
                + "'mlx5_5:1'(ib), 'mlx5_6:1'(ib), 'mlx5_7:1'(ib)"), s.warnings());
    }

    @Test
    void severalUnknownDevicesArePlural() {
        DeviceSelection s = select("mlx5_0:1,mlx5_8:1,mlx5_9:1", OLD);
        assertTrue(s.warnings().get(0).startsWith(
                "UCX WARN network devices 'mlx5_8:1','mlx5_9:1' are not available"), s.warnings().get(0));
    }

    @Test
    void duplicateEntryIsReported() {
        DeviceSelection s = select("mlx5_1:1,mlx5_1:1", OLD);
        assertEquals(List.of("mlx5_1"), s.devices());
        assertEquals(List.of("UCX WARN device 'mlx5_1:1' is specified multiple times"), s.warnings());
    }

    @Test
    void emptyResultIsAnError() {
        ConfigValueException e = assertThrows(ConfigValueException.class, () -> select("mlx5_9:1", OLD));
        assertEquals("UCX_NET_DEVICES", e.variable());
        assertTrue(e.getMessage().contains("no usable transports/devices"), e.getMessage());
    }

    @Test
    void portlessNamesNegationAndRangesNeedUcx121() {
        assertEquals(List.of("mlx5_0", "mlx5_1"), select("mlx5_0,mlx5_1", NEW).devices());
        assertEquals(List.of("mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3"), select("mlx5_[0-3]:1", NEW).devices());
        assertEquals(List.of("mlx5_2", "mlx5_3", "mlx5_4", "mlx5_5", "mlx5_6", "mlx5_7"),
                select("^mlx5_0:1,mlx5_1", NEW).devices());
        assertEquals(List.of("mlx5_4", "mlx5_5", "mlx5_6", "mlx5_7"), select("^mlx5_[0-3]", NEW).devices());

        // older UCX compares names exactly, so these match nothing
        assertThrows(ConfigValueException.class, () -> select("mlx5_0,mlx5_1", OLD));
        assertThrows(ConfigValueException.class, () -> select("mlx5_[0-3]:1", OLD));
        assertThrows(ConfigValueException.class, () -> select("^mlx5_0:1", OLD));
    }

    @Test
    void negationDoesNotWarnAboutUnknownNamesAndExcludingAllIsAnError() {
        DeviceSelection s = select("^mlx5_9:1", NEW);
        assertEquals(EIGHT, s.devices());
        assertTrue(s.warnings().isEmpty());
        assertThrows(ConfigValueException.class, () -> select("^mlx5_[0-7]", NEW));
    }

    @Test
    void rangeWarningsNameEachMissingDevice() {
        DeviceSelection s = select("mlx5_[6-9]:1", NEW);
        assertEquals(List.of("mlx5_6", "mlx5_7"), s.devices());
        assertTrue(s.warnings().get(0).startsWith("UCX WARN network devices 'mlx5_8:1','mlx5_9:1' are not"));
        assertThrows(ConfigValueException.class, () -> select("mlx5_[3-1]:1", NEW));
    }

    @Test
    void aRangeMayHoldOneDeviceOrUpToAThousandAndTwentyFive() {
        assertEquals(List.of("mlx5_2"), select("mlx5_[2-2]:1", NEW).devices());
        // 1,025 names are expanded (the eight present are kept, the rest warned about); one more is refused.
        assertEquals(EIGHT, select("mlx5_[0-1024]:1", NEW).devices());
        assertThrows(ConfigValueException.class, () -> select("mlx5_[0-1025]:1", NEW));
        assertThrows(ConfigValueException.class, () -> select("mlx5_[3-2]:1", NEW));
    }
}
