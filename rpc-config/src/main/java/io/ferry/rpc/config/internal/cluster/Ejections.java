package io.ferry.rpc.config.internal.cluster;

import io.ferry.rpc.config.OutlierEjection;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntSupplier;

/**
 * The ejection policy of one reference's providers, and how many are ejected now: an endpoint asks here before it
 * ejects itself, so no more than the configured share of the reference's providers is ever out of rotation.
 */
final class Ejections {
    private final OutlierEjection policy;
    private final IntSupplier providers;
    private final AtomicInteger ejected = new AtomicInteger();

    Ejections(OutlierEjection policy, IntSupplier providers) {
        this.policy = policy;
        this.providers = providers;
    }

    OutlierEjection policy() {
        return policy;
    }

    /** Takes one of the ejection places, or returns false when the share is used up (or ejection is off). */
    boolean tryEject() {
        if (!policy.enabled()) {
            return false;
        }
        int allowed = providers.getAsInt() * policy.maxEjectedPercent() / 100;
        while (true) {
            int now = ejected.get();
            if (now >= allowed) {
                return false;
            }
            if (ejected.compareAndSet(now, now + 1)) {
                return true;
            }
        }
    }

    /** A provider back in rotation, or gone: its place is free. */
    void returned() {
        ejected.decrementAndGet();
    }

    int ejected() {
        return ejected.get();
    }
}
