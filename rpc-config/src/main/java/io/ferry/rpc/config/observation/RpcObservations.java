package io.ferry.rpc.config.observation;

/**
 * The names Ferry's observations are made under, after OpenTelemetry's semantic conventions for RPC. A meter
 * handler turns each into a timer of that name (and an {@code .active} one for calls in flight); a tracing handler
 * into a span named {@code <service>/<method>}, of kind client or server.
 *
 * <p>Tags, all of bounded cardinality: {@value #SYSTEM} ({@value #SYSTEM_DUBBO}, as for every Dubbo 2 protocol
 * peer), {@value #SERVICE} (the interface's fully qualified name), {@value #METHOD}, and {@value #STATUS} once the
 * call has ended. Never argument values, request ids or addresses.
 */
public final class RpcObservations {
    /** A call made by this process's references, retries included. */
    public static final String CLIENT = "rpc.client.duration";
    /** A call served by this process's services, from the business thread's start to the answer. */
    public static final String SERVER = "rpc.server.duration";

    public static final String SYSTEM = "rpc.system";
    public static final String SYSTEM_DUBBO = "apache_dubbo";
    public static final String SERVICE = "rpc.service";
    public static final String METHOD = "rpc.method";
    public static final String STATUS = "rpc.status";

    /** The status of a call that returned. */
    public static final String OK = "OK";
    /** The status of a call whose service threw its own exception (the exception's class is in {@code error}). */
    public static final String EXCEPTION = "EXCEPTION";

    private RpcObservations() {
    }
}
