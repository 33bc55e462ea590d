package io.ferry.rpc.config.extension;

import io.ferry.rpc.cluster.Cluster;

/**
 * Makes the fault-tolerance strategy named by {@code cluster}. Registered in
 * {@code META-INF/services/io.ferry.rpc.config.extension.ClusterProvider}.
 */
public interface ClusterProvider extends Extension {
    /** The cluster of one reference: called once per reference. */
    Cluster create(ReferenceContext reference);
}
