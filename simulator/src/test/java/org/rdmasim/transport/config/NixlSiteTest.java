package org.rdmasim.transport.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * NIXL's UCX set-up is cited at the NIXL release the scenario names: nixl-sites.tsv, which
 * tools/code-sites/generate.py --project nixl found in ai-dynamo/nixl by the code's text. The expected lines were
 * read from the tags themselves ({@code git show 0.7.0:src/utils/ucx/ucx_utils.cpp}).
 */
class NixlSiteTest {

    @Test
    void theRendezvousThresholdIsCitedWhereEachReleaseHasIt() {
        assertEquals("ai-dynamo/nixl 0.4.0 src/utils/ucx/ucx_utils.cpp:396 nixlUcxContext::nixlUcxContext",
                NixlSite.RNDV_THRESH.cite(new StackVersion(0, 4, 0)).text());
        assertEquals("ai-dynamo/nixl 0.7.0 src/utils/ucx/ucx_utils.cpp:440 nixlUcxContext::nixlUcxContext",
                NixlSite.RNDV_THRESH.cite(new StackVersion(0, 7, 0)).text());
        // the backend moved to src/plugins/ucx in 0.10.0
        assertEquals("ai-dynamo/nixl v1.1.0 src/plugins/ucx/ucx_utils.cpp:421 nixlUcxContext::nixlUcxContext",
                NixlSite.RNDV_THRESH.cite(new StackVersion(1, 1, 0)).text());
        assertEquals("ai-dynamo/nixl v1.4.0 src/plugins/ucx/ucx_utils.cpp:428 nixlUcxContext::nixlUcxContext",
                NixlSite.RNDV_THRESH.cite(new StackVersion(1, 4, 0)).text());
        // config::modify checks the environment first: getenv in 0.4.0, getValueOptional in v1.1.0
        assertEquals("ai-dynamo/nixl v1.1.0 src/plugins/ucx/config.cpp:26-34 config::modify",
                NixlSite.MODIFY_ENV_FIRST.cite(new StackVersion(1, 1, 0)).text());
    }

    @Test
    void aReleaseWithoutTheCallIsCitedAtTheNearestThatHasItAndSaysSo() {
        // MAX_HCA_PER_GPU=auto first appears in v1.2.0, under the UCX >= 1.21 test
        assertEquals("ai-dynamo/nixl v1.2.0 src/plugins/ucx/ucx_utils.cpp:430-432 nixlUcxContext::nixlUcxContext "
                + "[as at v1.2.0; the release named is 1.1.0]", NixlSite.MAX_HCA_PER_GPU.cite(new StackVersion(1, 1, 0)).text());
        // the note is a field of its own: the symbol stays the function's name
        assertEquals("nixlUcxContext::nixlUcxContext", NixlSite.MAX_HCA_PER_GPU.cite(new StackVersion(1, 1, 0)).symbol());
        assertEquals("as at v1.2.0; the release named is 1.1.0",
                NixlSite.MAX_HCA_PER_GPU.cite(new StackVersion(1, 1, 0)).note());
        // NIXL 0.8 dropped the rails-4 branch: a 1.1 variant is cited at 0.7.1, the last release with it
        assertEquals("ai-dynamo/nixl 0.7.1 src/utils/ucx/ucx_utils.cpp:448 nixlUcxContext::nixlUcxContext "
                + "[as at 0.7.1; the release named is 1.1.0]", NixlSite.RMA_RAILS_4.cite(new StackVersion(1, 1, 0)).text());
        for (NixlSite s : NixlSite.values()) {
            String c = s.cite(new StackVersion(1, 4, 0)).text();
            assertTrue(c.startsWith("ai-dynamo/nixl v1.4.0 ") || s == NixlSite.RMA_RAILS_4, c);
        }
    }
}
