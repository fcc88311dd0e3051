package org.rdmasim.transport.ucx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.rdmasim.hardware.CalibrationProfile;
import org.rdmasim.hardware.HostSpec;
import org.rdmasim.hardware.LinkLayer;
import org.rdmasim.hardware.NicModel;
import org.junit.jupiter.api.Test;

class UcxWireEstimateTest {

    private static final CalibrationProfile GENERIC = CalibrationProfile.named("generic");

    @Test
    void roceLanesAreRankedWithUcxsHeaderCountNotTheFrameOnTheWire() {
        HostSpec.NicSpec roce = HostSpec.NicSpec.of("mlx5_0", NicModel.CX7, LinkLayer.ROCE);
        double ucx = UcxWireEstimate.bytesPerSecond(roce, GENERIC);
        double wire = roce.payloadBytesPerSecond(GENERIC);
        // UCX counts 90 B a packet (GRH, Ethernet, BTH, RETH, ICRC, VCRC, delimiter); the frame carries 82 B
        assertEquals(roce.lineRateGbps() * 1e9 / 8 * 4096 / (4096 + 90), ucx, 1);
        assertEquals(roce.lineRateGbps() * 1e9 / 8 * 4096 / (4096 + 82), wire, 1);
        assertTrue(ucx < wire, "UCX's estimate must stay below what the wire carries on RoCE");
    }

    @Test
    void infinibandEstimateUsesUcxs44Bytes() {
        HostSpec.NicSpec ib = HostSpec.NicSpec.of("mlx5_0", NicModel.CX7, LinkLayer.INFINIBAND);
        assertEquals(ib.lineRateGbps() * 1e9 / 8 * 4096 / 4140, UcxWireEstimate.bytesPerSecond(ib, GENERIC), 1);
    }

    @Test
    void efaIsTheWiresOwnAssumedFigure() {
        HostSpec.NicSpec efa = HostSpec.NicSpec.of("rdmap0", NicModel.CX7, LinkLayer.EFA);
        CalibrationProfile aws = CalibrationProfile.named("aws-efa");
        assertEquals(efa.payloadBytesPerSecond(aws), UcxWireEstimate.bytesPerSecond(efa, aws), 0);
    }
}
