package io.ferry.rpc.config.extension;

import io.ferry.rpc.cluster.LoadBalancer;

/**
 * Makes the load balancer named by {@code loadbalance}. Registered in
 * {@code META-INF/services/io.ferry.rpc.config.extension.LoadBalancerProvider}.
 * <pre>{@code
 * public final class StickyBalancerProvider implements LoadBalancerProvider {
 *     public String name() { return "sticky"; }
 *     public LoadBalancer create(ReferenceContext reference) { return new StickyBalancer(); }
 * }
 * }</pre>
 */
public interface LoadBalancerProvider extends Extension {
    /** A balancer for one reference: called once per reference, so a balancer may keep state of its own. */
    LoadBalancer create(ReferenceContext reference);
}
