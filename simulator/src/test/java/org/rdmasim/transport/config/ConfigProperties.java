package org.rdmasim.transport.config;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

class ConfigProperties {

    private static final List<String> HOST = List.of("mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3",
            "mlx5_4", "mlx5_5", "mlx5_6", "mlx5_7");

    @Property
    void memUnitsMultiplyByPowersOf1024(@ForAll @LongRange(min = 0, max = 1L << 20) long n,
            @ForAll @IntRange(min = 0, max = 3) int unit) {
        String[] suffixes = {"", "k", "M", "g"};
        assertEquals(n << (10 * unit), MemUnits.parse(n + suffixes[unit]).requireBytes());
    }

    @Provide
    Arbitrary<Set<String>> nonEmptySubsets() {
        return Arbitraries.of(HOST).set().ofMinSize(1).ofMaxSize(HOST.size() - 1);
    }

    @Property
    void aListSelectsExactlyItsDevicesAndItsNegationTheRest(@ForAll("nonEmptySubsets") Set<String> chosen) {
        List<String> shuffled = new ArrayList<>(chosen);
        java.util.Collections.reverse(shuffled);
        String list = shuffled.stream().map(n -> n + ":1").collect(Collectors.joining(","));
        StackVersion ucx = StackVersion.parse("1.21");

        List<String> expected = HOST.stream().filter(chosen::contains).toList();
        assertEquals(expected, NetDevices.parse(list).resolve(HOST, ucx).devices());

        List<String> complement = HOST.stream().filter(n -> !chosen.contains(n)).toList();
        assertEquals(complement, NetDevices.parse("^" + list).resolve(HOST, ucx).devices());
    }

    @Property
    void userRailsAlwaysWinOverNixl(@ForAll @IntRange(min = 0, max = 64) int rails) {
        StackSetup setup = StackSetup.of(
                List.of(new org.rdmasim.transport.config.EnvEntry("UCX_MAX_RMA_RAILS", Integer.toString(rails), "p", 1)),
                StackVersion.parse("1.21"), "gpu0", 0, NicTopologyView.of(HOST, g -> "mlx5_0"))
                .withNixl(StackVersion.parse("1.2.0"));
        EffectiveConfig c = ConfigResolver.resolve(setup);
        assertEquals(rails, c.maxRmaRails());
        assertEquals(ConfigLayer.USER, c.layerOf("UCX_MAX_RMA_RAILS"));
    }
}
