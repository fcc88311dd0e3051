package org.rdmasim.importers.smi;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rdmasim.hardware.HostSpec;
import org.rdmasim.importers.ImportOptions;
import org.rdmasim.importers.ImportResult;
import org.rdmasim.importers.ImportWarning;

/** PcieTreeInference's last resort: one NUMA node whose devices are SYS to each other becomes several sockets. */
class SplitNumaTest {
    @Test
    void devicesOfOneNodeThatAreSysToEachOtherGetSocketsOfTheirOwn() {
        String text = "\tGPU0\tGPU1\tNIC0\tNIC1\tCPU Affinity\tNUMA Affinity\n"
                + "GPU0\t X \tSYS\tPIX\tSYS\t0-7\t0\n"
                + "GPU1\tSYS\t X \tSYS\tPIX\t0-7\t0\n"
                + "NIC0\tPIX\tSYS\t X \tSYS\n"
                + "NIC1\tSYS\tPIX\tSYS\t X \n";
        ImportResult r = SmiTopologyReader.importText(text, "topo.txt", ImportOptions.defaults());
        List<String> warnings = r.warnings().stream().map(ImportWarning::text).toList();
        assertEquals("topo.txt:1: warning: devices of one NUMA node are SYS to each other, which no single socket gives: "
                + "NUMA node(s) [0] are imported as several sockets each (with a socket's memory figures each), so that "
                + "every GPU-NIC cell holds", warnings.get(warnings.size() - 1), warnings.toString());
        List<String> sockets = new ArrayList<>();
        for (HostSpec.SocketSpec s : r.single().spec().sockets()) {
            sockets.add(s.numaNode() + ":" + DeviceNames.of(s.devices()));
        }
        // each GPU with the NIC it is PIX to, both sockets on node 0
        assertEquals(List.of("0:[GPU0, mlx5_0]", "0:[GPU1, mlx5_1]"), sockets);
    }

}
