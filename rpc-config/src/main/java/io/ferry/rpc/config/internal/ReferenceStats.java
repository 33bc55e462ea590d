package io.ferry.rpc.config.internal;

import io.ferry.rpc.cluster.Endpoint;
import io.ferry.rpc.config.internal.cluster.ClusterDirectory;
import io.ferry.rpc.config.internal.cluster.RetryStats;

/**
 * What the meters read of one reference: its providers' calls in flight, ejections and registry listing (from its
 * directory), and its retries where its cluster retries.
 *
 * @param service the interface's fully qualified name
 * @param key     what tells references to the same service apart: group and version
 * @param retries null when its cluster does not retry (or says nothing of it)
 */
public record ReferenceStats(String service, String key, ClusterDirectory directory, RetryStats retries) {

    /** Calls sent to its providers and not yet ended: read from their stats, nothing counted on the call path. */
    public int inFlight() {
        int sum = 0;
        for (Endpoint endpoint : directory.endpoints()) {
            sum += endpoint.stats().active();
        }
        return sum;
    }
}
