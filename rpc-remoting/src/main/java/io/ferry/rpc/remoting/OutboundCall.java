package io.ferry.rpc.remoting;

import java.util.Map;

/**
 * One call as the consumer sends it.
 *
 * @param service      the service's schema (its name is the path on the wire; its allow-list reads the answer)
 * @param method       the method called
 * @param version      the service version, "0.0.0" for none (what a Dubbo provider expects)
 * @param arguments    the arguments
 * @param attachments  everything sent beside the call, including {@code path}, {@code interface}, {@code version},
 *                     {@code group} and {@code timeout}
 * @param timeoutNanos how long the call may take from now, connecting included
 * @param oneway       true: no answer is expected; the call completes when its frame is written
 */
public record OutboundCall(ServiceSchema service, MethodSchema method, String version, Object[] arguments,
                           Map<String, Object> attachments, long timeoutNanos, boolean oneway) {

    /** "Interface.method" for messages. */
    public String description() {
        return method.description();
    }
}
