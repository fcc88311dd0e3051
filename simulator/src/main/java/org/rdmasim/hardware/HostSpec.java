package org.rdmasim.hardware;

import java.util.List;

/**
 * A host described as values: CPU sockets (NUMA nodes) holding a tree of host bridges, PCIe
 * switches, GPUs and NICs. Presets, inline scenario hosts and importers all produce one.
 *
 * @param model      what the host is (for reports), e.g. "DGX H100"
 * @param interSocket per-direction bandwidth of the link between two sockets, bytes per second
 * @param source     where the description comes from (a preset's citation, an imported file)
 * @param profile    the calibration profile the host names, or null: the first one it matches
 * @param interSocketFrom the profile parameter the inter-socket bandwidth is and the profile the preset took it
 *                   from (then {@code interSocket} is that profile's value), when a preset took it from one; else null
 * @param calibration the profile bound to the host ({@link #withCalibration}: a rerun without one of its
 *                   parameters), which wins over {@code profile} and matching; else null
 * @param layout     the same host laid out as a profile flag's other value, when a preset's layout follows one
 *                   (the GB300 tray's {@code gpuBehindNicSwitch}); else null
 */
public record HostSpec(String model, CpuFamily cpuFamily, double interSocket, List<SocketSpec> sockets,
        String source, String profile, ProfileFigure interSocketFrom, CalibrationProfile calibration, FlagLayout layout) {
    /** A figure a preset took from a profile: which parameter, and the profile it was written for. */
    public record ProfileFigure(ProfileKey key, String home) {
    }

    /**
     * A layout chosen by a profile flag: the flag, the value this spec was laid out for, and the host laid out
     * for the other value (which carries no layout of its own).
     */
    public record FlagLayout(ProfileKey key, boolean value, HostSpec other) {
        public FlagLayout {
            if (key.quantity() != ProfileKey.Quantity.FLAG) {
                throw new IllegalArgumentException(key.key() + " is no flag: it cannot choose a layout");
            }
            if (other.layout() != null) {
                throw new IllegalArgumentException("the other layout of " + key.key() + " carries a layout itself");
            }
        }
    }

    /** A host whose calibration profile is the first one its CPU and NICs match. */
    public HostSpec(String model, CpuFamily cpuFamily, double interSocket, List<SocketSpec> sockets, String source) {
        this(model, cpuFamily, interSocket, sockets, source, null, null, null, null);
    }

    /**
     * The same host bound to {@code bound}, which its run then reads instead of the profile it names or
     * matches: the one way a rerun changes a calibrated or assumed figure (a copy of the host's profile without
     * one parameter, {@link CalibrationProfile#without}). Where the preset's layout follows a flag of the
     * profile, the host is laid out as {@code bound}'s flag says.
     */
    public HostSpec withCalibration(CalibrationProfile bound) {
        HostSpec laidOut = this;
        if (layout != null) {
            boolean wanted = bound.parameter(layout.key()).map(p -> p.value() == 1).orElse(layout.value());
            if (wanted != layout.value()) {
                HostSpec o = layout.other();
                HostSpec self = new HostSpec(model, cpuFamily, interSocket, sockets, source, profile, interSocketFrom,
                        calibration, null);
                laidOut = new HostSpec(o.model(), o.cpuFamily(), o.interSocket(), o.sockets(), o.source(), profile,
                        interSocketFrom, null, new FlagLayout(layout.key(), wanted, self));
            }
        }
        return new HostSpec(laidOut.model, laidOut.cpuFamily, laidOut.interSocket, laidOut.sockets, laidOut.source,
                profile, interSocketFrom, bound, laidOut.layout);
    }

    /** The same host, laid out for {@code key} = {@code value}, with {@code other} its layout for the other value. */
    HostSpec withLayout(ProfileKey key, boolean value, HostSpec other) {
        return new HostSpec(model, cpuFamily, interSocket, sockets, source, profile, interSocketFrom, calibration,
                new FlagLayout(key, value, other));
    }

    /**
     * The inter-socket bandwidth of this host on {@code calibration} (its profile), bytes per second: the
     * profile's {@link #interSocketKey} when the preset took the figure from a profile and this one has it,
     * so the host's profile decides it as it decides every other calibrated figure; else the spec's own.
     */
    public double interSocket(CalibrationProfile calibration) {
        return interSocketSource(calibration).map(CalibrationProfile.Parameter::bytesPerSecond).orElse(interSocket);
    }

    /**
     * The profile whose parameter the inter-socket bandwidth is on {@code calibration} (the host's profile when
     * it has the parameter, else the one the preset took it from), or empty when the figure is the host's own.
     */
    public java.util.Optional<String> interSocketProfile(CalibrationProfile calibration) {
        if (interSocketFrom == null) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(calibration.parameter(interSocketFrom.key()).isPresent() ? calibration.name()
                : interSocketFrom.home());
    }

    /** The profile parameter the inter-socket bandwidth is on {@code calibration}, or empty (see above). */
    public java.util.Optional<CalibrationProfile.Parameter> interSocketSource(CalibrationProfile calibration) {
        if (interSocketFrom == null) {
            return java.util.Optional.empty();
        }
        return calibration.parameter(interSocketFrom.key()).or(() -> {
            try {
                return CalibrationProfile.named(interSocketFrom.home()).parameter(interSocketFrom.key());
            } catch (IllegalArgumentException e) {
                return java.util.Optional.empty();
            }
        });
    }

    /** The parameter the inter-socket bandwidth is, when a preset took it from a profile. */
    public java.util.Optional<ProfileKey> interSocketKey() {
        return java.util.Optional.ofNullable(interSocketFrom).map(ProfileFigure::key);
    }

    /** The same host, its inter-socket bandwidth {@code key} of its profile (a preset's figure, from {@code key}'s home). */
    HostSpec withInterSocketFrom(ProfileKey key, String home) {
        return new HostSpec(model, cpuFamily, interSocket, sockets, source, profile, new ProfileFigure(key, home),
                calibration, layout == null ? null : new FlagLayout(layout.key(), layout.value(),
                        layout.other().withInterSocketFrom(key, home)));
    }

    /**
     * The calibration profile the scenario puts this host on in place of its own (the one its hardware matches,
     * {@link CalibrationProfile#matching}), or empty when it runs on its own. A host on another profile runs on
     * terms measured on other hardware, or on none ({@code generic}): what the answer would be on those terms,
     * which no deployment of this hardware can choose. A profile bound for a rerun without one parameter
     * ({@link #withCalibration}) is the host's own profile less that parameter, not another one.
     */
    public java.util.Optional<String> otherProfile() {
        if (profile == null || profile.equals(CalibrationProfile.matching(this).name())) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(profile);
    }

    /** The same host with its calibration profile named (see {@link CalibrationProfile}). */
    public HostSpec withProfile(String name) {
        return new HostSpec(model, cpuFamily, interSocket, sockets, source, name, interSocketFrom, calibration,
                layout == null ? null : new FlagLayout(layout.key(), layout.value(), layout.other().withProfile(name)));
    }

    public HostSpec {
        sockets = List.copyOf(sockets);
        if (sockets.isEmpty()) {
            throw new IllegalArgumentException("host " + model + " has no CPU socket");
        }
        if (sockets.size() > 1 && !(interSocket > 0)) {
            throw new IllegalArgumentException("host " + model + " needs a positive inter-socket bandwidth");
        }
    }

    /**
     * The same host with each GPU and NIC replaced by what {@code device} makes of it (sockets, switches and host
     * bridges kept as they are, their devices mapped); what {@code device} returns unchanged stays.
     */
    public HostSpec withDevices(java.util.function.UnaryOperator<DeviceSpec> device) {
        List<SocketSpec> mapped = new java.util.ArrayList<>();
        for (SocketSpec s : sockets) {
            mapped.add(new SocketSpec(s.numaNode(), s.memoryBandwidth(), s.memoryBytes(), s.cpuAffinity(),
                    mapDevices(s.devices(), device)));
        }
        return new HostSpec(model, cpuFamily, interSocket, mapped, source, profile, interSocketFrom, calibration,
                layout == null ? null : new FlagLayout(layout.key(), layout.value(), layout.other().withDevices(device)));
    }

    private static List<DeviceSpec> mapDevices(List<DeviceSpec> devices, java.util.function.UnaryOperator<DeviceSpec> device) {
        List<DeviceSpec> out = new java.util.ArrayList<>();
        for (DeviceSpec d : devices) {
            if (d instanceof SwitchSpec sw) {
                out.add(new SwitchSpec(sw.name(), sw.uplink(), mapDevices(sw.devices(), device)));
            } else if (d instanceof HostBridgeSpec hb) {
                out.add(new HostBridgeSpec(hb.name(), mapDevices(hb.devices(), device)));
            } else {
                out.add(device.apply(d));
            }
        }
        return out;
    }

    /** The same host described as {@code newModel} (what an adjustment made of it, for reports). */
    public HostSpec withModel(String newModel) {
        return new HostSpec(newModel, cpuFamily, interSocket, sockets, source, profile, interSocketFrom, calibration,
                layout == null ? null : new FlagLayout(layout.key(), layout.value(), layout.other().withModel(newModel)));
    }

    /** Every NIC of the host, in PCI order (socket by socket, depth first). */
    public List<NicSpec> nicSpecs() {
        List<NicSpec> out = new java.util.ArrayList<>();
        for (SocketSpec s : sockets) {
            collectNics(s.devices(), out);
        }
        return out;
    }

    /** The GPU named {@code name}, if the host has one by that name (its link to its parent among the rest). */
    public java.util.Optional<GpuSpec> gpu(String name) {
        for (SocketSpec s : sockets) {
            GpuSpec g = findGpu(s.devices(), name);
            if (g != null) {
                return java.util.Optional.of(g);
            }
        }
        return java.util.Optional.empty();
    }

    private static GpuSpec findGpu(List<DeviceSpec> devices, String name) {
        for (DeviceSpec d : devices) {
            GpuSpec found = d instanceof GpuSpec g ? (g.name().equals(name) ? g : null)
                    : d instanceof SwitchSpec sw ? findGpu(sw.devices(), name)
                    : d instanceof HostBridgeSpec hb ? findGpu(hb.devices(), name) : null;
            if (found != null) {
                return found;
            }
        }
        return null;
    }

    private static void collectNics(List<DeviceSpec> devices, List<NicSpec> out) {
        for (DeviceSpec d : devices) {
            if (d instanceof NicSpec n) {
                out.add(n);
            } else if (d instanceof SwitchSpec sw) {
                collectNics(sw.devices(), out);
            } else if (d instanceof HostBridgeSpec hb) {
                collectNics(hb.devices(), out);
            }
        }
    }

    /**
     * One CPU socket, i.e. one NUMA node.
     *
     * @param memoryBandwidth host memory bandwidth of this socket, bytes per second (read plus write)
     * @param memoryBytes     host memory attached to it
     * @param cpuAffinity     CPU list as {@code nvidia-smi topo -m} prints it, e.g. "0-55,112-167"
     */
    public record SocketSpec(int numaNode, double memoryBandwidth, long memoryBytes, String cpuAffinity,
            List<DeviceSpec> devices) {
        public SocketSpec {
            devices = List.copyOf(devices);
        }
    }

    /** Something attached below a socket. */
    public sealed interface DeviceSpec permits HostBridgeSpec, SwitchSpec, GpuSpec, NicSpec {
        String name();
    }

    /** A PCIe host bridge (root complex) of a socket; traffic between its children does not reach the CPU fabric. */
    public record HostBridgeSpec(String name, List<DeviceSpec> devices) implements DeviceSpec {
        public HostBridgeSpec {
            devices = List.copyOf(devices);
        }
    }

    /** A PCIe switch with its uplink towards the CPU. */
    public record SwitchSpec(String name, LinkSpec uplink, List<DeviceSpec> devices) implements DeviceSpec {
        public SwitchSpec {
            devices = List.copyOf(devices);
        }
    }

    /**
     * A GPU.
     *
     * @param nvlinks NVLink count towards the host's NVLink domain (0 when none), printed as NV#
     */
    public record GpuSpec(String name, GpuModel model, LinkSpec link, long hbmBytes, long bar1Bytes, int nvlinks)
            implements DeviceSpec {
        /** One direction of the GPU's NVLink ports: its links times the per-link rate; 0 without NVLink. */
        public double nvlinkBytesPerSecond() {
            return nvlinks * model.nvlinkPerLinkBytesPerSecond();
        }
    }

    /**
     * One NIC port as the verbs layer sees it ({@code mlx5_N}, port).
     *
     * @param lineRateGbps signalling rate of the port (400 for an NDR ConnectX-7)
     * @param relaxedOrdering whether the device supports PCIe relaxed ordering (UCX then may add an MR)
     * @param role            compute port, or storage/management port used only where a user lists it
     */
    public record NicSpec(String name, NicModel model, LinkLayer linkLayer, LinkSpec link, int port,
            double lineRateGbps, boolean relaxedOrdering, NicRole role) implements DeviceSpec {
        public NicSpec {
            if (!(lineRateGbps > 0)) {
                throw new IllegalArgumentException("NIC " + name + " needs a positive line rate");
            }
            if (role == null) {
                throw new IllegalArgumentException("NIC " + name + " needs a role");
            }
        }

        /** A compute port. */
        public NicSpec(String name, NicModel model, LinkLayer linkLayer, LinkSpec link, int port,
                double lineRateGbps, boolean relaxedOrdering) {
            this(name, model, linkLayer, link, port, lineRateGbps, relaxedOrdering, NicRole.COMPUTE);
        }

        /** The same port with another role. */
        public NicSpec withRole(NicRole r) {
            return new NicSpec(name, model, linkLayer, link, port, lineRateGbps, relaxedOrdering, r);
        }

        public boolean compute() {
            return role == NicRole.COMPUTE;
        }

        /**
         * What the port delivers in payload, bytes per second, on a host whose profile is {@code calibration}:
         * line rate times the link layer's framing efficiency. The one line-rate floor of run, explain and
         * claims is built on it.
         */
        public double payloadBytesPerSecond(CalibrationProfile calibration) {
            return Units.gbpsToBytesPerSecond(lineRateGbps) * linkLayer.wireEfficiency(calibration);
        }

        public static NicSpec of(String name, NicModel model, LinkLayer layer) {
            return new NicSpec(name, model, layer, model.hostLink(), 1, model.lineRateGbps(), true);
        }
    }
}
