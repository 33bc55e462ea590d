package io.ferry.rpc.config.extension;

import io.ferry.rpc.Ticker;
import io.ferry.rpc.config.ServiceConfig;
import io.ferry.rpc.config.option.Resolved;

/** What an extension made for one exported service may know of it. */
public interface ServiceContext {
    /** The service, with {@code -D}, the class path's {@code ferry.properties} and the provider defaults applied. */
    ServiceConfig<?> service();

    /** Its settings, method by method, each with where it was set. */
    Resolved settings();

    /** This process's application name. */
    String application();

    /** The clock to read, so that tests can move a fake one. */
    Ticker ticker();
}
