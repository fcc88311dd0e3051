package org.rdmasim.transport.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * UCX code is cited at the release the scenario names: the lines of each site come from ucx-sites.tsv, which
 * tools/code-sites/generate.py found in openucx/ucx by the code's text. The expected lines below were read
 * from the tags themselves ({@code git show v1.21.0:src/ucp/proto/proto_multi.c}).
 */
class UcxSiteTest {

    @Test
    void theRatioFilterIsCitedWhereEachReleaseHasIt() {
        assertEquals("openucx/ucx v1.20.0 src/ucp/proto/proto_multi.c:310 ucp_proto_multi_init",
                UcxSite.LANE_RATIO_DROP.cite(new StackVersion(1, 20, 0)).text());
        assertEquals("openucx/ucx v1.21.0 src/ucp/proto/proto_multi.c:308 ucp_proto_multi_init",
                UcxSite.LANE_RATIO_DROP.cite(new StackVersion(1, 21, 0)).text());
        assertEquals("openucx/ucx v1.22.0 src/ucp/proto/proto_multi.c:392 ucp_proto_multi_init",
                UcxSite.LANE_RATIO_DROP.cite(new StackVersion(1, 22, 0)).text());
        // ucx.conf's [AMD] line moves as sections are added above it
        assertEquals("openucx/ucx v1.22.0 config/ucx.conf:39", UcxSite.CONF_AMD_DISTANCE.cite(new StackVersion(1, 22, 0)).text());
        assertEquals("openucx/ucx v1.20.0 config/ucx.conf:30", UcxSite.CONF_AMD_DISTANCE.cite(new StackVersion(1, 20, 0)).text());
    }

    @Test
    void aReleaseWithoutTheCodeIsCitedAtTheNearestThatHasItAndSaysSo() {
        // uct_ib_iface_estimate_path_bw appears in v1.20.0; a 1.19.1 variant is cited there, with the release named
        assertEquals("openucx/ucx v1.20.0 src/uct/ib/base/ib_iface.c:2007 uct_ib_iface_estimate_path_bw "
                + "[as at v1.20.0; the release named is 1.19.1]", UcxSite.IB_PATH_BW.cite(new StackVersion(1, 19, 1)).text());
        // the sysfs distance had another name before v1.20.0: each release is cited at its own function, whole
        assertEquals("openucx/ucx v1.19.1 src/ucs/sys/topo/base/topo.c:392-464 ucs_topo_get_distance_sysfs",
                UcxSite.TOPO_DISTANCE.cite(new StackVersion(1, 19, 1)).text());
        assertEquals("openucx/ucx v1.21.0 src/ucs/sys/topo/base/topo.c:481-522 ucs_topo_update_distance_sysfs",
                UcxSite.TOPO_DISTANCE.cite(new StackVersion(1, 21, 0)).text());
        for (UcxSite s : UcxSite.values()) {
            String c = s.cite(new StackVersion(1, 22, 0)).text();
            assertTrue(c.startsWith("openucx/ucx v1.22.0 "), c); // every site is read at the newest release modelled
        }
    }
}
