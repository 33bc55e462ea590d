package io.ferry.rpc.config.internal;

import io.ferry.rpc.Filter;
import io.ferry.rpc.config.extension.FilterProvider;
import io.ferry.rpc.config.extension.ReferenceContext;
import io.ferry.rpc.config.extension.ServiceContext;
import io.ferry.rpc.config.option.Options;
import io.ferry.rpc.config.option.Resolved;

/**
 * Ferry's own named filters, registered like any other (see {@code META-INF/services}): the concurrency limits,
 * active by default wherever their option is set, under Dubbo's names.
 */
public final class BuiltinFilters {
    private BuiltinFilters() {
    }

    /** {@code actives}: calls in flight per method of a reference. */
    public static final class ActiveLimit implements FilterProvider {
        @Override
        public String name() {
            return "activelimit";
        }

        @Override
        public boolean activeByDefault() {
            return true;
        }

        @Override
        public Filter forReference(ReferenceContext reference) {
            Resolved settings = reference.settings();
            String name = reference.reference().interfaceName();
            // the providers' registry URLs may set it for the whole or a method, as they come: read at each call,
            // what the reference sets read once per method
            java.util.function.Function<java.lang.reflect.Method, io.ferry.rpc.config.option.Settings.Setting> limit =
                    settings.perCall(Options.ACTIVES);
            return ConcurrencyLimit.actives(m -> (Integer) limit.apply(m).value(), name);
        }
    }

    /** {@code executes}: calls running per method of a service. */
    public static final class ExecuteLimit implements FilterProvider {
        @Override
        public String name() {
            return "executelimit";
        }

        @Override
        public boolean activeByDefault() {
            return true;
        }

        @Override
        public Filter forService(ServiceContext service) {
            Resolved settings = service.settings();
            if (service.service().executes() <= 0 && !settings.setForSomeMethod(Options.EXECUTES)) {
                return null;
            }
            return ConcurrencyLimit.executes(m -> settings.get(Options.EXECUTES, m),
                    service.service().interfaceType().getName());
        }
    }
}
