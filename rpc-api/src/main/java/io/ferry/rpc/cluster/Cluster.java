package io.ferry.rpc.cluster;

import io.ferry.rpc.Invoker;

/**
 * A fault-tolerance strategy: turns a directory and a load balancer into one {@link Invoker} that decides what a
 * failed attempt means (try another provider, fail, ignore, retry later) within the call's one deadline.
 */
@FunctionalInterface
public interface Cluster {
    Invoker join(Directory directory, LoadBalancer balancer);
}
