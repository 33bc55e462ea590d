package io.ferry.rpc.config.internal.cluster;

import io.ferry.rpc.cluster.Endpoint;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.ToDoubleFunction;

/** Weighted random choice among a list, the tie-breaker several balancers share. */
final class WeightedPick {
    private WeightedPick() {
    }

    /** The candidate with the lowest {@code cost}; ties broken by weighted random. */
    static Endpoint cheapest(List<Endpoint> candidates, ToDoubleFunction<Endpoint> cost) {
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
        return among(tied);
    }

    /** One of {@code candidates} (never empty) with probability in proportion to its weight. */
    static Endpoint among(List<Endpoint> candidates) {
        int size = candidates.size();
        if (size == 1) {
            return candidates.get(0);
        }
        long total = 0;
        boolean equal = true;
        int first = Math.max(0, candidates.get(0).weight());
        for (Endpoint e : candidates) {
            int w = Math.max(0, e.weight());
            total += w;
            equal &= w == first;
        }
        ThreadLocalRandom random = ThreadLocalRandom.current();
        if (equal || total <= 0) {
            return candidates.get(random.nextInt(size));
        }
        long pick = random.nextLong(total);
        for (Endpoint e : candidates) {
            pick -= Math.max(0, e.weight());
            if (pick < 0) {
                return e;
            }
        }
        return candidates.get(size - 1);
    }
}
