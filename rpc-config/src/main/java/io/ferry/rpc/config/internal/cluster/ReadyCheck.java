package io.ferry.rpc.config.internal.cluster;

import io.ferry.rpc.Ticker;
import io.ferry.rpc.remoting.ProviderEndpoint;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * Dubbo's {@code check}: waits until one of a reference's providers has a ready connection (connected, its readiness
 * ping answered), starting connects where none is under way, and says why not when the time is up. Waits on the
 * directory's monitor, which is notified when the provider list changes. The timeout runs on the directory's
 * {@link Ticker}: each wait on the monitor lasts at most what is left of it, and the ticker is read again after.
 *
 * <p>A refused connect (nothing listens on the port) is certain at once, unlike a timeout: once the latest attempt
 * to every listed provider has been refused, the wait ends there, without waiting out the timeout (a provider whose
 * attempt is still under way, or that failed otherwise, keeps it going).
 */
final class ReadyCheck {
    private ReadyCheck() {
    }

    /**
     * Null once a provider is ready; otherwise, when {@code timeoutNanos} has passed on {@code ticker}, what was
     * tried and why.
     */
    static String await(Supplier<List<ProviderEndpoint>> endpoints, Object monitor, long timeoutNanos, Ticker ticker)
            throws InterruptedException {
        long deadline = ticker.nanoTime() + timeoutNanos;
        Map<String, String> errors = new LinkedHashMap<>();
        Set<String> refused = new HashSet<>(); // addresses whose latest attempt was refused (guarded by errors)
        Set<ProviderEndpoint> watched = ConcurrentHashMap.newKeySet();
        AtomicBoolean decisive = new AtomicBoolean(); // an attempt ended ready or refused: look again before waiting
        synchronized (monitor) {
            while (true) {
                List<ProviderEndpoint> list = endpoints.get();
                for (ProviderEndpoint e : list) {
                    if (e.isReady()) {
                        return null;
                    }
                }
                if (allRefused(list, errors, refused)) {
                    return "refused at once by every provider: " + whyNot(list, errors);
                }
                for (ProviderEndpoint e : list) {
                    if (watched.add(e)) {
                        e.whenReady().whenComplete((ready, error) -> {
                            if (error != null) {
                                Throwable cause = error instanceof CompletionException && error.getCause() != null
                                        ? error.getCause() : error;
                                boolean refusal = ProviderEndpoint.isRefusal(cause);
                                boolean newlyRefused;
                                synchronized (errors) {
                                    errors.put(e.address(), cause.getMessage());
                                    newlyRefused = refusal && refused.add(e.address());
                                    if (!refusal) {
                                        refused.remove(e.address());
                                    }
                                }
                                watched.remove(e); // watch its next attempt
                                if (newlyRefused) {
                                    decisive.set(true);
                                }
                            } else {
                                decisive.set(true);
                            }
                            synchronized (monitor) {
                                monitor.notifyAll();
                            }
                        });
                    }
                }
                long left = deadline - ticker.nanoTime();
                if (left > 0 && decisive.getAndSet(false)) {
                    continue; // an attempt ended while this thread held the monitor: its notify came before any wait
                }
                if (left <= 0) {
                    return list.isEmpty() ? "no provider is listed"
                            : "none of " + list.size() + " provider(s) became ready: " + whyNot(list, errors);
                }
                TimeUnit.NANOSECONDS.timedWait(monitor, left);
            }
        }
    }

    private static boolean allRefused(List<ProviderEndpoint> list, Map<String, String> errors, Set<String> refused) {
        synchronized (errors) {
            return !list.isEmpty() && list.stream().allMatch(e -> refused.contains(e.address()));
        }
    }

    /** Each listed provider with its last error, or "still connecting". */
    private static String whyNot(List<ProviderEndpoint> list, Map<String, String> errors) {
        StringBuilder why = new StringBuilder();
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
