package org.rdmasim.transport.config;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * {@code UCX_RNDV_SCHEME}: the rendezvous protocol UCX uses for large messages. Names from
 * {@code ucp_rndv_modes[]} in {@code src/ucp/core/ucp_context.c}; UCX matches them ignoring case
 * ({@code __find_string_in_list} uses {@code strcasecmp}).
 */
public enum RndvScheme {
    AUTO("auto"),
    GET_ZCOPY("get_zcopy"),
    PUT_ZCOPY("put_zcopy"),
    GET_PIPELINE("get_ppln"),
    PUT_PIPELINE("put_ppln"),
    AM("am"),
    RKEY_PTR("rkey_ptr");

    private final String token;

    RndvScheme(String token) {
        this.token = token;
    }

    public String token() {
        return token;
    }

    public static RndvScheme parse(String text) {
        for (RndvScheme s : values()) {
            if (s.token.equalsIgnoreCase(text.strip())) {
                return s;
            }
        }
        throw new IllegalArgumentException("one of "
                + Arrays.stream(values()).map(RndvScheme::token).collect(Collectors.joining(", ")));
    }
}
