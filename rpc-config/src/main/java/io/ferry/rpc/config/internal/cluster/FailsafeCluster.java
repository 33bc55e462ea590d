package io.ferry.rpc.config.internal.cluster;

import io.ferry.rpc.Invoker;
import io.ferry.rpc.Result;
import io.ferry.rpc.cluster.Cluster;
import io.ferry.rpc.cluster.Directory;
import io.ferry.rpc.cluster.LoadBalancer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Dubbo's {@code failsafe}: one attempt; a failure is logged and the call returns null (an empty result), for
 * calls whose outcome does not matter to the caller (audit logs and the like).
 */
public final class FailsafeCluster implements Cluster {
    private static final Logger log = LoggerFactory.getLogger(FailsafeCluster.class);

    @Override
    public Invoker join(Directory directory, LoadBalancer balancer) {
        Invoker once = new FailfastCluster().join(directory, balancer);
        return invocation -> once.invoke(invocation).exceptionally(error -> {
            log.warn("{} failed and is ignored (failsafe): {}", invocation.description(), error.toString());
            return Result.empty();
        });
    }
}
