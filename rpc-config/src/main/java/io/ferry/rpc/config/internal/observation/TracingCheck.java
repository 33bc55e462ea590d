package io.ferry.rpc.config.internal.observation;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Says once, at start, why an observation registry would make no spans: no tracing bridge on the class path, or
 * Micrometer jars that were not made for each other (Dubbo 3.3.6, for one, then turns its tracing off without a
 * word). It cannot see which handlers the registry has; what it can see, it names.
 */
final class TracingCheck {
    private static final Logger log = LoggerFactory.getLogger(TracingCheck.class);

    private TracingCheck() {
    }

    /** The problem found, or null; logged by {@link #warnIfBroken()}. */
    static String problem() {
        if (!MicrometerVersions.present(MicrometerVersions.TRACER)) {
            return "micrometer-tracing is not on the class path: calls are observed (metrics, where the registry "
                    + "has a meter handler) but make no spans, and no trace context crosses to providers (add "
                    + "micrometer-tracing-bridge-otel or micrometer-tracing-bridge-brave)";
        }
        if (!MicrometerVersions.present(MicrometerVersions.OTEL_BRIDGE)
                && !MicrometerVersions.present(MicrometerVersions.BRAVE_BRIDGE)) {
            return "micrometer-tracing is on the class path without a bridge (micrometer-tracing-bridge-otel or "
                    + "micrometer-tracing-bridge-brave): unless the registry has a tracer of another kind, calls "
                    + "make no spans";
        }
        String tracing = MicrometerVersions.version(MicrometerVersions.TRACER);
        String observation = MicrometerVersions.version(MicrometerVersions.OBSERVATION);
        if (!MicrometerVersions.matched(tracing, observation)) {
            return "micrometer-tracing " + tracing + " beside micrometer-observation " + observation
                    + ", which it was not made for: spans may be missing or fail (align them, e.g. with "
                    + "micrometer-tracing-bom)";
        }
        return null;
    }

    /**
     * Logs the problem: at INFO when there is no tracing at all (an application that wants metrics only, as a Boot
     * application with Actuator and no tracing bridge), at WARN when tracing is there but cannot work.
     */
    static void warnIfBroken() {
        String problem = problem();
        if (problem == null) {
            return;
        }
        if (MicrometerVersions.present(MicrometerVersions.TRACER)) {
            log.warn("observation registry: {}", problem);
        } else {
            log.info("observation registry: {}", problem);
        }
    }
}
