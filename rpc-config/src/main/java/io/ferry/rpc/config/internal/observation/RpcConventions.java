package io.ferry.rpc.config.internal.observation;

import io.ferry.rpc.Invocation;
import io.ferry.rpc.config.observation.RpcClientContext;
import io.ferry.rpc.config.observation.RpcObservations;
import io.ferry.rpc.config.observation.RpcServerContext;
import io.micrometer.common.KeyValues;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * Ferry's default names and tags, one convention per side. A convention the application registers for
 * {@link RpcClientContext} or {@link RpcServerContext} (a {@code GlobalObservationConvention}) replaces them.
 */
final class RpcConventions {
    private RpcConventions() {
    }

    static final class Client implements ObservationConvention<RpcClientContext> {
        private final RpcTags tags = new RpcTags();

        @Override
        public String getName() {
            return RpcObservations.CLIENT;
        }

        @Override
        public String getContextualName(RpcClientContext context) {
            return spanName(context.invocation());
        }

        @Override
        public KeyValues getLowCardinalityKeyValues(RpcClientContext context) {
            Invocation call = context.invocation();
            String status = context.status();
            return status == null ? tags.running(call.service(), call.method())
                    : tags.ended(call.service(), call.method(), status);
        }

        @Override
        public boolean supportsContext(Observation.Context context) {
            return context instanceof RpcClientContext;
        }
    }

    static final class Server implements ObservationConvention<RpcServerContext> {
        private final RpcTags tags = new RpcTags();

        @Override
        public String getName() {
            return RpcObservations.SERVER;
        }

        @Override
        public String getContextualName(RpcServerContext context) {
            return spanName(context.invocation());
        }

        @Override
        public KeyValues getLowCardinalityKeyValues(RpcServerContext context) {
            Invocation call = context.invocation();
            String status = context.status();
            return status == null ? tags.running(call.service(), call.method())
                    : tags.ended(call.service(), call.method(), status);
        }

        @Override
        public boolean supportsContext(Observation.Context context) {
            return context instanceof RpcServerContext;
        }
    }

    /** OpenTelemetry's RPC span name: {@code <fully qualified service>/<method>}. */
    private static String spanName(Invocation call) {
        return call.service() + "/" + call.method().getName();
    }
}
