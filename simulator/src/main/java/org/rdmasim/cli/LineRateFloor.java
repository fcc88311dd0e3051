package org.rdmasim.cli;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.Hosts;
import org.rdmasim.transport.LaneSplit;
import org.rdmasim.transport.TransferSpec;

/**
 * The least time a transfer can take at the wire rate of the sink NICs its lanes use: {@code explain}'s
 * "line-rate floor" line and the JSON's {@code lineRateFloor} are both this record.
 *
 * @param nics               the distinct sink NICs the lanes use
 * @param wireBytesPerSecond their payload rates summed
 * @param seconds            the transfer's bytes over that rate
 */
record LineRateFloor(int nics, double wireBytesPerSecond, double seconds) {
    static LineRateFloor of(Hosts cluster, TransferSpec ts, List<LaneSplit.Candidate> lanes) {
        Host sink = cluster.host(ts.sink().host());
        Set<String> used = new LinkedHashSet<>();
        double wire = 0;
        for (LaneSplit.Candidate c : lanes) {
            if (used.add(c.sinkNic())) {
                wire += sink.nic(c.sinkNic()).nic().payloadBytesPerSecond(sink.profile());
            }
        }
        return new LineRateFloor(used.size(), wire, ts.bytes() / wire);
    }
}
