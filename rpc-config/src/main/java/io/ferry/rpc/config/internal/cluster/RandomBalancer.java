package io.ferry.rpc.config.internal.cluster;

import io.ferry.rpc.Invocation;
import io.ferry.rpc.cluster.Endpoint;
import io.ferry.rpc.cluster.LoadBalancer;

import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/** Dubbo's {@code random}: weighted random; uniform when every weight is equal (or all are zero). */
public final class RandomBalancer implements LoadBalancer {
    @Override
    public Endpoint select(List<Endpoint> candidates, Invocation invocation) {
        int size = candidates.size();
        if (size == 1) {
            return candidates.get(0);
        }
        long total = 0;
        boolean equal = true;
        int first = candidates.get(0).weight();
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
