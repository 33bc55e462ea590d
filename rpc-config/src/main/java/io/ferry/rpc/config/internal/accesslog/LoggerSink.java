package io.ferry.rpc.config.internal.accesslog;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Lines to the slf4j logger {@value AccessLogDestination#LOGGER} at INFO: the binding decides where they land. */
final class LoggerSink implements AccessLogSink {
    private static final Logger log = LoggerFactory.getLogger(AccessLogDestination.LOGGER);

    @Override
    public void write(String line) {
        log.info(line); // no arguments: slf4j reads no {} in it
    }

    @Override
    public void flush() {
        // the binding's appenders flush on their own terms
    }

    @Override
    public void close() {
        // the logger is the binding's
    }
}
