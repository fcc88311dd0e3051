package org.rdmasim.refit.layout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class RankPlacementTest {
    private final TrainerLayout trainer = new TrainerLayout(8, 2, 1, 1, 1, 1);
    private final InferenceLayout inference = new InferenceLayout(8, 1, false, 0);

    @Test
    void separateGroupsPackRanksOntoTheirOwnHosts() {
        RankPlacement p = RankPlacement.separate(8, trainer, inference);
        assertEquals(new RankPlacement.Gpu("node1", 1, 3), p.trainer(11));
        assertEquals(new RankPlacement.Gpu("node2", 2, 5), p.inference(5));
        assertEquals(3, p.hosts());
        assertFalse(p.sameHost(0, 0));
        assertThrows(IllegalArgumentException.class, () -> p.trainer(16));
    }

    @Test
    void colocatedGroupsShareHostsAndGpus() {
        RankPlacement p = RankPlacement.colocated(8, trainer, inference);
        assertEquals(p.trainer(5), p.inference(5));
        assertEquals(2, p.hosts());
        assertTrue(p.sameHost(3, 7));
        assertFalse(p.sameHost(8, 7));
    }
}
