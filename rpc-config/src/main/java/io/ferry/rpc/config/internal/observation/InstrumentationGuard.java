package io.ferry.rpc.config.internal.observation;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns observation off for good, with one WARN, the first time Micrometer's classes fail to link (jars of
 * mismatched versions): calls must never fail because of what watches them, and a log line per call would bury the
 * reason.
 */
final class InstrumentationGuard {
    private static final Logger log = LoggerFactory.getLogger(InstrumentationGuard.class);

    private volatile boolean off;

    boolean off() {
        return off;
    }

    void failed(LinkageError e) {
        if (!off) {
            off = true;
            log.warn("observation of calls turned off: Micrometer's classes do not link ({}); {} (align "
                    + "micrometer-observation and micrometer-tracing, e.g. with micrometer-tracing-bom)",
                    e.toString(), MicrometerVersions.describe());
        }
    }
}
