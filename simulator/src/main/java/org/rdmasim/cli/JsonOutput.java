package org.rdmasim.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import picocli.CommandLine.Option;

/**
 * The {@code --json} option block of commands whose result a script reads: the same figures as the text,
 * as one JSON object on standard output, with the command and a schema version so a reader can tell
 * which fields to expect. Sizes are bytes, durations seconds, bandwidths Gbps, as in summary.json.
 */
final class JsonOutput {
    /** Version of the objects these commands print; raised when a field changes meaning or goes away. */
    static final int SCHEMA_VERSION = 1;

    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    @Option(names = "--json", description = "print the result as one JSON object on standard output instead of text "
            + "(bytes, seconds, Gbps)")
    boolean json;

    /** A new object naming {@code command} and the schema version. */
    static ObjectNode start(String command) {
        ObjectNode o = MAPPER.createObjectNode();
        o.put("schemaVersion", SCHEMA_VERSION);
        o.put("command", command);
        return o;
    }

    static void print(PrintWriter w, ObjectNode o) {
        try {
            w.println(MAPPER.writeValueAsString(o));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a JSON tree that Jackson built could not be written", e);
        }
        w.flush();
    }
}
