package io.ferry.rpc.config.extension;

import io.ferry.rpc.Ticker;
import io.ferry.rpc.config.RegistryConfig;

import java.time.Clock;
import java.util.concurrent.ScheduledExecutorService;

/** What a {@link RegistryProvider} is given to open one Ferry's registry. */
public interface RegistryContext {
    /**
     * The registry as configured, {@code -D} and the class path's {@code ferry.properties} applied: its
     * {@link RegistryConfig#address() address} (scheme, host, port and any parameters, as written) and its
     * {@link RegistryConfig#settings() settings} (session and connection timeouts, cache file: read each with
     * {@code settings().get(RegistryOptionKeys.SESSION_TIMEOUT)}, its declared default when not set).
     */
    RegistryConfig registry();

    /** This process's application name, as it is registered. */
    String application();

    /** The monotonic clock to read for durations, so that tests can move a fake one. */
    Ticker ticker();

    /** The wall clock, for what other processes compare (a provider's start time). */
    Clock wall();

    /**
     * The Ferry's one scheduler, for the registry's delayed and background work (retries, pushes to listeners).
     * Tasks must be short and must not block; it stops when the Ferry closes, after the registry is closed.
     */
    ScheduledExecutorService timer();
}
