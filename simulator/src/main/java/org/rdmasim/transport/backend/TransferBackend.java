package org.rdmasim.transport.backend;

import java.util.List;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.Hosts;
import org.rdmasim.hardware.TopologyNode;
import org.rdmasim.transport.LanePolicy;
import org.rdmasim.transport.LaneSplit;
import org.rdmasim.transport.QpRetry;
import org.rdmasim.transport.TransferSpec;
import org.rdmasim.transport.WriteOrdering;
import org.rdmasim.transport.ucx.StackProfile;
import org.rdmasim.transport.ucx.UcxLaneSelection;

/**
 * The NIXL backend plugin that carries a variant's transfers. NIXL ships UCX and libfabric as plugins
 * (ai-dynamo/nixl {@code src/plugins/ucx}, {@code src/plugins/libfabric} since 0.6.1); each decides
 * for itself where memory is registered, which network devices a transfer uses, and how it fails.
 * Every answer is given under the {@link StackProfile} the process runs with (environment and
 * releases), which is the variant's and not the backend's own: a variant whose environment changes
 * keeps its backend.
 */
public sealed interface TransferBackend permits UcxBackend, LibfabricBackend, MooncakeBackend, PegaflowBackend {
    /** The name {@code transport.backend} gives it. */
    String name();

    /**
     * The engine's thread through which every slice of one NIC context passes, which the lanes of a transfer on
     * that NIC share; {@link org.rdmasim.transport.SliceThread#NONE} for a backend with none modelled.
     */
    default org.rdmasim.transport.SliceThread sliceThread() {
        return org.rdmasim.transport.SliceThread.NONE;
    }

    /**
     * Whether its transfers are UCX RMA calls ({@code ucp_put_nbx}/{@code ucp_get_nbx}), which UCX carries
     * by software emulation on GPU memory no NIC registered ({@link org.rdmasim.transport.RmaEmulation})
     * rather than by a pipeline through host memory.
     */
    default boolean ucxRma() {
        return false;
    }

    /**
     * Whether UCX carries its transfers at all, so which UCX install the process loads (and whether that
     * install reads a ucx.conf) can change the answer. libfabric, Mooncake and pegaflow have no UCX in their
     * data path: a UCX install is nothing their answer rests on.
     */
    default boolean carriedByUcx() {
        return false;
    }

    /**
     * Where the process whose buffer lives on {@code device} (a GPU or a CPU socket) of {@code host}
     * registers it.
     *
     * @param gpudirect whether the host's NICs can register GPU memory (nvidia-peermem or dma-buf)
     */
    RegistrationSites registration(StackProfile stack, Host host, TopologyNode device, boolean gpudirect);

    /**
     * Host memory, bytes, that the process of a buffer on {@code gpu} registers on its NICs for bounce
     * fragments when it cannot register the GPU buffer itself; 0 when it registers none.
     */
    default long hostBounceBytes(StackProfile stack, Host host, TopologyNode gpu, boolean gpudirect) {
        return 0;
    }

    /**
     * The lane choice for this variant's transfers.
     *
     * @param held which NICs hold each buffer's registration, as the registration model placed it
     */
    LanePolicy lanes(StackProfile stack, UcxLaneSelection.Registrations held);

    /**
     * Decides every transfer's lanes once, before the run, so that a transfer the backend cannot carry
     * is reported at the scenario's line.
     *
     * @return warnings the real stack would print while choosing, without repeats
     * @throws BackendRefusal for a transfer it cannot carry
     * @throws org.rdmasim.transport.config.ConfigValueException for a configuration value it cannot read
     */
    List<String> checkLanes(StackProfile stack, Hosts cluster, List<TransferSpec> transfers);

    /**
     * Checks lanes the scenario gives explicitly for a transfer from {@code sourceHost} to {@code sinkHost}:
     * they bypass the backend's choice but are still carried by it.
     *
     * @throws BackendRefusal naming the host, for a lane on a device the backend cannot drive
     */
    void checkGivenLane(StackProfile stack, Hosts cluster, String sourceHost, String sinkHost, LaneSplit.Candidate lane);

    /**
     * How a lane through a failed port ends: the QP retry timing the process on {@code device} of
     * {@code host} reads.
     *
     * @throws IllegalArgumentException ({@link BackendRefusal} when the backend's reaction is not
     *         modelled) naming what is wrong
     */
    QpRetry faultReaction(StackProfile stack, Host host, TopologyNode device);

    /**
     * {@code explain}'s lines for the backend's own lane choice for {@code spec}, and those lanes.
     *
     * @param held     which NICs hold each buffer's registration
     * @param ordering whether each NIC writes into each buffer in strict PCIe order
     */
    LaneExplanation explain(StackProfile stack, Hosts cluster, TransferSpec spec, UcxLaneSelection.Registrations held,
            WriteOrdering ordering);

    /** The protocol table UCX would print for these lanes ({@code UCX_PROTO_INFO=y}); empty for a backend without one. */
    default java.util.Optional<ProtocolTable> protocolTable(StackProfile stack, Hosts cluster, TransferSpec spec,
            List<LaneSplit.Candidate> lanes) {
        return java.util.Optional.empty();
    }

    /**
     * What {@code explain} says about lanes once chosen (by the backend or given by the scenario): the protocol, the
     * write order, NCCL's rule beside them; {@link PathExplanation#NONE} for a backend that says nothing of its own.
     */
    PathExplanation explainGivenLanes(StackProfile stack, Hosts cluster, TransferSpec spec, List<LaneSplit.Candidate> lanes,
            WriteOrdering ordering);
}
