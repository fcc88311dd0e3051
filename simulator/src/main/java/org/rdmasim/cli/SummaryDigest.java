package org.rdmasim.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;

/**
 * What {@code compare} reads of a summary.json, read as a stream: each variant's figures and names, its
 * registration, its slowest receiver's pull (not every receiver), the lanes of its first transfer (not
 * every lane) and a refit's first and steady cycle, skipping per-NIC and per-receiver lists. Memory stays
 * in proportion to the number of variants, so a 128k-receiver summary of hundreds of MB compares in
 * seconds in a small heap.
 */
final class SummaryDigest {
    /** Largest summary.json read: far above what any run writes (2 MB for 1,024 receivers in 6 variants). */
    static final long MAX_BYTES = 1L << 30;

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final Set<String> OBJECTS_KEPT = Set.of("registration");

    private SummaryDigest() {
    }

    /**
     * The digest of {@code f}: an object with {@code variants}, each holding its scalar fields, the kept
     * objects, {@code receivers} as the one slowest receiver and {@code lanes} as the first transfer's.
     */
    static JsonNode read(Path f) throws IOException {
        long size = Files.size(f);
        if (size > MAX_BYTES) {
            throw new BadInputException(f + " is " + (size >> 20) + " MiB, over the limit of " + (MAX_BYTES >> 20)
                    + " MiB for a summary.json");
        }
        ObjectNode root = MAPPER.createObjectNode();
        try (JsonParser p = new JsonFactory().createParser(f.toFile())) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return null;
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonToken t = p.nextToken();
                if (field.equals("variants") && t == JsonToken.START_ARRAY) {
                    ArrayNode variants = root.putArray("variants");
                    while (p.nextToken() != JsonToken.END_ARRAY) {
                        variants.add(p.currentToken() == JsonToken.START_OBJECT ? variant(p) : scalarOrSkip(p));
                    }
                } else {
                    root.set(field, scalarOrSkip(p));
                }
            }
        }
        return root;
    }

    private static ObjectNode variant(JsonParser p) throws IOException {
        ObjectNode v = MAPPER.createObjectNode();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken t = p.nextToken();
            if (field.equals("receivers") && t == JsonToken.START_ARRAY) {
                v.putArray("receivers").add(slowestReceiver(p));
            } else if (field.equals("lanes") && t == JsonToken.START_ARRAY) {
                v.set("lanes", firstTransferLanes(p));
            } else if (field.equals("refit") && t == JsonToken.START_OBJECT) {
                v.set("refit", refit(p));
            } else if (t == JsonToken.START_OBJECT && OBJECTS_KEPT.contains(field)) {
                v.set(field, MAPPER.readTree(p));
            } else {
                v.set(field, scalarOrSkip(p));
            }
        }
        return v;
    }

    /** The receiver entry with the longest pull, as {@code {pullSeconds: x}}. */
    private static ObjectNode slowestReceiver(JsonParser p) throws IOException {
        double worst = 0;
        while (p.nextToken() != JsonToken.END_ARRAY) {
            if (p.currentToken() != JsonToken.START_OBJECT) {
                p.skipChildren();
                continue;
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonToken t = p.nextToken();
                if (field.equals("pullSeconds") && t.isNumeric()) {
                    worst = Math.max(worst, p.getDoubleValue());
                } else {
                    p.skipChildren();
                }
            }
        }
        return MAPPER.createObjectNode().put("pullSeconds", worst);
    }

    /**
     * A refit's block: its scalar fields (method, first and steady cycle seconds) and of its cycles the
     * first and the last (the steady one), each with its stages, wire bytes and bound; the plan, what it
     * rests on and the reruns are skipped.
     */
    private static ObjectNode refit(JsonParser p) throws IOException {
        ObjectNode r = MAPPER.createObjectNode();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken t = p.nextToken();
            if (field.equals("cycles") && t == JsonToken.START_ARRAY) {
                JsonNode first = null;
                JsonNode last = null;
                while (p.nextToken() != JsonToken.END_ARRAY) {
                    last = MAPPER.readTree(p);
                    first = first == null ? last : first;
                }
                ArrayNode cycles = r.putArray("cycles");
                if (first != null) {
                    cycles.add(first);
                    if (last != first) {
                        cycles.add(last);
                    }
                }
            } else if (t.isStructStart()) {
                p.skipChildren();
            } else {
                r.set(field, MAPPER.readTree(p));
            }
        }
        return r;
    }

    /** The lanes of the first transfer listed (compare shows those). */
    private static ArrayNode firstTransferLanes(JsonParser p) throws IOException {
        ArrayNode lanes = MAPPER.createArrayNode();
        String first = null;
        while (p.nextToken() != JsonToken.END_ARRAY) {
            if (p.currentToken() != JsonToken.START_OBJECT) {
                p.skipChildren();
                continue;
            }
            JsonNode lane = MAPPER.readTree(p);
            String transfer = lane.path("transfer").asText();
            if (first == null) {
                first = transfer;
            }
            if (transfer.equals(first)) {
                lanes.add(lane);
            }
        }
        return lanes;
    }

    /** A scalar as a node; a list or object the digest does not keep is skipped (an empty node). */
    private static JsonNode scalarOrSkip(JsonParser p) throws IOException {
        if (p.currentToken().isStructStart()) {
            p.skipChildren();
            return p.currentToken() == JsonToken.END_ARRAY ? MAPPER.createArrayNode() : MAPPER.createObjectNode();
        }
        return MAPPER.readTree(p);
    }
}
