package org.rdmasim.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Limiters in plain words, one per kind the model records. */
class LimiterTest {
    @Test
    void resourcesAndCapsReadAsAnEngineerWouldSayThem() {
        assertEquals("NIC mlx5_0's transmit line rate on source", Limiter.words("source:mlx5_0 tx"));
        assertEquals("GPU0's PCIe link on source (towards the CPU)", Limiter.words("source:GPU0 PCIe up"));
        assertEquals("host memory bandwidth of CPU0 on a", Limiter.words("a:CPU0 memory"));
        assertEquals("the socket link CPU1 to CPU0 on a", Limiter.words("a:CPU1->CPU0"));
        assertEquals("the fabric: leaf leaf32's uplink", Limiter.words("leaf32 uplink"));
        assertEquals("NIC mlx5_0's delivered RDMA READ rate on receiver, CALIBRATED (308 Gbps, profile gb200-roce)",
                Limiter.words("receiver:mlx5_0 READ, calibrated to gb200-roce"));
        assertEquals("one QP's RDMA READ rate on b:mlx5_0, CALIBRATED (320 Gbps, profile connectx-ib)",
                Limiter.words("b:mlx5_0 READ rate of one QP, calibrated to connectx-ib"));
        // an assumed rate says so: gb300-ib takes ConnectX-8's per-QP READ from UCX's XDR note
        assertEquals("one QP's RDMA READ rate on b:mlx5_0, ASSUMED (280 Gbps, profile gb300-ib)",
                Limiter.words("b:mlx5_0 READ rate of one QP, assumed in gb300-ib"));
        assertEquals(Optional.of("gb300-ib"), Limiter.profile("b:mlx5_0 READ rate of one QP, assumed in gb300-ib"));
        // an EFA device's wire rate rests on the assumed SRD efficiency, and the report says on what
        String efa = "a:rdmap79s0 tx, SRD efficiency assumed in aws-efa";
        assertEquals("NIC rdmap79s0's transmit line rate on a (its SRD framing efficiency ASSUMED: 0.978 of line rate, "
                + "profile aws-efa)", Limiter.words(efa));
        assertEquals(Optional.of("aws-efa"), Limiter.profile(efa));
    }

    @Test
    void onlyCalibratedLimitersNameAProfile() {
        assertEquals(Optional.of("gb200-roce"), Limiter.profile("receiver:mlx5_0 READ, calibrated to gb200-roce"));
        assertEquals(Optional.empty(), Limiter.profile("source:mlx5_0 tx"));
    }
}
