package org.rdmasim.fluid;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.rdmasim.engine.SimulationClock;

/** A group's members in finish order: the same first member, order and due prefix as a sorted set by tag then id. */
class MembersByTagTest {
    private static final double INF = Double.POSITIVE_INFINITY;

    @Test
    void firstOrderAndDuePrefixMatchASortedSetThroughJoinsAndLeaves() {
        FluidNetwork net = new FluidNetwork(new SimulationClock());
        Resource link = net.addResource("link", ResourceKind.NIC_TX, 100);
        Random random = new Random(11);
        MembersByTag members = new MembersByTag();
        TreeSet<Flow> reference = new TreeSet<>(MembersByTag::compare);
        List<Flow> in = new ArrayList<>();
        for (int step = 0; step < 5_000; step++) {
            if (in.isEmpty() || random.nextInt(5) < 3 && in.size() < 300) {
                Flow f = new Flow(step, "f" + step, new Resource[] {link}, new double[] {1}, 1, INF, 1, 0);
                // Few distinct tags, so ties (ordered by id) are common, as for the lanes of one transfer.
                f.tag = random.nextInt(40) * 0.25;
                members.add(f);
                reference.add(f);
                in.add(f);
            } else {
                Flow f = in.remove(random.nextInt(in.size()));
                members.remove(f);
                reference.remove(f);
            }
            assertEquals(reference.isEmpty() ? null : reference.first(), members.first(), "step " + step);
            assertEquals(reference.size(), members.size());
            if (step % 50 == 0) {
                assertEquals(List.copyOf(reference), members.inOrder());
                double bound = random.nextInt(40) * 0.25;
                assertEquals(List.copyOf(reference.headSet(probe(bound), true)),
                        members.firstWhile(tag -> tag <= bound), "tags up to " + bound);
            }
        }
    }

    @Test
    void aFlowThatIsNoMemberCannotLeave() {
        FluidNetwork net = new FluidNetwork(new SimulationClock());
        Resource link = net.addResource("link", ResourceKind.NIC_TX, 100);
        MembersByTag members = new MembersByTag();
        Flow a = new Flow(1, "a", new Resource[] {link}, new double[] {1}, 1, INF, 1, 0);
        Flow b = new Flow(2, "b", new Resource[] {link}, new double[] {1}, 1, INF, 1, 0);
        members.add(a);
        assertThrows(IllegalStateException.class, () -> members.remove(b));
        members.remove(a);
        assertTrue(members.isEmpty());
        assertNull(members.first());
    }

    /** A flow after every flow of tag {@code tag} in the order (largest id). */
    private static Flow probe(double tag) {
        Flow p = new Flow(Long.MAX_VALUE, "probe", new Resource[0], new double[0], 1, INF, 1, 0);
        p.tag = tag;
        return p;
    }
}
