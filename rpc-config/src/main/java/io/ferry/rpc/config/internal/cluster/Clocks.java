package io.ferry.rpc.config.internal.cluster;

import io.ferry.rpc.Ticker;

import java.time.Clock;
import java.util.concurrent.ScheduledExecutorService;

/**
 * The time sources and the one timer of a Ferry, handed to what it assembles so that nothing reads the system
 * clock or starts a thread of its own: tests pass fake ones.
 *
 * @param ticker monotonic time, for durations and deadlines
 * @param wall   wall-clock time, for what other processes compare (a provider's start in the registry)
 * @param timer  the Ferry's one timer thread, for delayed work; its tasks must be short and never block
 */
public record Clocks(Ticker ticker, Clock wall, ScheduledExecutorService timer) {
}
