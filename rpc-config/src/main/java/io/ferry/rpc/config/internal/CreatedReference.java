package io.ferry.rpc.config.internal;

import io.ferry.rpc.config.ReferenceConfig;
import io.ferry.rpc.config.internal.cluster.ClusterDirectory;
import io.ferry.rpc.config.option.Resolved;

/**
 * A reference this Ferry made, as the admin port shows it: its config, its settings with where each came from, and
 * the directory of its providers.
 */
public record CreatedReference(ReferenceConfig<?> config, Resolved settings, ClusterDirectory directory) {
}
