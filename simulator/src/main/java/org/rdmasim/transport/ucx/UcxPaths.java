package org.rdmasim.transport.ucx;

import java.util.List;
import java.util.OptionalInt;
import org.rdmasim.hardware.HostSpec;
import org.rdmasim.hardware.NicModel;
import org.rdmasim.transport.Operation;
import org.rdmasim.transport.citation.Citation;
import org.rdmasim.transport.config.StackVersion;
import org.rdmasim.transport.config.UcxSite;

/**
 * How many paths (QPs) UCX opens per device and how it rates each path, from
 * openucx/ucx {@code src/uct/ib/base/ib_iface.c} [ucx-src].
 *
 * <p>Paths: {@code uct_ib_iface_set_num_paths} (v1.20.0 L1387-1405): with {@code UCX_IB_NUM_PATHS=auto}
 * a RoCE port takes its LAG level and an IB port its LMC path bits (1 on the hosts modelled: no
 * LAG, LMC 0); if that gives 1 and the port runs at NDR speed or faster, it becomes 2 ({@code == NDR}
 * since v1.13.0, {@code >= NDR}, so XDR too, since v1.20.0).
 *
 * <p>Path ratio: {@code uct_ib_iface_estimate_path_bw} (v1.20.0 L2005-2030): for a GET on an NDR port
 * one path is rated {@code min(0.95 x bw, 38e9 B/s)}, on XDR {@code min(0.4 x bw, 35e9 B/s)}; any other
 * operation or speed rates a path at the whole interface. {@code proto_common.c} divides that by the
 * interface bandwidth to get {@code path_ratio}, which only ranks lanes: UCX never throttles a lane to
 * it. For an XDR GET the interface estimate itself is lowered to {@code bw x paths x 0.4} (L2066-2073).
 */
public final class UcxPaths {
    /** Where UCX {@code ucx} sets a port's paths, and where it gives each path its share of the interface estimate. */
    public static List<Citation> sources(StackVersion ucx) {
        return List.of(UcxSite.IB_NUM_PATHS.cite(ucx), UcxSite.IB_PATH_BW.cite(ucx));
    }

    /** {@link #sources} as {@code explain} prints them. */
    public static String source(StackVersion ucx) {
        return Citation.join(sources(ucx));
    }
    /** {@code UCT_IB_NDR_READ_PATH_BANDWIDTH} and {@code _RATIO} (ib_iface.c L37, L47). */
    static final double NDR_READ_PATH_BANDWIDTH = 38e9;
    static final double NDR_READ_PATH_RATIO = 0.95;
    /** {@code UCT_IB_XDR_READ_PATH_BANDWIDTH} and {@code _RATIO} (ib_iface.c L38, L53). */
    static final double XDR_READ_PATH_BANDWIDTH = 35e9;
    static final double XDR_READ_PATH_RATIO = 0.4;

    private static final StackVersion NDR_TWO_PATHS = new StackVersion(1, 13, 0);
    private static final StackVersion XDR_TWO_PATHS = new StackVersion(1, 20, 0);

    /** The InfiniBand speed class a port reports. */
    enum Speed { EDR, HDR, NDR, XDR }

    private UcxPaths() {
    }

    /**
     * The speed a port reports. ASSUMPTION for RoCE: a 400GbE ConnectX-7 port runs as 4 x 100G lanes and
     * reports NDR 4X, which the path rule in ib_iface.c [ucx-src] counts as NDR; as 8 x 50G it would
     * report HDR 8X and get one path.
     */
    static Speed speed(NicModel model) {
        return switch (model) {
            case CX5 -> Speed.EDR;
            case CX6 -> Speed.HDR;
            case CX7 -> Speed.NDR;
            case CX8 -> Speed.XDR;
            // EFA has no rc_mlx5 transport (NIXL's libfabric backend carries it, transport.libfabric);
            // should a scenario run UCX on it, the port is classed by its rate alone
            case EFA2 -> Speed.EDR;
            case EFA3 -> Speed.HDR;
            case EFA4 -> Speed.NDR;
        };
    }

    /** Paths UCX opens on {@code nic}'s port. */
    public static int pathsPerPort(HostSpec.NicSpec nic, StackVersion ucx, OptionalInt numPaths) {
        if (numPaths.isPresent()) {
            return numPaths.getAsInt();
        }
        Speed s = speed(nic.model());
        if (s == Speed.NDR && ucx.atLeast(NDR_TWO_PATHS)) {
            return 2;
        }
        if (s == Speed.XDR && ucx.atLeast(XDR_TWO_PATHS)) {
            return 2;
        }
        return 1;
    }

    /**
     * {@code path_ratio}: one path's rating, from the interface bandwidth {@code ifaceBw}, over the
     * operation's interface estimate {@code estimate} (proto_common.c L397-399, v1.20.0).
     */
    static double pathRatio(NicModel model, Operation op, double ifaceBw, double estimate) {
        double path = ifaceBw;
        if (op == Operation.READ) {
            path = switch (speed(model)) {
                case NDR -> Math.min(ifaceBw * NDR_READ_PATH_RATIO, NDR_READ_PATH_BANDWIDTH);
                case XDR -> Math.min(ifaceBw * XDR_READ_PATH_RATIO, XDR_READ_PATH_BANDWIDTH);
                default -> ifaceBw;
            };
        }
        return path / estimate;
    }

    /** The interface estimate for the operation: an XDR GET is rated at most {@code bw x paths x 0.4}. */
    static double ifaceEstimate(NicModel model, Operation op, double ifaceBw, int paths) {
        if (op == Operation.READ && speed(model) == Speed.XDR) {
            return Math.min(ifaceBw, ifaceBw * paths * XDR_READ_PATH_RATIO);
        }
        return ifaceBw;
    }

    /**
     * {@code ucp_proto_multi_get_avail_bw} (proto_multi.c L23-58, v1.19.0+): a lane's bandwidth times
     * {@code min(1 - path_ratio x path_index, path_ratio)}, or {@code 0.01 / path_index} of it when that
     * falls below 0.01, where {@code path_index} counts lanes of the same device already taken.
     */
    static double availableBandwidth(double bandwidth, double pathRatio, int takenOnDevice) {
        double ratio = Math.min(1.0 - pathRatio * takenOnDevice, pathRatio);
        if (ratio < 0.01) {
            ratio = 0.01 / takenOnDevice;
        }
        return bandwidth * ratio;
    }
}
