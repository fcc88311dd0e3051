/**
 * Readers for blocks of environment variables as users already write them: shell lines
 * ({@code export UCX_NET_DEVICES=mlx5_0:1}), plain {@code KEY=VALUE} files, and the {@code env:}
 * lists of Kubernetes pod and deployment manifests. Each reader turns its text into an ordered list
 * of {@link org.rdmasim.transport.config.EnvEntry} values that remember the file and line they came
 * from, so later errors about a value can point back at the line that set it. Nothing here knows
 * what the variables mean; that is {@code org.rdmasim.transport.config}'s job.
 */
package org.rdmasim.importers.env;
