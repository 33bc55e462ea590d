package io.ferry.rpc.config.extension;

import io.ferry.rpc.Ticker;
import io.ferry.rpc.config.ConsumerConfig;
import io.ferry.rpc.config.ReferenceConfig;
import io.ferry.rpc.config.option.Resolved;

import java.util.concurrent.ScheduledExecutorService;

/** What an extension made for one reference may know of it. */
public interface ReferenceContext {
    /** The reference, with {@code -D} and the class path's {@code ferry.properties} applied. */
    ReferenceConfig<?> reference();

    /** The consumer defaults beneath it. */
    ConsumerConfig consumer();

    /** Its settings, method by method, each with where it was set: {@code settings().get(Options.RETRIES, m)}. */
    Resolved settings();

    /** This process's application name. */
    String application();

    /** The clock to read, so that tests can move a fake one. */
    Ticker ticker();

    /** The Ferry's one timer thread, for delayed work. Tasks must be short and must not block. */
    ScheduledExecutorService timer();
}
