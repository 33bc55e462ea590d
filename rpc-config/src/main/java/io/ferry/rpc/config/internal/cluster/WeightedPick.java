package io.ferry.rpc.config.internal.cluster;

import io.ferry.rpc.cluster.Endpoint;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.ToDoubleFunction;
import java.util.random.RandomGenerator;

/** Weighted random choice among a list, the tie-breaker several balancers share. */
final class WeightedPick {
    private WeightedPick() {
    }

    /** The candidate with the lowest {@code cost}; ties broken by weighted random. */
    static Endpoint cheapest(List<Endpoint> candidates, ToDoubleFunction<Endpoint> cost) {
        return cheapest(candidates, cost, ThreadLocalRandom.current());
    }

    /** As {@link #cheapest(List, ToDoubleFunction)}, drawing from {@code random}. */
    static Endpoint cheapest(List<Endpoint> candidates, ToDoubleFunction<Endpoint> cost, RandomGenerator random) {
        double best = Double.MAX_VALUE;
        List<Endpoint> tied = new ArrayList<>(candidates.size());
        for (Endpoint e : candidates) {
            double c = cost.applyAsDouble(e);
            if (c < best) {
                best = c;
                tied.clear();
            }
            if (c == best) {
                tied.add(e);
            }
        }
        return among(tied, random);
    }

    /** One of {@code candidates} (never empty) with probability in proportion to its weight. */
    static Endpoint among(List<Endpoint> candidates) {
        return among(candidates, ThreadLocalRandom.current());
    }

    /**
     * As {@link #among(List)}, drawing from {@code random}. Each weight is read once per pick (a warming provider's
     * changes as time goes by).
     */
    static Endpoint among(List<Endpoint> candidates, RandomGenerator random) {
        int size = candidates.size();
        if (size == 1) {
            return candidates.get(0);
        }
        long total = 0;
        boolean equal = true;
        int[] weights = new int[size];
        for (int i = 0; i < size; i++) {
            weights[i] = Math.max(0, candidates.get(i).weight());
            total += weights[i];
            equal &= weights[i] == weights[0];
        }
        if (equal || total <= 0) {
            return candidates.get(random.nextInt(size));
        }
        long pick = random.nextLong(total);
        for (int i = 0; i < size; i++) {
            pick -= weights[i];
            if (pick < 0) {
                return candidates.get(i);
            }
        }
        return candidates.get(size - 1);
    }
}
