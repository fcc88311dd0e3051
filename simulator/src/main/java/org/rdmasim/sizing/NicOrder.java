package org.rdmasim.sizing;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.TopologyNode;

/**
 * The order in which a NIC knob takes a host's compute NICs for the GPUs it serves: first each GPU's nearest
 * (in the order the GPUs are given), then every GPU's next nearest, and so on, ties in PCI order
 * ({@link Host#nicsByDistance}). A list of N taken from the front gives each GPU its own nearest NIC before any
 * GPU gets a second one, which is what an operator listing N devices for these GPUs would write.
 */
final class NicOrder {

    private NicOrder() {
    }

    /** {@code host}'s compute NICs in knob order for {@code gpus}; every compute NIC appears once. */
    static List<String> nearestFirst(Host host, List<TopologyNode> gpus) {
        List<List<TopologyNode>> ranked = new ArrayList<>();
        for (TopologyNode g : gpus) {
            ranked.add(host.nicsByDistance(g));
        }
        Set<String> order = new LinkedHashSet<>();
        int depth = ranked.stream().mapToInt(List::size).max().orElse(0);
        for (int rank = 0; rank < depth; rank++) {
            for (List<TopologyNode> byGpu : ranked) {
                if (rank < byGpu.size()) {
                    order.add(byGpu.get(rank).name());
                }
            }
        }
        host.computeNics().forEach(n -> order.add(n.name()));
        return List.copyOf(order);
    }
}
