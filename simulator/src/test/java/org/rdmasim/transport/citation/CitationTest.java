package org.rdmasim.transport.citation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A citation reads back to the same fields it was written from, alone and joined; text that is not a citation is
 * refused when the class that holds it loads, not printed.
 */
class CitationTest {
    @Test
    void aCitationsTextAndFieldsAreOneAnother() {
        Citation c = Citation.parse("openucx/ucx v1.20.0 src/ucs/sys/topo/base/topo.c:481-512 ucs_topo_update_distance_sysfs");
        assertEquals(new Citation("openucx/ucx", "v1.20.0", "src/ucs/sys/topo/base/topo.c", 481, 512,
                "ucs_topo_update_distance_sysfs"), c);
        assertEquals("openucx/ucx v1.20.0 src/ucs/sys/topo/base/topo.c:481-512 ucs_topo_update_distance_sysfs", c.text());
        // one line, no symbol (a configuration file), and a C++ member as the symbol
        Citation conf = Citation.parse("openucx/ucx v1.20.0 config/ucx.conf:9");
        assertEquals(9, conf.lastLine());
        assertEquals("", conf.symbol());
        assertEquals("openucx/ucx v1.20.0 config/ucx.conf:9", conf.text());
        assertEquals("nixlUcxContext::nixlUcxContext",
                Citation.parse("ai-dynamo/nixl 0.4.0 src/utils/ucx/ucx_utils.cpp:396 nixlUcxContext::nixlUcxContext").symbol());
    }

    @Test
    void joinedCitationsShortenTheSameFileAndReadBack() {
        Citation a = Citation.parse("openucx/ucx v1.20.0 src/uct/ib/base/ib_iface.c:1387 uct_ib_iface_set_num_paths");
        Citation b = a.at(2007, 2007, "uct_ib_iface_estimate_path_bw");
        Citation other = Citation.parse("ai-dynamo/nixl v1.4.0 src/utils/libfabric/libfabric_common.h:42 X");
        String joined = Citation.join(List.of(a, b, other));
        assertEquals("openucx/ucx v1.20.0 src/uct/ib/base/ib_iface.c:1387 uct_ib_iface_set_num_paths, "
                + ":2007 uct_ib_iface_estimate_path_bw, ai-dynamo/nixl v1.4.0 src/utils/libfabric/libfabric_common.h:42 X",
                joined);
        assertEquals(List.of(a, b, other), Citation.parseAll(joined));
        assertEquals("words; source: " + joined, CitedNote.cited("words", a, b, other).text());
        assertEquals("words", CitedNote.uncited("words").text());
    }

    @Test
    void whatIsNotACitationIsRefused() {
        // the old NIXL form: no tag, no line after the file
        var e = assertThrows(IllegalArgumentException.class, () -> Citation.parse(
                "ai-dynamo/nixl ucx_utils.cpp config.modify(\"RNDV_THRESH\", \"inf\") (0.4.0 L396)"));
        assertTrue(e.getMessage().contains("REPO TAG FILE:LINE"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Citation.parse("openucx/ucx src/ucp/core/ucp_context.c"));
        // lines backwards
        assertThrows(IllegalArgumentException.class, () -> Citation.parse("openucx/ucx v1.20.0 a.c:20-10"));
    }
}
