package io.ferry.rpc.config.observation;

import io.ferry.rpc.Invocation;
import io.micrometer.observation.transport.Kind;
import io.micrometer.observation.transport.ReceiverContext;

import java.util.Map;

/**
 * What the observation of one call on the provider knows: the call as received, and once it has ended its
 * {@linkplain #status() status}. The carrier is the request's attachments, from which a tracing bridge reads the
 * caller's trace context (W3C {@code traceparent}, as Dubbo's tracing sends it). Only string attachments are read.
 */
public final class RpcServerContext extends ReceiverContext<Map<String, Object>> implements RpcCall {
    private final Invocation invocation;
    private volatile String status;
    /**
     * When {@link RpcMeterObservationHandler} saw the call start ({@link RpcMeterObservationHandler#NOT_STARTED}
     * before): a field rather than an entry in the context's map; volatile, as the call may end on another thread.
     */
    volatile long startNanos = RpcMeterObservationHandler.NOT_STARTED;

    public RpcServerContext(Invocation invocation) {
        super(RpcServerContext::read, Kind.SERVER);
        this.invocation = invocation;
        setCarrier(invocation.attachments());
    }

    private static String read(Map<String, Object> attachments, String key) {
        return attachments != null && attachments.get(key) instanceof String value ? value : null;
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
