package io.ferry.rpc.config;

/** The load balancers a reference can choose by name; their Dubbo names are those of {@code loadbalance}. */
public enum LoadBalance {
    /**
     * Ferry's default: of two providers drawn at random, the one with the lower cost, where cost is the moving
     * average of its response time × (its calls in flight + 1), divided by its weight. A slow or stuck provider
     * gets less traffic at once, without configuration. Not in Dubbo.
     */
    ADAPTIVE("adaptive"),
    /** Weighted random, honouring warm-up. Dubbo's default. */
    RANDOM("random"),
    /** Smooth weighted round robin (each provider in proportion to its weight, interleaved). */
    ROUNDROBIN("roundrobin"),
    /** The provider with the fewest calls in flight; ties broken by weighted random. */
    LEASTACTIVE("leastactive"),
    /** The same arguments go to the same provider (a ring of 160 virtual nodes each), until the list changes. */
    CONSISTENTHASH("consistenthash"),
    /** The provider with the shortest expected response: average response time × (calls in flight + 1). */
    SHORTESTRESPONSE("shortestresponse");

    private final String dubboName;

    LoadBalance(String dubboName) {
        this.dubboName = dubboName;
    }

    public String dubboName() {
        return dubboName;
    }
}
