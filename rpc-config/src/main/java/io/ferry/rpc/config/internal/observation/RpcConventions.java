package io.ferry.rpc.config.internal.observation;

import io.ferry.rpc.Invocation;
import io.ferry.rpc.config.observation.RpcCall;
import io.ferry.rpc.config.observation.RpcClientContext;
import io.ferry.rpc.config.observation.RpcObservations;
import io.ferry.rpc.config.observation.RpcServerContext;
import io.micrometer.common.KeyValues;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * Ferry's default names and tags, one convention per side. A convention the application registers for
 * {@link RpcClientContext} or {@link RpcServerContext} (a {@code GlobalObservationConvention}) replaces them.
 *
 * @param <C> the side's context
 */
final class RpcConventions<C extends Observation.Context & RpcCall> implements ObservationConvention<C> {
    private final String name;
    private final Class<C> side;
    private final RpcTags tags = new RpcTags();

    private RpcConventions(String name, Class<C> side) {
        this.name = name;
        this.side = side;
    }

    static RpcConventions<RpcClientContext> client() {
        return new RpcConventions<>(RpcObservations.CLIENT, RpcClientContext.class);
    }

    static RpcConventions<RpcServerContext> server() {
        return new RpcConventions<>(RpcObservations.SERVER, RpcServerContext.class);
    }

    @Override
    public String getName() {
        return name;
    }

    /** OpenTelemetry's RPC span name: {@code <fully qualified service>/<method>}. */
    @Override
    public String getContextualName(C context) {
        Invocation call = context.invocation();
        return tags.spanName(call.service(), call.method());
    }

    @Override
    public KeyValues getLowCardinalityKeyValues(C context) {
        Invocation call = context.invocation();
        String status = context.status();
        return status == null ? tags.running(call.service(), call.method())
                : tags.ended(call.service(), call.method(), status);
    }

    @Override
    public boolean supportsContext(Observation.Context context) {
        return side.isInstance(context);
    }
}
