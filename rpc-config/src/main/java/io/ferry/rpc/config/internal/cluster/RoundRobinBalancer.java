package io.ferry.rpc.config.internal.cluster;

import io.ferry.rpc.Invocation;
import io.ferry.rpc.cluster.Endpoint;
import io.ferry.rpc.cluster.LoadBalancer;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Dubbo's {@code roundrobin}, smooth weighted (as nginx): each pick adds every candidate's weight to its running
 * score and takes the highest, which then gives back the total. Weights 5:1:1 give a a b a c a a, not a a a a a b c.
 * One sequence per reference; thread-safe.
 */
public final class RoundRobinBalancer implements LoadBalancer {
    private final Map<String, long[]> scores = new HashMap<>();

    @Override
    public synchronized Endpoint select(List<Endpoint> candidates, Invocation invocation) {
        if (scores.size() > 4 * candidates.size() + 16) {
            scores.keySet().retainAll(candidates.stream().map(Endpoint::address).toList()); // forget departed
        }
        long total = 0;
        Endpoint best = null;
        long[] bestScore = null;
        for (Endpoint e : candidates) {
            int weight = Math.max(0, e.weight());
            long[] score = scores.computeIfAbsent(e.address(), a -> new long[1]);
            score[0] += weight;
            total += weight;
            if (best == null || score[0] > bestScore[0]) {
                best = e;
                bestScore = score;
            }
        }
        bestScore[0] -= total;
        return best;
    }
}
