package org.rdmasim.transport.config;

/**
 * Who set a configuration value. The order of the constants is the order in which the layers are
 * applied; which layer wins a conflict is not simply the later one (see {@link ConfigResolver}).
 */
public enum ConfigLayer {
    /** The library's built-in default: UCX's config tables, or NCCL's/ModelExpress's own defaults. */
    DEFAULT,
    /** The installed {@code ucx.conf}, per CPU section (UCX >= 1.18.0); the environment overrides it. */
    UCX_CONF,
    /** NIXL's UCX backend, {@code src/plugins/ucx/ucx_utils.cpp}. */
    NIXL,
    /** The ModelExpress client's NIC pin, {@code modelexpress_client/python/modelexpress/ucx_utils.py}. */
    MODEL_EXPRESS,
    /** The user's environment (shell, manifest, scenario). */
    USER
}
