package org.rdmasim.transport.ucx;

import org.rdmasim.hardware.CalibrationProfile;
import org.rdmasim.hardware.HostSpec;
import org.rdmasim.hardware.Units;

/**
 * The wire bandwidth UCX believes an InfiniBand-verbs interface has, the figure it ranks and weights lanes with
 * (openucx/ucx v1.20.0 src/uct/ib/base/ib_iface.c:1979-1999, {@code uct_ib_iface_query}): the port's rate times
 * MTU over MTU plus its count of header bytes a packet. That count is UCX's, not the wire's: BTH 12, RETH 16,
 * ICRC 4, VCRC 2 and a 2-byte delimiter on every packet (RETH is the RC transport's header length, src/uct/ib/rc/base/rc_iface.c:176-178), plus LRH 8 on InfiniBand or GRH 40 and an Ethernet header
 * 14 on RoCE (sizes: src/uct/ib/base/ib_device.h:28-41): 44 B and 90 B. What the wire really carries is
 * {@link HostSpec.NicSpec#payloadBytesPerSecond} (on RoCE the frame with preamble, gap, FCS, IPv4 and UDP: 82 B),
 * which the solver uses; this figure only decides which lanes UCX opens and how it splits bytes over them.
 *
 * <p>UCX's own wire speed is width x signal rate x encoding of the speed class the port reports
 * ({@code ib_iface.c:1916-1981}); rdmasim takes the port's nominal rate. They are equal at EDR and HDR 4x
 * (25.78125 and 51.5625 GBd x 64/66 a lane); at NDR and XDR 4x UCX's figure (100e9 and 200e9 x 64/66 a lane) is
 * 3.0% below it, for every lane of that speed alike, so the ranking between such lanes does not move; only a
 * comparison with a PCIe or distance bandwidth within 3% could.
 */
public final class UcxWireEstimate {

    /** Bytes UCX counts on an InfiniBand RC packet beside its payload: LRH, BTH, RETH, ICRC, VCRC, delimiter. */
    static final int INFINIBAND_HEADER_BYTES = 8 + 12 + 16 + 4 + 2 + 2;
    /** The same on RoCE: GRH and an Ethernet header in place of LRH. */
    static final int ROCE_HEADER_BYTES = 40 + 14 + 12 + 16 + 4 + 2 + 2;
    /** The path MTU every modelled port runs (see {@link org.rdmasim.hardware.RocePathMtu}). */
    private static final int PATH_MTU = 4096;

    private UcxWireEstimate() {
    }

    /**
     * UCX's interface bandwidth of port {@code nic}, bytes per second, before the PCIe cap. An EFA device is not
     * an IB-verbs interface UCX rates this way; its figure is the wire's (the profile's named assumption).
     */
    public static double bytesPerSecond(HostSpec.NicSpec nic, CalibrationProfile calibration) {
        return switch (nic.linkLayer()) {
            case INFINIBAND -> Units.gbpsToBytesPerSecond(nic.lineRateGbps()) * efficiency(INFINIBAND_HEADER_BYTES);
            case ROCE -> Units.gbpsToBytesPerSecond(nic.lineRateGbps()) * efficiency(ROCE_HEADER_BYTES);
            case EFA -> nic.payloadBytesPerSecond(calibration);
        };
    }

    private static double efficiency(int headerBytes) {
        return PATH_MTU / (double) (PATH_MTU + headerBytes);
    }
}
