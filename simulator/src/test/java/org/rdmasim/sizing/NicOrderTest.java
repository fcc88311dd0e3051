package org.rdmasim.sizing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.TopologyNode;
import org.junit.jupiter.api.Test;

class NicOrderTest {

    private static Host preset(String name) {
        return new Host("h", org.rdmasim.hardware.Presets.get(name));
    }

    @Test
    void oneGpuTakesItsNearestNicFirstWhateverThePciOrder() {
        Host h = preset("dgx-h100");
        for (TopologyNode g : h.gpus()) {
            List<String> order = NicOrder.nearestFirst(h, List.of(g));
            assertEquals(h.nearestNic(g).name(), order.get(0), "GPU " + g.name());
            assertEquals(h.computeNics().size(), order.size(), "every compute NIC once");
        }
    }

    @Test
    void everyGpuGetsItsNearestBeforeAnyGetsASecond() {
        Host h = preset("dgx-h100");
        List<TopologyNode> two = List.of(h.gpus().get(5), h.gpus().get(2));
        List<String> order = NicOrder.nearestFirst(h, two);
        assertEquals(List.of(h.nearestNic(two.get(0)).name(), h.nearestNic(two.get(1)).name()), order.subList(0, 2));
        assertEquals(h.nicsByDistance(two.get(0)).get(1).name(), order.get(2), "then the first GPU's second nearest");
    }

    @Test
    void noGpuKeepsTheHostsComputeNics() {
        Host h = preset("dgx-h100");
        assertEquals(h.computeNics().stream().map(TopologyNode::name).toList(), NicOrder.nearestFirst(h, List.of()));
    }
}
