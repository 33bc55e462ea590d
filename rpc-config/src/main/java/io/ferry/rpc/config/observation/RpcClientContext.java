package io.ferry.rpc.config.observation;

import io.ferry.rpc.Invocation;
import io.micrometer.observation.transport.Kind;
import io.micrometer.observation.transport.SenderContext;

import java.util.Map;

/**
 * What the observation of one call on the consumer knows: the call, and once it has ended its {@linkplain #status()
 * status}. The carrier is the call's attachments, so a tracing bridge writes the trace context (W3C
 * {@code traceparent}, as Dubbo's tracing reads it) into what travels with the request. Made once per call, before
 * the cluster picks a provider: retries are inside it. A user's {@code ObservationConvention} or predicate may
 * read it.
 */
public final class RpcClientContext extends SenderContext<Map<String, Object>> implements RpcCall {
    private final Invocation invocation;
    private volatile String status;
    /**
     * When {@link RpcMeterObservationHandler} saw the call start ({@link RpcMeterObservationHandler#NOT_STARTED}
     * before): a field rather than an entry in the context's map; volatile, as the call may end on another thread.
     */
    volatile long startNanos = RpcMeterObservationHandler.NOT_STARTED;

    public RpcClientContext(Invocation invocation) {
        super(RpcClientContext::attach, Kind.CLIENT);
        this.invocation = invocation;
        setCarrier(invocation.attachments());
    }

    private static void attach(Map<String, Object> attachments, String key, String value) {
        if (attachments != null) {
            attachments.put(key, value);
        }
    }

    @Override
    public Invocation invocation() {
        return invocation;
    }

    @Override
    public String status() {
        return status;
    }

    @Override
    public void status(String status) {
        this.status = status;
    }
}
