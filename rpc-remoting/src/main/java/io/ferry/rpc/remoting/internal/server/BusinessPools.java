package io.ferry.rpc.remoting.internal.server;

import io.ferry.rpc.remoting.internal.codec.InboundFrame;
import io.ferry.rpc.remoting.internal.serialize.GuardedHessian2Input;
import io.ferry.rpc.remoting.internal.serialize.SafeSerializerFactory;

import io.ferry.rpc.remoting.PoolStats;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The provider's shared business pool and the pools of services that have their own. Only when some service has
 * one does the IO thread read a request's service name (the second string of its body) to pick the pool.
 */
public final class BusinessPools {
    private final BusinessPool shared;
    private final Map<String, BusinessPool> byService = new ConcurrentHashMap<>();

    public BusinessPools(BusinessPool shared) {
        this.shared = shared;
    }

    /** Gives {@code service} a pool of its own; returns false if it already has one. */
    public boolean dedicate(String service, BusinessPool pool) {
        return byService.putIfAbsent(service, pool) == null;
    }

    BusinessPool forRequest(InboundFrame frame) {
        if (byService.isEmpty()) {
            return shared;
        }
        GuardedHessian2Input in = GuardedHessian2Input.open(frame.body().duplicate(),
                SafeSerializerFactory.jdkOnly());
        try {
            in.readString(); // the Dubbo version
            BusinessPool own = byService.get(in.readString());
            return own != null ? own : shared;
        } catch (IOException | RuntimeException unreadable) {
            return shared; // the business thread reports it properly
        } finally {
            in.release();
        }
    }

    /** Every pool now: the shared one first. */
    public List<PoolStats> stats() {
        List<PoolStats> all = new ArrayList<>();
        all.add(shared.stats());
        byService.values().forEach(pool -> all.add(pool.stats()));
        return all;
    }

    public void shutdown() {
        shared.shutdown();
        byService.values().forEach(BusinessPool::shutdown);
    }

    public void awaitTermination(long millis) throws InterruptedException {
        shared.awaitTermination(millis);
        for (BusinessPool pool : byService.values()) {
            pool.awaitTermination(millis);
        }
    }
}
