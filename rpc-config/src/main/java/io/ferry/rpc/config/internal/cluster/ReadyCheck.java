package io.ferry.rpc.config.internal.cluster;

import io.ferry.rpc.remoting.ProviderEndpoint;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Dubbo's {@code check}: waits until one of a reference's providers has a ready connection (connected, its readiness
 * ping answered), starting connects where none is under way, and says why not when the time is up. Waits on the
 * directory's monitor, which is notified when the provider list changes.
 */
final class ReadyCheck {
    private ReadyCheck() {
    }

    /** Null once a provider is ready; otherwise, when {@code timeoutNanos} has passed, what was tried and why. */
    static String await(Supplier<List<ProviderEndpoint>> endpoints, Object monitor, long timeoutNanos)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeoutNanos;
        Map<String, String> errors = new LinkedHashMap<>();
        Set<ProviderEndpoint> watched = ConcurrentHashMap.newKeySet();
        synchronized (monitor) {
            while (true) {
                List<ProviderEndpoint> list = endpoints.get();
                for (ProviderEndpoint e : list) {
                    if (e.isReady()) {
                        return null;
                    }
                }
                for (ProviderEndpoint e : list) {
                    if (watched.add(e)) {
                        e.whenReady().whenComplete((ready, error) -> {
                            if (error != null) {
                                Throwable cause = error instanceof CompletionException && error.getCause() != null
                                        ? error.getCause() : error;
                                synchronized (errors) {
                                    errors.put(e.address(), cause.getMessage());
                                }
                                watched.remove(e); // watch its next attempt
                            }
                            synchronized (monitor) {
                                monitor.notifyAll();
                            }
                        });
                    }
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return whyNot(list, errors);
                }
                TimeUnit.NANOSECONDS.timedWait(monitor, left);
            }
        }
    }

    private static String whyNot(List<ProviderEndpoint> list, Map<String, String> errors) {
        if (list.isEmpty()) {
            return "no provider is listed";
        }
        StringBuilder why = new StringBuilder("none of ").append(list.size()).append(" provider(s) became ready: ");
        synchronized (errors) {
            for (ProviderEndpoint e : list) {
                String error = errors.get(e.address());
                why.append(e.address()).append(" (").append(error != null ? error : "still connecting").append("), ");
            }
        }
        why.setLength(why.length() - 2);
        return why.toString();
    }
}
