package org.rdmasim.transport.config;

import java.util.List;

/**
 * What the configuration layer needs to know about a host's NICs, without depending on the
 * hardware model: the RDMA devices a process sees and which one is nearest a given GPU.
 */
public interface NicTopologyView {

    /**
     * The compute RDMA devices the process can see, by verbs name ({@code mlx5_0}), in the order
     * {@code /sys/class/infiniband} lists them (ModelExpress sorts them by name).
     */
    List<String> visibleNics();

    /**
     * The device ModelExpress's {@code MX_RDMA_NIC_PIN=auto} probe picks for {@code gpu}, or
     * {@code null} when there is none (the probe then skips the pin).
     */
    String nearestNic(String gpu);

    /** A view over a fixed list where every GPU's nearest NIC is given by {@code nearest}. */
    static NicTopologyView of(List<String> nics, java.util.function.Function<String, String> nearest) {
        List<String> copy = List.copyOf(nics);
        return new NicTopologyView() {
            @Override
            public List<String> visibleNics() {
                return copy;
            }

            @Override
            public String nearestNic(String gpu) {
                return nearest.apply(gpu);
            }
        };
    }
}
