package io.ferry.rpc.config.internal.cluster;

import io.ferry.rpc.config.OutlierEjection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One provider's standing with one reference, as a state machine on an injected clock:
 * <pre>
 *   TRUSTED ──n failures in a row (and a free ejection place)──► EJECTED ──time is up──► PROBE_DUE
 *      ▲                                                          ▲                        │ a call is sent
 *      └──────────────── the probe is answered ─── PROBING ◄──────┼────────────────────────┘
 *                                                      └─ fails ──┘ (the next ejection lasts twice as long)
 * </pre>
 * Only a timeout or a lost connection counts as a failure: the provider's own exceptions and refusals (a full
 * pool) are answers. Thread-safe.
 */
final class OutlierDetector {
    private static final Logger log = LoggerFactory.getLogger(OutlierDetector.class);

    enum State { TRUSTED, EJECTED, PROBE_DUE, PROBING, REMOVED }

    private final String address;
    private final Ejections ejections;
    /** Written under the lock, read without it on the call path: a trusted provider costs no lock per call. */
    private volatile State state = State.TRUSTED;
    private volatile int consecutiveFailures;
    private int ejectionsInARow;
    private long ejectedUntil;

    OutlierDetector(String address, Ejections ejections) {
        this.address = address;
        this.ejections = ejections;
    }

    /** Whether calls may be sent now: trusted, or due for its probe. */
    boolean admits(long now) {
        State s = state;
        if (s == State.TRUSTED || s == State.REMOVED) {
            return true;
        }
        return admitsLocked(now);
    }

    private synchronized boolean admitsLocked(long now) {
        refresh(now);
        return state == State.TRUSTED || state == State.PROBE_DUE || state == State.REMOVED;
    }

    /** A call is being sent: if a probe is due, this call is it. */
    void sending(long now) {
        State s = state;
        if (s == State.TRUSTED || s == State.REMOVED) {
            return;
        }
        sendingLocked(now);
    }

    private synchronized void sendingLocked(long now) {
        refresh(now);
        if (state == State.PROBE_DUE) {
            state = State.PROBING;
        }
    }

    void answered() {
        State s = state;
        if (s == State.REMOVED || (s == State.TRUSTED && consecutiveFailures == 0)) {
            return; // the usual case, lock-free
        }
        answeredLocked();
    }

    private synchronized void answeredLocked() {
        if (state == State.REMOVED) {
            return;
        }
        consecutiveFailures = 0;
        if (state == State.PROBING) {
            state = State.TRUSTED;
            ejectionsInARow = 0;
            ejections.returned();
            log.info("{}: answered its probe; back in rotation", address);
        }
    }

    synchronized void failed(long now) {
        if (state == State.REMOVED) {
            return; // calls of a provider that left, still ending: they must not take an ejection place
        }
        refresh(now);
        if (state == State.PROBING) {
            eject(now, "its probe failed");
            return;
        }
        if (state != State.TRUSTED) {
            return;
        }
        consecutiveFailures++;
        OutlierEjection policy = ejections.policy();
        if (consecutiveFailures >= policy.consecutiveFailures() && ejections.tryEject()) {
            eject(now, consecutiveFailures + " calls in a row timed out or lost their connection");
        }
    }

    /** A call that ended without telling anything (refused unrun, failed before sending): a probe is due again. */
    synchronized void inconclusive() {
        if (state == State.PROBING) {
            state = State.PROBE_DUE;
        }
    }

    private void eject(long now, String why) {
        OutlierEjection policy = ejections.policy();
        long base = policy.baseEjection().toNanos();
        long max = policy.maxEjection().toNanos();
        int doublings = Math.min(30, ejectionsInARow);
        long duration = base > (max >> doublings) ? max : Math.min(max, base << doublings);
        ejectionsInARow++;
        state = State.EJECTED;
        ejectedUntil = now + duration;
        consecutiveFailures = 0;
        log.warn("{}: ejected for {} ms: {}", address, duration / 1_000_000, why);
    }

    private void refresh(long now) {
        if (state == State.EJECTED && now - ejectedUntil >= 0) {
            state = State.PROBE_DUE;
        }
    }

    /** The provider left the reference: give back its ejection place if it held one. */
    synchronized void removed() {
        if (state != State.TRUSTED && state != State.REMOVED) {
            ejections.returned();
        }
        state = State.REMOVED;
    }

    synchronized State state(long now) {
        refresh(now);
        return state;
    }
}
