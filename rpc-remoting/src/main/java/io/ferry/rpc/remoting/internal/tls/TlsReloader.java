package io.ferry.rpc.remoting.internal.tls;

import org.slf4j.LoggerFactory;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Checks TLS contexts' files for a change every {@code sslReloadInterval}, on one daemon thread of its own: file
 * reads stay off the IO threads, and a slow disk delays nothing but the next check. Started by whoever first needs
 * it; released on {@link #close()}.
 */
public final class TlsReloader implements AutoCloseable {
    private final ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "ferry-tls-reload");
        t.setDaemon(true);
        return t;
    });

    /** Watches {@code context}'s files, if it has any, from now until {@link #close()}. */
    public void watch(TlsContext context) {
        if (!context.hasFiles()) {
            return;
        }
        long every = context.options().reloadInterval().toMillis();
        thread.scheduleWithFixedDelay(() -> {
            try {
                context.reloadIfChanged();
            } catch (RuntimeException | Error e) { // a throw would end the schedule: log, and check again later
                LoggerFactory.getLogger(TlsReloader.class).warn("TLS reload check failed: {}", e.toString());
            }
        }, every, every, TimeUnit.MILLISECONDS);
    }

    @Override
    public void close() {
        thread.shutdownNow();
    }
}
