package io.ferry.rpc.remoting.internal.server;

import io.netty.channel.Channel;
import io.netty.util.AttributeKey;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The TLS handshakes a provider runs at once, at most {@code sslMaxHandshakes}: a connection takes a slot as it
 * opens and gives it back when its handshake is done or it closes, whichever is first. A connection finding none
 * free is closed at once, so a reconnect storm or a flood of hellos costs accepts, not queued crypto on the IO
 * threads and the memory of thousands of half-made sessions. One per server. Thread-safe.
 */
final class HandshakeSlots {
    private static final AttributeKey<AtomicBoolean> HELD = AttributeKey.valueOf("ferry.tls.slot");

    private final int max;
    private final AtomicInteger taken = new AtomicInteger();

    HandshakeSlots(int max) {
        this.max = max;
    }

    /** Takes a slot for {@code channel}'s handshake; false (and none taken) when all are taken. */
    boolean tryTake(Channel channel) {
        if (taken.incrementAndGet() > max) {
            taken.decrementAndGet();
            return false;
        }
        channel.attr(HELD).set(new AtomicBoolean(true));
        channel.closeFuture().addListener(f -> giveBack(channel));
        return true;
    }

    /** Gives {@code channel}'s slot back, once, whoever asks first. */
    void giveBack(Channel channel) {
        AtomicBoolean held = channel.attr(HELD).get();
        if (held != null && held.compareAndSet(true, false)) {
            taken.decrementAndGet();
        }
    }

    int max() {
        return max;
    }

    /** Slots taken now, for tests and diagnostics. */
    int taken() {
        return taken.get();
    }
}
