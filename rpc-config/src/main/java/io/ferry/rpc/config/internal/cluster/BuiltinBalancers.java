package io.ferry.rpc.config.internal.cluster;

import io.ferry.rpc.cluster.LoadBalancer;
import io.ferry.rpc.config.extension.LoadBalancerProvider;
import io.ferry.rpc.config.extension.ReferenceContext;

/** Ferry's own load balancers, registered by name like any other (see {@code META-INF/services}). */
public final class BuiltinBalancers {
    private BuiltinBalancers() {
    }

    /** P2C over peak-EWMA latency: the default. */
    public static final class Adaptive implements LoadBalancerProvider {
        @Override
        public String name() {
            return "adaptive";
        }

        @Override
        public LoadBalancer create(ReferenceContext reference) {
            return new AdaptiveBalancer();
        }
    }

    public static final class Random implements LoadBalancerProvider {
        @Override
        public String name() {
            return "random";
        }

        @Override
        public LoadBalancer create(ReferenceContext reference) {
            return new RandomBalancer();
        }
    }

    public static final class RoundRobin implements LoadBalancerProvider {
        @Override
        public String name() {
            return "roundrobin";
        }

        @Override
        public LoadBalancer create(ReferenceContext reference) {
            return new RoundRobinBalancer();
        }
    }

    public static final class LeastActive implements LoadBalancerProvider {
        @Override
        public String name() {
            return "leastactive";
        }

        @Override
        public LoadBalancer create(ReferenceContext reference) {
            return new LeastActiveBalancer();
        }
    }

    public static final class ConsistentHash implements LoadBalancerProvider {
        @Override
        public String name() {
            return "consistenthash";
        }

        @Override
        public LoadBalancer create(ReferenceContext reference) {
            return new ConsistentHashBalancer(reference.reference().hashArguments());
        }
    }

    public static final class ShortestResponse implements LoadBalancerProvider {
        @Override
        public String name() {
            return "shortestresponse";
        }

        @Override
        public LoadBalancer create(ReferenceContext reference) {
            return new ShortestResponseBalancer();
        }
    }
}
