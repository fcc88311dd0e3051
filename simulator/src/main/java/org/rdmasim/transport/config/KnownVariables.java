package org.rdmasim.transport.config;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The registry of modelled variables, with defaults from the libraries' sources ([ucx-src],
 * [nixl-src], [nccl-src], [mx-src]; simulator/SOURCES.md). Each entry's source is where the default is
 * defined, as REPO TAG FILE:LINE: UCX's at v1.20.0 (v1.21.0 for a variable that release added), NCCL's at
 * v2.28.9-1 (the last release with net_ib.cc as one file; NCCL_SHADOW_MEMPOOL_MAX_SIZE at v2.30.7-1, the
 * first release read here that has it), ModelExpress's at v0.5.1. Defaults were checked against those lines.
 */
public final class KnownVariables {

    /** ucp_context.c at v1.20.0: each variable's config-table entry is at the line given. */
    private static final String UCP_CONTEXT = "openucx/ucx v1.20.0 src/ucp/core/ucp_context.c:";
    private static final String RC_IFACE = "openucx/ucx v1.20.0 src/uct/ib/rc/base/rc_iface.c:";
    private static final String NET_IB = "NVIDIA/nccl v2.28.9-1 src/transport/net_ib.cc:";
    private static final String PATHS = "NVIDIA/nccl v2.28.9-1 src/graph/paths.cc:";
    private static final String MX_UCX_UTILS =
            "ai-dynamo/modelexpress v0.5.1 modelexpress_client/python/modelexpress/ucx_utils.py:";

    private static final List<KnownVariable> ALL = List.of(
            // ucp_config_table: {"NET_DEVICES", UCP_RSC_CONFIG_ALL, ...}
            ucx("UCX_NET_DEVICES", "all", "network devices UCX may use, dev:port list or all",
                    UCP_CONTEXT + "599", ValueSyntax.UCX_DEVICE_LIST),
            // ucp_config_table: {"TLS", UCP_RSC_CONFIG_ALL, ...}; recognised, not modelled further
            ucx("UCX_TLS", "all", "transports UCX may use (recognised, not modelled)", UCP_CONTEXT + "619",
                    ValueSyntax.UCX_STRING),
            // ucp_context_config_table: {"MAX_RMA_RAILS", "1", ...}
            ucx("UCX_MAX_RMA_RAILS", "1", "devices one RMA (get/put) operation may be split across",
                    UCP_CONTEXT + "233", ValueSyntax.UCX_UNSIGNED),
            ucx("UCX_MAX_RNDV_RAILS", "2", "devices one rendezvous operation may be split across",
                    UCP_CONTEXT + "226", ValueSyntax.UCX_UNSIGNED),
            ucx("UCX_MAX_EAGER_RAILS", "1", "devices one eager operation may be split across",
                    UCP_CONTEXT + "219", ValueSyntax.UCX_UNSIGNED),
            ucx("UCX_MULTI_LANE_MAX_RATIO", "4", "lanes slower than fastest/ratio are dropped",
                    UCP_CONTEXT + "203", ValueSyntax.UCX_DECIMAL),
            ucx("UCX_RNDV_SCHEME", "auto", "rendezvous protocol for large messages", UCP_CONTEXT + "251",
                    ValueSyntax.UCX_RNDV_SCHEME),
            ucx("UCX_RNDV_THRESH", "auto", "message size from which rendezvous is used", UCP_CONTEXT + "178",
                    ValueSyntax.UCX_MEMUNITS),
            // ucp_config_table: {"RNDV_FRAG_SIZE", "host:512K,cuda:4M", ...}
            ucx("UCX_RNDV_FRAG_SIZE", "host:512K,cuda:4M", "rendezvous bounce-buffer size per memory type",
                    UCP_CONTEXT + "659", ValueSyntax.UCX_FRAG_SIZES),
            // 16k lowered to 8k by openucx/ucx PR #10728 (2025-06) [ucx-pr-10728]
            ucx("UCX_MIN_RMA_CHUNK_SIZE", "8k", "smallest piece an RMA operation is split into per lane",
                    UCP_CONTEXT + "242", ValueSyntax.UCX_MEMUNITS),
            ucx("UCX_MIN_RNDV_CHUNK_SIZE", "16k", "smallest piece a rendezvous is split into per lane",
                    UCP_CONTEXT + "237", ValueSyntax.UCX_MEMUNITS),
            // uct_rc_iface_common_config_table: {"TIMEOUT", "1.0s", "Transport timeout"},
            // {"RETRY_COUNT", "7", "Transport retries"}
            ucx("UCX_RC_TIMEOUT", "1.0s", "RC transport timeout: how long a QP waits for an ACK before a retry",
                    RC_IFACE + "40", ValueSyntax.UCX_TIME),
            ucx("UCX_RC_RETRY_COUNT", "7", "RC transport retries before the QP fails (at most 7)",
                    RC_IFACE + "44", ValueSyntax.UCX_UNSIGNED),
            // uct_ib_md_config_table: {"PCI_RELAXED_ORDERING", "auto", ..., TERNARY_AUTO}
            ucx("UCX_IB_PCI_RELAXED_ORDERING", "auto", "relaxed-ordering MRs; try adds a strict MR per HCA",
                    "openucx/ucx v1.20.0 src/uct/ib/base/ib_md.c:159", ValueSyntax.UCX_TERNARY_AUTO),
            // UCX 1.21.0 NEWS: "Added UCX_MAX_HCA_PER_GPU policy to limit GPU memory registrations
            // to nearest HCAs"; default inf keeps the old register-everywhere behaviour
            new KnownVariable("UCX_MAX_HCA_PER_GPU", "inf", "HCAs GPU memory is registered on: inf, auto, N",
                    "openucx/ucx v1.21.0 src/ucp/core/ucp_context.c:603", ValueSyntax.UCX_HCA_LIMIT, new StackVersion(1, 21, 0)),
            // ucs_global_opts_table "DISTANCE_BW"/"DISTANCE_LAT" (v1.18.0+, the same lines to v1.22.0): the
            // bandwidth's auto keeps the figures src/ucs/sys/topo/base/topo.c works out per relation; the
            // latency has no auto default but spells out the same 300/300/500 ns UcxTopoDistance uses
            new KnownVariable("UCX_DISTANCE_BW", "auto", "UCX's assumed bandwidth per relation: auto,sys:16500MBs",
                    "openucx/ucx v1.20.0 src/ucs/config/global_opts.c:216", ValueSyntax.UCX_DISTANCE_BW,
                    new StackVersion(1, 18, 0)),
            new KnownVariable("UCX_DISTANCE_LAT", "phb:300ns,node:300ns,sys:500ns",
                    "UCX's assumed latency per relation: auto,sys:500ns",
                    "openucx/ucx v1.20.0 src/ucs/config/global_opts.c:211", ValueSyntax.UCX_DISTANCE_LAT,
                    new StackVersion(1, 18, 0)),
            // uct_ib_iface_config_table: {"NUM_PATHS", "auto", ...}; auto = LAG level (RoCE) or LMC
            // path bits (IB), raised to 2 on NDR-speed ports (uct_ib_iface_set_num_paths, ib_iface.c L1387)
            ucx("UCX_IB_NUM_PATHS", "auto", "paths (QPs) per device a multi-lane operation may use",
                    "openucx/ucx v1.20.0 src/uct/ib/base/ib_iface.c:185", ValueSyntax.UCX_UNSIGNED_AUTO),
            // uct_rc_iface_common_config_table: {"FENCE", "auto", ...}
            ucx("UCX_RC_FENCE", "auto", "what an RC fence does: none, weak, auto",
                    RC_IFACE + "71", ValueSyntax.UCX_RC_FENCE),
            new KnownVariable("MX_RDMA_NIC_PIN", null, "ModelExpress NIC pin: off, auto, stripe, list",
                    MX_UCX_UTILS + "379", ValueSyntax.MX_NIC_PIN, null),
            // the RDMA receive budget per source is MX_TRANSFER_TIMEOUT only when set explicitly, otherwise
            // DEFAULT_RDMA_TRANSFER_TIMEOUT_S = 300.0 (L43; read at L65)
            new KnownVariable("MX_TRANSFER_TIMEOUT", null, "ModelExpress RDMA receive budget per source, seconds "
                    + "(unset: 300)", "ai-dynamo/modelexpress v0.5.1 modelexpress_client/python/modelexpress/load_strategy/"
                    + "rdma_strategy.py:41-87", ValueSyntax.MX_SECONDS, null),
            new KnownVariable("MX_RDMA_NIC_PIN_MIN_RATE_GBPS", null,
                    "ModelExpress probe's NIC rate floor (recognised, not modelled)", MX_UCX_UTILS + "413",
                    ValueSyntax.MX_DECIMAL, null),
            nccl("NCCL_IB_HCA", null, "IB devices NCCL uses: [^][=]prefix[:port] list",
                    NET_IB + "701", ValueSyntax.NCCL_HCA_LIST),
            // ncclTopoCheckGdr: the default depends on the NCCL release (PXB; P2C from 2.29.2 with C2C on): NcclGdr
            nccl("NCCL_NET_GDR_LEVEL", null, "farthest GPU-NIC path that still uses GPUDirect RDMA",
                    PATHS + "454", ValueSyntax.NCCL_PATH_LEVEL),
            // NCCL_PARAM(NetGdrC2c, "NET_GDR_C2C", ...): from 2.26.2 (default 0), default 1 from 2.27.3: NcclGdr
            nccl("NCCL_NET_GDR_C2C", null, "GPUDirect RDMA to a NIC behind the CPU of an NVLink-C2C GPU",
                    PATHS + "416", ValueSyntax.NCCL_INTEGER),
            nccl("NCCL_NET_GDR_READ", null, "GPUDirect for sends (NIC reads GPU memory); unset = NCCL decides",
                    PATHS + "411", ValueSyntax.NCCL_INTEGER),
            nccl("NCCL_IB_QPS_PER_CONNECTION", "1", "queue pairs per IB connection",
                    NET_IB + "1215", ValueSyntax.NCCL_INTEGER),
            // default cap 1 GiB (1LL << 30), 0 disables the cap (NVIDIA/nccl PR #2064 [nccl-pr-2064]; in no
            // release before v2.30.7-1 of those read here)
            nccl("NCCL_SHADOW_MEMPOOL_MAX_SIZE", "1073741824", "cudaMemPoolProps.maxSize of the shadow pool",
                    "NVIDIA/nccl v2.30.7-1 src/allocator.cc:14", ValueSyntax.NCCL_INTEGER));

    private static final Map<String, KnownVariable> BY_NAME = new LinkedHashMap<>();

    static {
        ALL.forEach(v -> BY_NAME.put(v.name(), v));
    }

    /** Prefixes whose unknown names are reported; any other variable is ignored silently. */
    private static final List<String> WATCHED_PREFIXES = List.of("UCX_", "NCCL_", "MX_", "NIXL_");

    private KnownVariables() {
    }

    private static KnownVariable ucx(String name, String def, String meaning, String source, ValueSyntax s) {
        return new KnownVariable(name, def, meaning, source, s, null);
    }

    private static KnownVariable nccl(String name, String def, String meaning, String source, ValueSyntax s) {
        return new KnownVariable(name, def, meaning, source, s, null);
    }

    /** Every modelled variable, in a fixed order (used for reports). */
    public static List<KnownVariable> all() {
        return ALL;
    }

    public static Optional<KnownVariable> find(String name) {
        return Optional.ofNullable(BY_NAME.get(name));
    }

    public static KnownVariable get(String name) {
        return find(name).orElseThrow(() -> new IllegalArgumentException("not a known variable: " + name));
    }

    /** Whether an unknown variable of this name deserves a warning (it belongs to the stack). */
    public static boolean isWatched(String name) {
        return WATCHED_PREFIXES.stream().anyMatch(name::startsWith);
    }

    /** What a report or message shows for a variable the model does not read: its name, not its value. */
    public static final String REDACTED = "<redacted>";

    /**
     * {@code value} when the model reads {@code name} (a known variable or one of the stack's prefixes),
     * else {@link #REDACTED}: an env file copied from a deployment may hold tokens and passwords beside
     * the UCX variables, and a report is shared.
     */
    public static String shownValue(String name, String value) {
        return find(name).isPresent() || isWatched(name) ? value : REDACTED;
    }

    /** The known name closest to {@code name} by edit distance (ties: registry order). */
    public static String closest(String name) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (KnownVariable v : ALL) {
            int d = editDistance(name, v.name());
            if (d < bestDistance) {
                best = v.name();
                bestDistance = d;
            }
        }
        return best;
    }

    /**
     * The warning for a watched variable the simulator does not know: "did you mean" when the
     * closest name is a likely typo (at most a fifth of the name's characters differ, minimum 2),
     * otherwise a known name only when one is near enough to orient by ({@link #nearForOrientation}),
     * else that none is close.
     */
    public static String unknownVariableWarning(String name, String location) {
        return unknownVariable(name, location, "is not modelled by rdmasim and is ignored (%s)");
    }

    /**
     * The refusal for a watched variable the simulator does not know where the name is refused rather than warned
     * about (a command line's {@code --set}): the warning's "did you mean", or, for a name with no close match,
     * that setting it would change nothing; not the warning's "is ignored", since the command stops.
     */
    public static String unknownVariableRefusal(String name, String location) {
        return unknownVariable(name, location, "is not a variable rdmasim models, so setting it would change "
                + "nothing (%s); leave it out");
    }

    private static String unknownVariable(String name, String location, String farFormat) {
        String near = closest(name);
        int d = editDistance(name, near);
        String where = location.isEmpty() ? "" : " (" + location + ")";
        if (d <= Math.max(2, name.length() / 5)) {
            return name + where + " is not a variable rdmasim knows; did you mean " + near + "?";
        }
        String orient = nearForOrientation(name);
        return name + where + " " + String.format(java.util.Locale.ROOT, farFormat,
                orient == null ? "no known variable is close to it" : "closest known: " + orient);
    }

    /**
     * A known name near enough to {@code name} to be worth naming, though not a likely typo; null when none is.
     * The closest name by edit distance with at most a third of the characters different; else a known name
     * that {@code name} ends with ({@code NIXL_UCX_TLS}: {@code UCX_TLS}); else, of the names under the same
     * stack prefix whose first word after it is the same ({@code UCX_IB_GID_INDEX}: the {@code UCX_IB_} ones),
     * the closest. {@code UCX_FOO} shares nothing but the prefix with any known name: none is named.
     */
    static String nearForOrientation(String name) {
        String near = closest(name);
        if (editDistance(name, near) <= name.length() / 3) {
            return near;
        }
        for (KnownVariable v : ALL) {
            if (name.endsWith("_" + v.name())) {
                return v.name();
            }
        }
        String prefix = WATCHED_PREFIXES.stream().filter(name::startsWith).findFirst().orElse(null);
        if (prefix == null) {
            return null;
        }
        String rest = name.substring(prefix.length());
        int cut = rest.indexOf('_');
        if (cut < 1) {
            return null; // one word after the prefix: nothing further to share
        }
        String word = prefix + rest.substring(0, cut + 1);
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (KnownVariable v : ALL) {
            int dv = editDistance(name, v.name());
            if (v.name().startsWith(word) && dv < bestDistance) {
                best = v.name();
                bestDistance = dv;
            }
        }
        return best;
    }

    /**
     * Levenshtein distance: insertions, deletions and substitutions each cost 1. Also suggests scenario
     * field names and misspelt command names.
     */
    public static int editDistance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }
}
