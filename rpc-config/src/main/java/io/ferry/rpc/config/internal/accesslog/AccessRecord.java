package io.ferry.rpc.config.internal.accesslog;

import java.net.SocketAddress;

/**
 * One call as the access log keeps it between the business thread, which only makes this, and the writer thread,
 * which formats it. Nothing in it is formatted yet but the arguments, which are rendered (bounded) as the call starts,
 * only when asked for.
 *
 * @param startMillis wall-clock time the call started, epoch milliseconds
 * @param tookNanos   how long the provider took, from the start to the answer
 * @param caller      the consumer's address
 * @param commonName  the common name of the consumer's verified certificate, or null
 * @param serviceKey  {@code [group/]interface[:version]}
 * @param method      the method's name
 * @param status      OK, an {@code RpcStatus} name, or the class of what the service threw
 * @param arguments   the rendered argument values, or null when not asked for
 */
public record AccessRecord(long startMillis, long tookNanos, SocketAddress caller, String commonName,
                           String serviceKey, String method, String status, String arguments) {
}
