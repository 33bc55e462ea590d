package io.ferry.rpc.config.internal.cluster;

import io.ferry.rpc.Invocation;
import io.ferry.rpc.cluster.Endpoint;
import io.ferry.rpc.cluster.LoadBalancer;

import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;

/** Dubbo's {@code random}: weighted random (weights ramp up over each provider's warm-up). Thread-safe. */
public final class RandomBalancer implements LoadBalancer {
    private final Supplier<RandomGenerator> random;

    public RandomBalancer() {
        this(ThreadLocalRandom::current);
    }

    /** Drawing from {@code random} (a seeded one, in tests: then calls must come from one thread). */
    public RandomBalancer(Supplier<RandomGenerator> random) {
        this.random = random;
    }

    @Override
    public Endpoint select(List<Endpoint> candidates, Invocation invocation) {
        return WeightedPick.among(candidates, random.get());
    }
}
