package io.ferry.rpc.config.internal.cluster;

import io.ferry.rpc.Invocation;
import io.ferry.rpc.RpcException;
import io.ferry.rpc.RpcStatus;
import io.ferry.rpc.cluster.Directory;
import io.ferry.rpc.cluster.Endpoint;
import io.ferry.rpc.cluster.LoadBalancer;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/** How every strategy narrows a directory's providers down before the balancer picks. */
final class Candidates {
    private Candidates() {
    }

    /**
     * The providers not in {@code excluded} that are ready now (connected, not shutting down, not ejected), or,
     * when none is, all the others: a cluster with no ready provider still tries one rather than fail unasked.
     */
    static List<Endpoint> readyFirst(Directory directory, Collection<String> excluded) {
        List<Endpoint> all = directory.endpoints();
        if (excluded.isEmpty() && allReady(all)) {
            return all; // the usual first attempt: no copies
        }
        List<Endpoint> untried = new ArrayList<>(all.size());
        List<Endpoint> ready = new ArrayList<>(all.size());
        for (Endpoint e : all) {
            if (!excluded.contains(e.address())) {
                untried.add(e);
                if (e.isReady()) {
                    ready.add(e);
                }
            }
        }
        return ready.isEmpty() ? untried : ready;
    }

    private static boolean allReady(List<Endpoint> endpoints) {
        for (Endpoint e : endpoints) {
            if (!e.isReady()) {
                return false;
            }
        }
        return true;
    }

    /** One provider for one attempt, or null when there is none to try. */
    static Endpoint pick(Directory directory, LoadBalancer balancer, Invocation invocation,
                         Collection<String> excluded) {
        List<Endpoint> candidates = readyFirst(directory, excluded);
        return candidates.isEmpty() ? null : balancer.select(candidates, invocation);
    }

    static RpcException noProvider(Invocation invocation, Directory directory) {
        return RpcException.notExecuted(invocation.deadline().isExpired() ? RpcStatus.TIMEOUT : RpcStatus.NO_PROVIDER,
                "no provider of " + invocation.serviceKey() + " is available for " + invocation.description() + " ("
                        + directory.describe() + ")", null);
    }
}
