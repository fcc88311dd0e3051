package org.rdmasim.transport.backend;

import java.util.ArrayList;
import java.util.List;
import org.rdmasim.transport.citation.CitedNote;

/**
 * The protocol selection table UCX prints with {@code UCX_PROTO_INFO=y}, laid out as
 * {@code ucp_proto_select_elem_info} prints it (openucx/ucx v1.20.0 src/ucp/proto/proto_debug.c L171-256): a
 * header row with the endpoint configuration's name and the operation, then one row per message-size range
 * with the protocol's description and its lanes, columns padded to the widest cell.
 *
 * @param endpoint  the endpoint configuration, as {@code ucp_ep_config_name} names it ("inter-node cfg#0")
 * @param operation the selection parameters ("remote memory read by ucp_get* into cuda/GPU0 from cuda")
 * @param rows      one per size range, smallest first
 * @param notes     what the table alone does not say (lines printed under it), each with the code it follows
 */
public record ProtocolTable(String endpoint, String operation, List<Row> rows, List<CitedNote> notes) {
    public ProtocolTable {
        rows = List.copyOf(rows);
        notes = List.copyOf(notes);
    }

    /**
     * One size range.
     *
     * @param range    as {@code ucs_memunits_range_str} writes it ("0..inf", "2049..inf")
     * @param protocol the protocol's description ("zero-copy", "software emulation")
     * @param lanes    its configuration: the lanes and their shares ("50% on rc_mlx5/mlx5_0:1/path0 and ...")
     */
    public record Row(String range, String protocol, String lanes) {
    }

    /** The table as UCX prints it (without the log prefix UCX puts before each line). */
    public List<String> lines() {
        int w0 = endpoint.length();
        int w1 = 0;
        int w2 = 0;
        for (Row r : rows) {
            w0 = Math.max(w0, r.range().length());
            w1 = Math.max(w1, r.protocol().length());
            w2 = Math.max(w2, r.lanes().length());
        }
        w1 = Math.max(w1, operation.length() - w2); // proto_debug.c: column 1 widened so the header fits
        int header1 = w1 + 3 + w2;
        List<String> out = new ArrayList<>();
        out.add(separator(w0, header1));
        out.add("| " + left(endpoint, w0, true) + " | " + left(operation, header1, false) + " |");
        out.add(separator(w0, w1, w2));
        for (Row r : rows) {
            out.add("| " + left(r.range(), w0, true) + " | " + left(r.protocol(), w1, false) + " | "
                    + left(r.lanes(), w2, false) + " |");
        }
        out.add(separator(w0, w1, w2));
        notes.forEach(n -> out.add(n.text()));
        return out;
    }

    private static String separator(int... widths) {
        StringBuilder b = new StringBuilder("+");
        for (int w : widths) {
            b.append("-".repeat(w + 2)).append('+');
        }
        return b.toString();
    }

    /** {@code %*s} (right-aligned) or {@code %-*s} (left-aligned) at width {@code w}. */
    private static String left(String s, int w, boolean rightAlign) {
        if (s.length() >= w) {
            return s;
        }
        String pad = " ".repeat(w - s.length());
        return rightAlign ? pad + s : s + pad;
    }
}
