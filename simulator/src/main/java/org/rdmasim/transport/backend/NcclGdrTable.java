package org.rdmasim.transport.backend;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.rdmasim.hardware.PathType;
import org.rdmasim.transport.citation.Citation;
import org.rdmasim.transport.config.NcclGdr;
import org.rdmasim.transport.config.StackVersion;

/**
 * What NCCL at a release would decide about GPUDirect RDMA from one GPU to each NIC of its host, beside (not part
 * of) the NIXL/UCX transfer: {@code explain}'s NCCL table and the JSON's {@code ncclGdr} are both this record.
 *
 * @param release        the NCCL release the rule is taken at
 * @param releaseStated  whether the scenario names it ({@code transport.nccl}) or it is assumed
 * @param initiator      the GPU, as an endpoint
 * @param rows           one per NIC of the host, in the host's order
 * @param source         where NCCL makes the decision at that release
 * @param phbNote        present when a NIC is NODE to the GPU, a path type NCCL does not have: where it counts as PHB
 */
public record NcclGdrTable(StackVersion release, boolean releaseStated, String initiator, List<Row> rows,
        Citation source, Optional<Citation> phbNote) {
    public NcclGdrTable {
        rows = List.copyOf(rows);
    }

    /**
     * One NIC.
     *
     * @param nic      its name
     * @param topo     its relation to the GPU as {@code nvidia-smi topo -m} prints it
     * @param decision NCCL's decision for the pair
     */
    public record Row(String nic, PathType topo, NcclGdr decision) {
    }

    /** The words after the release in the header: where the release comes from. */
    public String releaseWords() {
        return releaseStated ? "transport.nccl" : "release assumed, set transport.nccl";
    }

    /** What NCCL has instead of NODE, as the footnote says it. */
    public static final String PHB_WORDS = "NCCL has no NODE: a path through the CPU's PCIe host bridge is PHB to it";

    public List<String> lines() {
        List<String> out = new ArrayList<>();
        out.add("");
        out.add(String.format(Locale.ROOT, "NCCL %s GPUDirect RDMA from %s (%s): NCCL's rule, not read by NIXL/UCX "
                + "transfers; source: %s", release, initiator, releaseWords(), source.text()));
        out.add(String.format(Locale.ROOT, "    %-9s %-8s %s", "HCA", "topo -m", "NCCL decision (NCCL's path type)"));
        for (Row r : rows) {
            out.add(String.format(Locale.ROOT, "    %-9s %-8s %s", r.nic(), r.topo(), r.decision().words()));
        }
        phbNote.ifPresent(c -> out.add("    (" + PHB_WORDS + "; source: " + c.text() + ")"));
        return out;
    }
}
