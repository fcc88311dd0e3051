package org.rdmasim.hardware;

import java.util.List;
import java.util.Optional;
import org.rdmasim.fluid.Limit;

/**
 * What held a transfer back, as a value: one record per kind of limit the model knows, a resource of
 * the {@link Cluster} or one of a lane's own caps (built by the transport layer). Each kind knows
 * <ul>
 *   <li>its {@link #id()}, the stable text written to transfers.csv, resources.csv and summary.json
 *       (reports are checked byte for byte, so these texts do not change);</li>
 *   <li>its {@link #words()}, what a performance engineer would call it;</li>
 *   <li>its {@link #parameters()}, the calibration-profile parameter its number is, if any: each kind
 *       names its own key once, here, and reports, charts and text ask it rather than deciding again.</li>
 * </ul>
 * It lives in hardware because both the cluster (resources) and the transport (lane caps) build it;
 * the fluid solver sees it only as an opaque {@link Limit}.
 */
public sealed interface Bottleneck extends Limit {
    /** The plain-words description of this limit. */
    String words();

    /**
     * The calibration-profile parameters this limit's number is: none for a mechanism (a datasheet rate, a
     * protocol cost), one for a kind whose rate a profile fits or assumes, a degraded limit's nominal's, and
     * each of a tie's limits' in the tie's order.
     */
    default List<ProfileParameter> parameters() {
        return List.of();
    }

    /** The calibration profile this limit is a calibrated or assumed number of, if any: its first parameter's. */
    default Optional<String> profile() {
        return parameters().stream().map(ProfileParameter::profile).findFirst();
    }

    /**
     * The bottleneck a fluid limit stands for: a cluster resource's own, {@link Plain#NONE} for
     * {@link Limit#NONE}, {@link Plain#FLOW_CAP} for {@link Limit#OWN_CAP} (the layer that set the cap names
     * it better, as the transport does). A resource built by name only is no bottleneck of the model.
     */
    static Bottleneck of(Limit limit) {
        if (limit instanceof Bottleneck b) {
            return b;
        }
        if (limit == Limit.NONE) {
            return Plain.NONE;
        }
        if (limit == Limit.OWN_CAP) {
            return Plain.FLOW_CAP;
        }
        throw new IllegalArgumentException("limit '" + limit.id() + "' is no resource of a cluster");
    }

    /** A NIC's two sides. */
    enum Side {
        TX("tx", "transmit"), RX("rx", "receive");

        private final String id;
        private final String words;

        Side(String id, String words) {
            this.id = id;
            this.words = words;
        }
    }

    /** The two directions of a full-duplex link: up towards the CPU (or the spine), down away from it. */
    enum Direction { UP, DOWN }

    /**
     * A NIC's line rate in one direction. {@code srdProfile} names the profile whose assumed SRD framing
     * efficiency the rate rests on (an EFA device), else null.
     */
    record NicWire(String host, String nic, Side side, String srdProfile) implements Bottleneck {
        @Override
        public String id() {
            return host + ":" + nic + " " + side.id + (srdProfile == null ? "" : ", SRD efficiency assumed in " + srdProfile);
        }

        @Override
        public String words() {
            return "NIC " + nic + "'s " + side.words + " line rate on " + host + (srdProfile == null ? ""
                    : " (its SRD framing efficiency ASSUMED: " + efficiency().valueText() + ", profile " + srdProfile + ")");
        }

        @Override
        public List<ProfileParameter> parameters() {
            return srdProfile == null ? List.of() : List.of(efficiency());
        }

        private ProfileParameter efficiency() {
            return new ProfileParameter(srdProfile, ProfileKey.EFA_WIRE_EFFICIENCY);
        }
    }

    /** One direction of a device's link to its parent: PCIe, or NVLink-C2C on a Grace superchip. */
    record Link(String host, String device, LinkSpec.LinkType type, Direction direction) implements Bottleneck {
        @Override
        public String id() {
            return host + ":" + device + " " + (type == LinkSpec.LinkType.C2C ? "C2C" : "PCIe") + " "
                    + (direction == Direction.UP ? "up" : "down");
        }

        @Override
        public String words() {
            return device + "'s " + (type == LinkSpec.LinkType.C2C ? "NVLink-C2C" : "PCIe") + " link on " + host
                    + (direction == Direction.UP ? " (towards the CPU)" : " (from the CPU)");
        }
    }

    /** The memory bandwidth of one CPU socket. */
    record HostMemory(String host, int cpu) implements Bottleneck {
        @Override
        public String id() {
            return host + ":CPU" + cpu + " memory";
        }

        @Override
        public String words() {
            return "host memory bandwidth of CPU" + cpu + " on " + host;
        }
    }

    /**
     * The link between two sockets of a host, one direction; {@code calibration} and {@code key} name the
     * profile parameter its bandwidth is when a preset took it from a profile (a Grace-Grace link, an AWS
     * instance's), else both null: a datasheet figure of the host's own.
     */
    record SocketLink(String host, int from, int to, String calibration, ProfileKey key) implements Bottleneck {
        public SocketLink {
            if ((calibration == null) != (key == null)) {
                throw new IllegalArgumentException("socket link " + host + ":CPU" + from + "->CPU" + to
                        + ": a profile's figure needs both the profile and its key, got " + calibration + " and " + key);
            }
        }

        public SocketLink(String host, int from, int to) {
            this(host, from, to, null, null);
        }

        @Override
        public String id() {
            String link = host + ":CPU" + from + "->CPU" + to;
            if (calibration == null) {
                return link;
            }
            String kind = bandwidth().kindWord();
            return link + ", " + kind.toLowerCase(java.util.Locale.ROOT) + (kind.equals("CALIBRATED") ? " to " : " in ")
                    + calibration;
        }

        @Override
        public String words() {
            String link = "the socket link CPU" + from + " to CPU" + to + " on " + host;
            if (calibration == null) {
                return link;
            }
            return link + ", " + bandwidth().kindWord() + " (" + bandwidth().valueText() + ", " + key.key()
                    + " of profile " + calibration + ")";
        }

        @Override
        public List<ProfileParameter> parameters() {
            return calibration == null ? List.of() : List.of(bandwidth());
        }

        private ProfileParameter bandwidth() {
            return new ProfileParameter(calibration, key);
        }
    }

    /** A leaf switch's links to the spine, in one direction. */
    record FabricLeaf(String leaf, Direction direction) implements Bottleneck {
        @Override
        public String id() {
            return leaf + " " + (direction == Direction.UP ? "uplink" : "downlink");
        }

        @Override
        public String words() {
            return "the fabric: leaf " + leaf + "'s " + (direction == Direction.UP ? "uplink" : "downlink");
        }
    }

    /** A NIC's delivered RDMA READ rate as its host's profile calibrates it: a measurement, not a mechanism. */
    record NicReadCalibrated(String host, String nic, String calibration) implements Bottleneck {
        @Override
        public String id() {
            // the profile and the measurement its figure was fitted to, so every output naming the limit names both
            return host + ":" + nic + " READ, calibrated to " + calibration + " (" + rate().measurement() + ")";
        }

        @Override
        public String words() {
            return "NIC " + nic + "'s delivered RDMA READ rate on " + host + ", " + rate().kindWord() + " ("
                    + rate().valueText() + ", profile " + calibration + ")";
        }

        @Override
        public List<ProfileParameter> parameters() {
            return List.of(rate());
        }

        private ProfileParameter rate() {
            return new ProfileParameter(calibration, ProfileKey.NIC_READ_RATE);
        }
    }

    /**
     * A NIC's writes into GPU memory through a registration without relaxed ordering, on a CPU where
     * strict-order peer writes take a slower route (openucx/ucx PR #10955); the rate is calibrated.
     */
    record StrictOrderWrite(String host, String nic, String calibration) implements Bottleneck {
        @Override
        public String id() {
            return host + ":" + nic + " strict-order writes into GPU memory, calibrated to " + calibration + " ("
                    + rate().measurement() + ")";
        }

        @Override
        public String words() {
            return "NIC " + nic + "'s writes into GPU memory without PCIe relaxed ordering on " + host + ", "
                    + rate().kindWord() + " (" + rate().valueText() + ", profile " + calibration
                    + "; UCX_IB_PCI_RELAXED_ORDERING decides it)";
        }

        @Override
        public List<ProfileParameter> parameters() {
            return List.of(rate());
        }

        private ProfileParameter rate() {
            return new ProfileParameter(calibration, ProfileKey.STRICT_ORDER_GPU_WRITE_RATE);
        }
    }

    /**
     * The RDMA READ rate one QP delivers, from the READ initiator's profile (its id says "assumed in" when the
     * profile assumes the rate rather than fitting it to a measurement).
     */
    record QpReadRate(String host, String nic, String calibration) implements Bottleneck {
        @Override
        public String id() {
            return host + ":" + nic + " READ rate of one QP, " + (rate().assumed() ? "assumed in " + calibration
                    : "calibrated to " + calibration + " (" + rate().measurement() + ")");
        }

        @Override
        public String words() {
            return "one QP's RDMA READ rate on " + host + ":" + nic + ", " + rate().kindWord() + " (" + rate().valueText()
                    + ", profile " + calibration + ")";
        }

        @Override
        public List<ProfileParameter> parameters() {
            return List.of(rate());
        }

        private ProfileParameter rate() {
            return new ProfileParameter(calibration, ProfileKey.QP_READ_RATE);
        }
    }

    /** RDMA READs in flight per QP (max_qp_rd_atom) over one round trip, on the READ initiator's NIC. */
    record OutstandingReads(String host, String nic) implements Bottleneck {
        @Override
        public String id() {
            return host + ":" + nic + " outstanding READs per QP";
        }

        @Override
        public String words() {
            return "RDMA READs in flight per QP (max_qp_rd_atom) on " + host + ":" + nic;
        }
    }

    /** WRITE work requests in flight per QP (the send queue's depth) over one round trip, on the WRITE initiator's NIC. */
    record SendQueue(String host, String nic) implements Bottleneck {
        @Override
        public String id() {
            return host + ":" + nic + " WRITEs in flight per QP";
        }

        @Override
        public String words() {
            return "WRITE work requests in flight per QP (the send queue depth) on " + host + ":" + nic;
        }
    }

    /**
     * The engine's thread that handles every slice of one NIC context of the initiator (Mooncake's worker that
     * reaps the context's one completion queue); {@code nic} is {@code host:nic}; {@code basis} says where its
     * time per slice comes from ("calibrated on MC-VLLM-KV-MARGIN", or the scenario's own figure), so every output
     * naming the limit says whether it is a calibrated number.
     */
    record SliceThread(String nic, String basis) implements Bottleneck {
        @Override
        public String id() {
            return "slice thread (" + nic + ")" + (basis.isEmpty() ? "" : ", " + basis);
        }

        @Override
        public String words() {
            return "the transfer engine's thread handling every slice of " + nic + "'s context"
                    + " (its per-slice time, transport.sliceThread, is " + (basis.startsWith("calibrated")
                            ? "CALIBRATED on MC-VLLM-KV-MARGIN" : basis) + ")";
        }
    }

    /** The initiating thread's descriptor posting rate; {@code initiator} is its buffer ({@code host:device}). */
    record PostingRate(String initiator) implements Bottleneck {
        @Override
        public String id() {
            return "descriptor posting rate (" + initiator + ")";
        }

        @Override
        public String words() {
            return "the CPU's descriptor posting rate (" + initiator + ")"
                    + " (its per-descriptor cost is ASSUMED unless the scenario's protocol sets it)";
        }
    }

    /**
     * UCX's software RMA emulation ({@code protocol} put/am/bcopy or get/am/bcopy) on GPU memory no NIC could
     * register: each fragment of {@code fragmentBytes} is copied by a synchronous cuda_copy ({@code direction}
     * device-to-host or host-to-device) on the side of {@code buffer}, the slower of the two.
     */
    record RmaEmulation(String buffer, String protocol, String direction, int fragmentBytes) implements Bottleneck {
        @Override
        public String id() {
            return "UCX " + protocol + " emulation, " + direction + " cuda_copy per fragment (" + buffer + ")";
        }

        @Override
        public String words() {
            return "UCX's software RMA emulation (" + protocol + ", no GPUDirect RDMA): one " + fragmentBytes
                    + "-byte active message at a time, each " + direction + " copied by cuda_copy on " + buffer
                    + " at UCX's own estimate of a synchronous copy";
        }
    }

    /**
     * A port on a lane's path was down (a fault): from when the lane stalled until its QP's next RC
     * retransmission after the port answered again, it moved nothing. {@code port} is {@code host:nic};
     * {@code downSeconds} and {@code upSeconds} are when the port went down and came back;
     * {@code retransmitSeconds} is the QP's ACK timer period (UCX_RC_TIMEOUT turned into an exponent).
     */
    record PortStall(String port, double downSeconds, double upSeconds, double retransmitSeconds, int outages)
            implements Bottleneck {
        /**
         * One port down once: from {@code downSeconds} to {@code upSeconds}. With more than one outage while
         * the lane waited ({@code outages}: a second port, or the same port again before the QP's retransmission
         * got through), {@code port} lists the ports, {@code downSeconds} is when the lane stopped and
         * {@code upSeconds} when the last of them came back.
         */
        public PortStall(String port, double downSeconds, double upSeconds, double retransmitSeconds) {
            this(port, downSeconds, upSeconds, retransmitSeconds, 1);
        }

        private String window() {
            String from = Units.number(downSeconds * 1e3);
            String to = Units.number(upSeconds * 1e3);
            if (outages <= 1) {
                return "port " + port + " down " + from + "-" + to + " ms";
            }
            boolean several = port.contains(", ");
            return (several ? "ports " : "port ") + port + " down " + outages + " times from " + from
                    + (several ? " ms, all back by " : " ms, back by ") + to + " ms";
        }

        @Override
        public String id() {
            return window() + ": RC retransmit wait";
        }

        @Override
        public String words() {
            String w = outages <= 1 ? "a fault: port " + port + " down from " + Units.number(downSeconds * 1e3) + " to "
                    + Units.number(upSeconds * 1e3) + " ms" : "a fault: " + window();
            return w + ", and the lane's QP waiting for its next RC retransmission"
                    + " (one every " + Units.number(retransmitSeconds) + " s, from UCX_RC_TIMEOUT) to move data again";
        }
    }

    /**
     * A limit whose resource a fault ran at {@code fraction} of its rate while it held the lane ({@code from}
     * to {@code until} seconds, the fault's window; {@code until} infinite when it never recovered).
     */
    record Degraded(Bottleneck nominal, double fraction, double fromSeconds, double untilSeconds) implements Bottleneck {
        @Override
        public String id() {
            return nominal.id() + ", degraded to " + percent(fraction) + " " + window();
        }

        @Override
        public String words() {
            return nominal.words() + ", degraded by a fault to " + percent(fraction) + " of its rate " + window();
        }

        private String window() {
            return "(fault " + (Double.isFinite(untilSeconds) ? Units.number(fromSeconds * 1e3) + "-"
                    + Units.number(untilSeconds * 1e3) + " ms" : "from " + Units.number(fromSeconds * 1e3) + " ms on") + ")";
        }

        private static String percent(double fraction) {
            return Units.number(Math.round(fraction * 1000) / 10.0) + "%";
        }

        /** A fault scales the limit's rate: the number it scales is still the nominal limit's parameter. */
        @Override
        public List<ProfileParameter> parameters() {
            return nominal.parameters();
        }
    }

    /**
     * Several limits each held the lane or transfer for the same, longest time (within a billionth): no one
     * of them alone set its length, so none is named alone.
     */
    record Tie(java.util.List<Bottleneck> limits) implements Bottleneck {
        public Tie {
            limits = java.util.List.copyOf(limits);
            if (limits.size() < 2) {
                throw new IllegalArgumentException("a tie needs two limits or more, got " + limits.size());
            }
        }

        @Override
        public String id() {
            return idOf(limits.stream().map(Bottleneck::id).toList());
        }

        @Override
        public String words() {
            return wordsOf(limits.stream().map(Bottleneck::words).toList());
        }

        /**
         * A tie's {@link #id()} from its limits' ids: the text of a tie of limits that are no {@link Bottleneck}
         * (a refit's GPU work, its NVLink ports), said as a tie of limits is.
         */
        public static String idOf(java.util.List<String> ids) {
            String alike = alike(ids);
            if (alike != null) {
                return "tie of " + ids.size() + ": " + alike;
            }
            return "tie: " + String.join(" = ", ids);
        }

        /** The most groups of unlike limits a tie's words list before saying how many more there are. */
        static final int MOST_GROUPS_SAID = 4;

        /** A tie's {@link #words()} from its limits' words, as {@link #idOf} for ids. */
        public static String wordsOf(java.util.List<String> words) {
            String alike = alike(words);
            if (alike != null) {
                return "a tie of " + words.size() + " limits of one kind, each holding it for the same time: " + alike;
            }
            java.util.List<String> groups = groups(words);
            StringBuilder b = new StringBuilder("a tie, " + words.size() + " limits each holding it for the same time: ");
            // a refit over 32 hosts ties a hundred NICs in dozens of groups: the first few say what kind they are
            int shown = groups.size() > MOST_GROUPS_SAID ? MOST_GROUPS_SAID - 1 : groups.size();
            for (int i = 0; i < shown; i++) {
                b.append(i == 0 ? "" : i == groups.size() - 1 ? " and " : "; ").append(groups.get(i));
            }
            if (shown < groups.size()) {
                b.append("; and ").append(groups.size() - shown).append(" more groups of the same kinds");
            }
            return b.toString();
        }

        /**
         * Texts that are not all {@link #alike}, gathered into runs that are, each said once, in the order met: a
         * ring's NICs on several hosts read as "NIC {mlx5_0, mlx5_3}'s transmit line rate on roll0; NIC ... on
         * roll1", not as every NIC in full. A text joins the first group it is alike with.
         */
        private static java.util.List<String> groups(java.util.List<String> texts) {
            java.util.List<java.util.List<String>> groups = new java.util.ArrayList<>();
            for (String t : texts) {
                java.util.List<String> home = null;
                for (java.util.List<String> g : groups) {
                    java.util.List<String> with = new java.util.ArrayList<>(g);
                    with.add(t);
                    if (alike(with) != null) {
                        home = g;
                        break;
                    }
                }
                if (home == null) {
                    groups.add(new java.util.ArrayList<>(java.util.List.of(t)));
                } else {
                    home.add(t);
                }
            }
            return groups.stream().map(g -> g.size() == 1 ? g.get(0) : alike(g)).toList();
        }

        /**
         * Texts that differ in one word only (the NIC of a striped pull: "source:mlx5_0 tx" and "source:mlx5_1
         * tx") said once with that word listed ("source:{mlx5_0, mlx5_1} tx"), so a tie of eight NICs reads as
         * one limit of eight; null when they differ in more than one word.
         */
        static String alike(java.util.List<String> texts) {
            String first = texts.get(0);
            int prefix = first.length();
            int suffix = first.length();
            for (String t : texts) {
                int p = 0;
                while (p < Math.min(prefix, t.length()) && t.charAt(p) == first.charAt(p)) {
                    p++;
                }
                prefix = p;
                int q = 0;
                while (q < Math.min(suffix, t.length()) && t.charAt(t.length() - 1 - q) == first.charAt(first.length() - 1 - q)) {
                    q++;
                }
                suffix = q;
            }
            // back to word boundaries: the varying part is whole words (a NIC's name), not a shared digit
            while (prefix > 0 && !boundary(first.charAt(prefix - 1))) {
                prefix--;
            }
            while (suffix > 0 && !boundary(first.charAt(first.length() - suffix))) {
                suffix--;
            }
            java.util.List<String> middles = new java.util.ArrayList<>();
            for (String t : texts) {
                if (prefix + suffix > t.length()) {
                    return null;
                }
                String m = t.substring(prefix, t.length() - suffix);
                if (m.isEmpty() || m.chars().anyMatch(c -> c == ' ')) {
                    return null;
                }
                middles.add(m);
            }
            return first.substring(0, prefix) + "{" + String.join(", ", middles) + "}" + first.substring(first.length() - suffix);
        }

        private static boolean boundary(char c) {
            return c == ' ' || c == ':' || c == '(' || c == ')' || c == ',' || c == '\'';
        }

        /** The result rests on each tied limit, so on each one's parameter, in the tie's order. */
        @Override
        public List<ProfileParameter> parameters() {
            return limits.stream().flatMap(l -> l.parameters().stream()).toList();
        }
    }

    /** The kinds that have no parts: one value each. */
    enum Plain implements Bottleneck {
        /** The NIC's message rate: one work request per fragment time. */
        MESSAGE_RATE("NIC message rate",
                "the NIC's message rate (its per-work-request cost is ASSUMED unless the scenario's protocol sets it)"),
        /** The NIC's message rate over all its QPs (NVIDIA's datasheet figure). */
        NIC_MESSAGE_RATE("NIC-wide message rate", "the NIC's message rate over all its QPs (ConnectX-7 datasheet: "
                + "330-370 million messages per second)"),
        /** IOMMU translation when not in passthrough, as a share of the wire rate. */
        IOMMU("IOMMU translation (not passthrough)", "IOMMU translation (not in passthrough; the scenario's ASSUMED penalty)"),
        /** A flow's own rate cap, when no layer said which of its limits that was. */
        FLOW_CAP(Limit.OWN_CAP.id(), Limit.OWN_CAP.id()),
        /** Nothing: no bytes moved. */
        NONE(Limit.NONE.id(), "nothing (no bytes)");

        private final String id;
        private final String words;

        Plain(String id, String words) {
            this.id = id;
            this.words = words;
        }

        @Override
        public String id() {
            return id;
        }

        @Override
        public String words() {
            return words;
        }
    }

    /**
     * The transfer failed. A lane stopped by the failure has no {@code reason} (null); the transfer
     * carries the error its initiator saw.
     */
    record Failed(String reason) implements Bottleneck {
        @Override
        public String id() {
            return reason == null ? "failed" : "failed: " + reason;
        }

        @Override
        public String words() {
            return id();
        }
    }
}
